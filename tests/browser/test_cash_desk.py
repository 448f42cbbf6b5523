"""In the browser: a cash-in at the dealer's screen, the observer's blind recount, the duty
administrator's live totals, the report, its charts and its downloads; and the report as a
person sees it at 1280×800 and 800×1280 (the table fits, the charts are drawn with readable,
non-overlapping labels). Screenshots: test-artifacts/cash-*.png."""

import csv
import datetime as dt
import io
import re
from decimal import Decimal

import pytest
from openpyxl import load_workbook
from playwright.sync_api import expect

from floor.gaming import day_window
from tests.browser.conftest import ARTIFACTS
from tests.cashdesk.conftest import closed_round, count_chips, today  # noqa: F401 — fixtures
from tests.conftest import PASSWORD, PIN

pytestmark = pytest.mark.browser


def _pin(page, username):
    page.goto("/staff/pin/")
    page.locator('input[name="identifier"]').fill(username)
    for digit in PIN:
        page.locator(f'[data-keypad] [data-digit="{digit}"]').click()
    page.locator('[data-keypad] button[type="submit"]').click()


def _password(page, username):
    page.goto("/staff/login/")
    page.locator('input[name="username"]').fill(username)
    page.locator('input[name="password"]').fill(PASSWORD)
    page.locator('form[action$="/staff/login/"] button[type="submit"]').click()


def _shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def test_cash_in_recount_live_totals_report_and_export(new_page, crew, table):
    table.chip_denominations = ["100", "500", "1000", "5000"]
    table.save(update_fields=["chip_denominations"])

    duty = new_page()
    _password(duty, "duty")
    expect(duty).to_have_url(re.compile(r"/cash/duty/$"))
    row_total = duty.locator(f'tr[data-table="{table.number}"] [data-testid="table-total"]')
    expect(row_total).to_have_text(re.compile(r"^0"))

    dealer = new_page()
    _pin(dealer, "dealer")
    dealer.get_by_test_id("cash-link").click()
    # a refused cash-in comes back with what was typed
    dealer.locator('input[name="note-5000"]').fill("2")
    dealer.locator('input[name="note-1000"]').fill("3")
    dealer.locator('input[name="chip-5000"]').fill("2")
    dealer.locator('input[name="player_card"]').fill("PC-7")
    dealer.get_by_role("button", name="Enter the cash-in").click()
    expect(dealer.get_by_test_id("error")).to_be_visible()
    expect(dealer.locator('input[name="note-5000"]')).to_have_value("2")
    expect(dealer.locator('input[name="player_card"]')).to_have_value("PC-7")
    _shot(dealer, "cash-table-refused-cash-in-1280x800")
    dealer.locator('input[name="chip-1000"]').fill("3")
    dealer.get_by_role("button", name="Enter the cash-in").click()
    expect(dealer.locator(".messages")).to_contain_text("recounts")

    # pushed live to the duty administrator, no reload, in the one number format
    expect(row_total).to_have_text(re.compile(r"^13[\s,.\u00a0\u202f]000[,.]00$"))

    observer = new_page()
    _pin(observer, "observer")
    observer.get_by_test_id("cash-link").click()
    form = observer.get_by_test_id("recount-form")
    expect(form).to_be_visible()
    expect(observer.locator("main")).not_to_contain_text(re.compile(r"13[\s,.\u00a0]?000"))
    form.locator('input[name="note-5000"]').fill("2")
    form.locator('input[name="note-1000"]').fill("3")
    form.get_by_role("button", name="Confirm my count").click()
    expect(observer.get_by_test_id("dealer-figure")).to_have_text(
        re.compile(r"^13[\s,.\u00a0]000[,.]00$")
    )
    _shot(observer, "cash-observer-after-recount-1280x800")

    duty.get_by_test_id("report-link").click()
    report = duty.get_by_test_id("report-table")
    expect(report.locator(f'tr[data-line="{table}"]')).to_be_visible()
    # the hour chart is drawn; no drop is counted yet, so the hold chart says why it is empty
    expect(duty.locator('[data-chart][data-drawn="true"] svg')).to_have_count(1)
    expect(duty.get_by_test_id("chart-hold-empty")).to_be_visible()
    with duty.expect_download() as download_info:
        duty.get_by_test_id("export-xlsx").click()
    download = download_info.value
    assert download.suggested_filename.endswith(".xlsx")
    sheet = load_workbook(io.BytesIO(open(download.path(), "rb").read())).active
    rows = list(sheet.iter_rows(values_only=True))
    header, line = rows[0], rows[1]
    assert line[0] == str(table)
    assert line[header.index(header[10])] == 13000  # cash-ins to the cash box, a number
    with duty.expect_download() as download_info:
        duty.get_by_test_id("export-csv").click()
    raw = open(download_info.value.path(), "rb").read()
    assert raw.startswith(b"\xef\xbb\xbf")
    header = next(csv.reader(io.StringIO(raw.decode("utf-8-sig"))))  # English: commas
    assert len(header) == 19 and header[7] == "Hold, %"
    assert header[-1] == "Awaiting confirmation"  # the mark a pending correction gets


