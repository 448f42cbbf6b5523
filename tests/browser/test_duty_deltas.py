"""In the browser: the duty administrator's screen applies per-table deltas (static/js/duty.js):
a cash-in replaces its table's row live; a delta naming a row the screen lacks, or coming
after a gap in the sequence, brings the full state; nothing is replaced while the
administrator types in the live part, and what waited is applied when the field is left."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_cash_desk import _password, _pin

pytestmark = pytest.mark.browser


def _cash_in(dealer, notes_5000: int) -> None:
    dealer.locator('input[name="note-5000"]').fill(str(notes_5000))
    dealer.locator('input[name="chip-5000"]').fill(str(notes_5000))
    dealer.get_by_role("button", name="Enter the cash-in").click()
    expect(dealer.locator(".messages")).to_contain_text("recounts")


def _total(thousands: int):
    return re.compile(rf"^{thousands}[\s,.\u00a0\u202f]000[,.]00$")


def test_duty_screen_applies_deltas_heals_gaps_and_waits_while_typing(new_page, crew, table):
    table.chip_denominations = ["100", "500", "1000", "5000"]
    table.save(update_fields=["chip_denominations"])

    duty = new_page()
    _password(duty, "duty")
    expect(duty).to_have_url(re.compile(r"/cash/duty/$"))
    row = f'tr[data-table="{table.number}"]'
    total = duty.locator(f'{row} [data-testid="table-total"]')
    expect(total).to_have_text(re.compile(r"^0"))
    live = duty.get_by_test_id("duty-live")
    seq = int(live.get_attribute("data-seq"))

    dealer = new_page()
    _pin(dealer, "dealer")
    dealer.get_by_test_id("cash-link").click()

    # a delta: the row replaced in place, the sequence one higher, the rest of the floor kept
    mark = "document.getElementById('duty-live').setAttribute('data-marked', '1')"
    duty.evaluate(mark)
    _cash_in(dealer, 2)
    expect(total).to_have_text(_total(10))
    expect(live).to_have_attribute("data-seq", str(seq + 1))
    expect(live).to_have_attribute("data-marked", "1")  # not replaced by a full state
    expect(duty.get_by_test_id("exceptions")).to_contain_text("Awaiting the recount")

    # a delta naming a row the screen lacks brings the full state
    duty.evaluate(f"document.querySelector('{row}').remove()")
    _cash_in(dealer, 1)
    expect(total).to_have_text(_total(15))

    # a gap in the sequence brings the full state
    shown = int(live.get_attribute("data-seq"))
    duty.evaluate(f"document.getElementById('duty-live').setAttribute('data-seq', '{shown - 3}')")
    duty.evaluate(mark)
    _cash_in(dealer, 1)
    expect(total).to_have_text(_total(20))
    expect(live).to_have_attribute("data-seq", str(shown + 1))
    expect(live).not_to_have_attribute("data-marked", "1")  # the full state replaced it

    # a mismatched recount: its exception takes a resolution, a note to type (a cash-in
    # still awaiting its recount has none: nothing to resolve yet)
    observer = new_page()
    _pin(observer, "observer")
    observer.get_by_test_id("cash-link").click()
    recount = observer.get_by_test_id("recount-form").first
    recount.locator('input[name="note-5000"]').fill("1")
    recount.get_by_role("button", name="Confirm my count").click()
    expect(observer.locator(".messages")).to_contain_text("differs")
    expect(duty.get_by_test_id("resolve-form")).to_have_count(1)
    expect(live).to_have_attribute("data-seq", str(shown + 2))

    # typing in the live part: what arrives waits until the field is left
    note = duty.locator('input[name="note"]').first
    note.fill("Checking with the dealer")
    _cash_in(dealer, 1)
    duty.wait_for_timeout(1500)
    expect(total).to_have_text(_total(20))
    expect(note).to_have_value("Checking with the dealer")
    duty.get_by_test_id("home-heading").click()
    expect(total).to_have_text(_total(25))
    expect(live).to_have_attribute("data-seq", str(shown + 3))
