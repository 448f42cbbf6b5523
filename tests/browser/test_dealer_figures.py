"""In the browser: the dealer's own figures (issue 23 item 10) as the duty administrator and
the pit boss reach them, at 1280×800 and 800×1280, in English and Russian — the figures and
the downloads in view, nothing scrolling sideways but a table in its own box, the downloads
real XLSX and CSV. Screenshots: test-artifacts/dealers-*.png."""

import csv
import io
import re

import pytest
from django.utils import timezone
from openpyxl import load_workbook
from playwright.sync_api import expect

from floor.gaming import gaming_day_of
from tests.browser.screens import SIZES, assert_in_view, look
from tests.browser.tablet import sign_in_with_password
from tests.cashdesk.test_dealer_figures import play_three_rounds

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("language", ["en-US", "ru-RU"])
def test_the_dealers_figures_fit_the_screen_and_download(
    new_page, crew, dealer_desk, observer_desk, inspector_desk, size, language
):
    play_three_rounds(dealer_desk, observer_desk, inspector_desk)
    viewport = SIZES[size]
    who = "duty" if language == "en-US" else "pitboss"
    page = new_page(locale=language, viewport=viewport)
    sign_in_with_password(page, who, live=False)
    page.get_by_test_id("dealers-link").click()
    expect(page.get_by_test_id("dealers-heading")).to_be_visible()
    row = page.locator('[data-testid="dealers-table"] tr[data-dealer="dealer"]')
    expect(row.locator('[data-column="rounds"]')).to_have_text("2")
    expect(row.locator('[data-column="voids"]')).to_have_text("1")
    expect(row.locator('[data-column="result"]')).to_have_text(re.compile(r"^400[,.]00$"))
    for testid in ("dealers-heading", "export-xlsx", "export-csv", "dealers-month"):
        assert_in_view(page.get_by_test_id(testid), what=testid)
    width = viewport["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    for testid in ("dealers-table", "dealer-totals"):
        box = page.get_by_test_id(testid).bounding_box()
        scroller = page.eval_on_selector(
            f'[data-testid="{testid}"]', "t => t.parentElement.getBoundingClientRect().right"
        )
        assert box["x"] >= 0 and scroller <= width + 0.5, testid
        if width >= 1280:  # the whole table in view, nothing hidden in its scroll box
            assert box["x"] + box["width"] <= width, testid
    look(page, f"dealers-{language[:2]}-{size}")

    with page.expect_download() as download_info:
        page.get_by_test_id("export-xlsx").click()
    sheet = load_workbook(io.BytesIO(open(download_info.value.path(), "rb").read())).active
    rows = list(sheet.iter_rows(values_only=True))
    assert rows[1][0] and rows[1][4] == 2  # the dealer's rounds, a number
    with page.expect_download() as download_info:
        page.get_by_test_id("export-csv").click()
    raw = open(download_info.value.path(), "rb").read()
    assert raw.startswith(b"\xef\xbb\xbf")
    separator = ";" if language == "ru-RU" else ","
    header = next(csv.reader(io.StringIO(raw.decode("utf-8-sig")), delimiter=separator))
    assert len(header) == 15

    page.get_by_test_id("dealers-month").click()
    expect(page).to_have_url(re.compile(rf"month={gaming_day_of(timezone.now()):%Y-%m}"))
    expect(page.locator('[data-testid="dealers-table"] tr[data-dealer="dealer"]')).to_be_visible()