def busy_day():
    """The busy floor's gaming day: yesterday's, whole — its five hours of rounds never run
    into a day boundary or the future, whatever the hour the tests run at."""
    return today() - dt.timedelta(days=1)


@pytest.fixture
def busy_floor(make_table, crew, count_chips, closed_round):  # noqa: F811
    """Ten tables with six- and seven-figure amounts (the widest the report shows), a
    negative win, pit cash, rounds over several hours."""
    from cashdesk.models import CashIn, DropCount
    from tables.models import Table

    start = day_window(busy_day())[0] + dt.timedelta(hours=1)
    tables = list(Table.objects.all()) + [make_table(n) for n in range(2, 11)]
    for i, t in enumerate(tables):
        count_chips(t, "opener", str(1_200_000 + 1000 * i), at=start)
        for k in range(4):
            CashIn.objects.create(
                table=t,
                gaming_day=busy_day(),
                shift=1,
                notes={"5000": 20},
                amount=Decimal("100000"),
                chips={"5000": 20},
                chips_total=Decimal("100000"),
                destination="pit_cash_desk" if (i + k) % 3 == 0 else "cash_box",
                entered_by=crew["dealer"],
                entered_at=start + dt.timedelta(minutes=30 * k + i),
                status="confirmed",
            )
        for h in range(5):
            closed_round(
                t,
                bets=["5000", "2500"],
                players_net=str(-3000 - 1000 * i + (60000 if i == 3 else 0)),
                at=start + dt.timedelta(hours=h, minutes=i),
            )
        count_chips(t, "closer", str(1_150_000 + 7000 * i), at=start + dt.timedelta(hours=6))
        DropCount.objects.create(
            table=t,
            gaming_day=busy_day(),
            amount=Decimal("300000") - 5000 * i,
            counted_by=crew["duty"],
            entered_at=start + dt.timedelta(hours=6),
        )
    return tables


SIZES = [(1280, 800), (800, 1280)]


def _boxes(page, selector: str) -> list[dict]:
    return page.eval_on_selector_all(
        selector,
        """els => els.map(e => { const r = e.getBoundingClientRect();
            return {text: e.textContent, x: r.x, y: r.y, w: r.width, h: r.height,
                    fill: getComputedStyle(e).fill, opacity: e.getAttribute('opacity')}; })""",
    )


def _overlap(a: dict, b: dict) -> bool:
    return not (
        a["x"] + a["w"] <= b["x"]
        or b["x"] + b["w"] <= a["x"]
        or a["y"] + a["h"] <= b["y"]
        or b["y"] + b["h"] <= a["y"]
    )


