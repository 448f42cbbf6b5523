"""In the browser: a cash-in at the dealer's screen, the observer's blind recount, the duty
administrator's live totals, the report and its CSV export."""

import csv
import io
import re

import pytest
from playwright.sync_api import expect

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
    dealer.locator('input[name="note-5000"]').fill("2")
    dealer.locator('input[name="note-1000"]').fill("3")
    dealer.locator('input[name="chip-5000"]').fill("2")
    dealer.locator('input[name="chip-1000"]').fill("3")
    dealer.get_by_role("button", name="Enter the cash-in").click()
    expect(dealer.locator(".messages")).to_contain_text("recounts")

    # pushed live to the duty administrator, no reload
    expect(row_total).to_have_text(re.compile(r"^13[\s,.\u00a0]?000"))

    observer = new_page()
    _pin(observer, "observer")
    observer.get_by_test_id("cash-link").click()
    form = observer.get_by_test_id("recount-form")
    expect(form).to_be_visible()
    expect(observer.locator("main")).not_to_contain_text("13000")
    form.locator('input[name="note-5000"]').fill("2")
    form.locator('input[name="note-1000"]').fill("3")
    form.get_by_role("button", name="Confirm my count").click()
    expect(observer.locator(".messages")).to_contain_text("Recount recorded")

    duty.get_by_test_id("report-link").click()
    report = duty.get_by_test_id("report-table")
    expect(report.locator(f'tr[data-line="{table}"]')).to_be_visible()
    expect(duty.locator("svg.chart")).to_have_count(2)
    with duty.expect_download() as download_info:
        duty.get_by_test_id("export-csv").click()
    path = download_info.value.path()
    rows = list(csv.reader(io.StringIO(open(path, encoding="utf-8").read())))
    assert rows[0][0] == "Line"
    assert rows[1][0] == str(table)
    assert rows[1][6] == "13000.00"  # cash-ins to the cash box