def _luminance(colour: str) -> float:
    r, g, b = (int(v) / 255 for v in re.findall(r"\d+", colour)[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _labels_readable_and_apart(page, chart_testid: str, pattern: str) -> int:
    """Tick labels matching ``pattern`` in the chart: light on the dark panel, inside the
    chart, no two overlapping. Returns how many are shown."""
    chart = page.get_by_test_id(chart_testid)
    box = chart.bounding_box()
    labels = [
        b
        for b in _boxes(page, f'[data-testid="{chart_testid}"] svg text')
        if re.fullmatch(pattern, b["text"])
    ]
    assert labels, f"no tick labels in {chart_testid}"
    for label in labels:
        assert _luminance(label["fill"]) > 0.6, (label, "dark text on the dark panel")
        assert box["x"] - 1 <= label["x"] and label["x"] + label["w"] <= box["x"] + box["width"] + 1
    for i, a in enumerate(labels):
        for b in labels[i + 1 :]:
            assert not _overlap(a, b), (a, b)
    return len(labels)


@pytest.mark.parametrize("width, height", SIZES)
@pytest.mark.parametrize("language", ["en-US", "ru-RU"])
def test_the_report_fits_the_screen_with_readable_charts(
    new_page, busy_floor, crew, width, height, language
):
    lang = language[:2]
    crew["duty"].preferred_language = lang
    crew["duty"].save(update_fields=["preferred_language"])
    page = new_page(language)
    page.set_viewport_size({"width": width, "height": height})
    _password(page, "duty")
    page.goto(f"/cash/reports/?day={busy_day().isoformat()}")
    expect(page.locator('[data-chart][data-drawn="true"] svg')).to_have_count(2)
    assert page.evaluate("document.documentElement.lang") == lang

    # nothing scrolls sideways but, on the narrow screen, a table inside its own box
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    for testid in ("report-table", "play-table"):
        table_box = page.get_by_test_id(testid).bounding_box()
        clipped = page.eval_on_selector(
            f'[data-testid="{testid}"]',
            "t => t.parentElement.scrollWidth - t.parentElement.clientWidth",
        )
        if width >= 1280:  # the whole table in view, nothing hidden in its scroll box
            assert table_box["x"] >= 0 and table_box["x"] + table_box["width"] <= width, testid
            assert clipped == 0, testid
    legend = page.get_by_test_id("report-legend").bounding_box()
    assert legend["x"] + legend["width"] <= width

    # charts: drawn inside the viewport's width, big enough, no tall empty box
    for testid in ("chart-hours", "chart-hold"):
        box = page.get_by_test_id(testid).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, testid
        assert box["width"] >= 300 and box["height"] >= 250, (testid, box)
    hold = page.get_by_test_id("chart-hold").bounding_box()
    assert hold["height"] <= 90 + 34 * len(busy_floor) + 2  # one bar row per table, no more

    hours = _labels_readable_and_apart(page, "chart-hours", r"\d\d")
    assert hours >= 8  # every third hour at least, none on top of another
    tables = _labels_readable_and_apart(page, "chart-hold", r"BJ-\d+")
    assert tables == len(busy_floor)  # every table named
    _labels_readable_and_apart(page, "chart-hours", r"[\u2212-]?[\d\s\u00a0,.]+")

    # the legend of the series and the axis names are in the person's language
    texts = " ".join(b["text"] for b in _boxes(page, "[data-chart] svg text"))
    if lang == "ru":
        assert "Выигрыш (рассчитанные розыгрыши)" in texts and "Холд, %" in texts
    else:
        assert "Win (settled rounds)" in texts and "Hold, %" in texts
    page.get_by_test_id("chart-hours").scroll_into_view_if_needed()
    _shot(page, f"cash-report-{width}x{height}-{lang}")


def test_the_print_view_and_the_records_fit(new_page, busy_floor, crew):
    crew["duty"].preferred_language = "en"
    crew["duty"].save(update_fields=["preferred_language"])
    page = new_page()
    _password(page, "duty")
    page.goto(f"/cash/reports/print/?day={busy_day().isoformat()}")
    expect(page.locator('[data-chart][data-drawn="true"] svg')).to_have_count(2)
    # the page prints itself once drawn, and the charts redraw for paper: measure after that
    expect(page.locator('html[data-printed="true"]')).to_have_count(1)
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    label = _boxes(page, '[data-testid="chart-hold"] svg text')[0]
    assert _luminance(label["fill"]) < 0.3  # dark text on white paper
    _shot(page, "cash-report-print-1280x800")
    page.goto(f"/cash/reports/records/?day={busy_day().isoformat()}&table={busy_floor[0].pk}")
    expect(page.get_by_test_id("records-cash-ins")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    _shot(page, "cash-records-1280x800")


def test_a_table_name_in_a_chart_tooltip_is_text_not_html(new_page, busy_floor, crew):
    table = busy_floor[0]
    table.name = '<img id="injected" src="x">BJ'
    table.save(update_fields=["name"])
    page = new_page()
    _password(page, "duty")
    page.goto(f"/cash/reports/?day={busy_day().isoformat()}")
    chart = page.get_by_test_id("chart-hold")
    expect(chart.locator("svg")).to_be_visible()
    chart.scroll_into_view_if_needed()
    box = chart.bounding_box()
    first_row_y = box["y"] + 36 + 17  # the first table's bar row (grid top 36, 34 px a row)
    page.mouse.move(box["x"] + box["width"] / 2, first_row_y)
    expect(chart.locator("div", has_text='<img id="injected" src="x">BJ').last).to_be_visible()
    assert page.locator("#injected").count() == 0


@pytest.mark.parametrize("width, height", SIZES)
def test_the_hour_chart_says_a_quiet_day_in_words_and_ticks_whole_numbers(
    new_page,
    crew,
    table,
    closed_round,  # noqa: F811
    width,
    height,
):
    """A day with nothing by hour says so instead of an axis of zeros (it drew ticks
    0, 0, 0, 1, 1, 1); a day of small amounts gets whole, distinct ticks."""
    from tests.browser.screens import assert_in_view

    crew["duty"].preferred_language = "en"
    crew["duty"].save(update_fields=["preferred_language"])
    page = new_page(viewport={"width": width, "height": height})
    _password(page, "duty")
    page.goto(f"/cash/reports/?day={today().isoformat()}")
    note = page.get_by_test_id("chart-hours-empty")
    expect(note).to_contain_text("Nothing to show by hour")
    expect(page.get_by_test_id("chart-hours")).to_have_count(0)
    note.scroll_into_view_if_needed()
    assert_in_view(note, what=f"the hour chart's empty note ({width}x{height})")
    page.screenshot(path=str(ARTIFACTS / f"cash-report-hours-empty-{width}x{height}.png"))

    closed_round(table, bets=["10"], players_net="-2")  # a win of 2.00 in one hour
    page.reload()
    chart = page.get_by_test_id("chart-hours")
    expect(chart.locator("svg")).to_be_visible()
    chart.scroll_into_view_if_needed()
    ticks = [b["text"] for b in _boxes(page, '[data-testid="chart-hours"] svg text')]
    values = [t for t in ticks if re.fullmatch(r"\d", t)]  # the hours are two digits
    assert len(values) >= 2 and len(values) == len(set(values)), values
    page.screenshot(path=str(ARTIFACTS / f"cash-report-hours-small-{width}x{height}.png"))
