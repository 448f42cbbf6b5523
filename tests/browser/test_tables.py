"""The pit boss opens a table in Chromium; a reservation counts down and expires live on two
screens at once."""

import re

import pytest
from playwright.sync_api import expect

from tables.models import ChipCount, Reservation, Table, TableChange
from tests.browser.tablet import sign_in_with_pin
from tests.conftest import PASSWORD

pytestmark = pytest.mark.browser


def sign_in_pit_boss(page, username: str = "pitboss") -> None:
    page.goto("/staff/login/")
    page.locator('input[name="username"]').fill(username)
    page.locator('input[name="password"]').fill(PASSWORD)
    page.locator('form[action$="/staff/login/"] button[type="submit"]').click()
    expect(page.get_by_test_id("home-heading")).to_be_visible()


def test_pit_boss_opens_a_table_end_to_end(new_page, crew, table):
    table.status = Table.Status.CLOSED
    table.chip_denominations = ["100", "500"]
    table.save()
    page = new_page()
    sign_in_pit_boss(page)
    expect(page.get_by_test_id("status-1")).to_have_text("Closed")
    page.get_by_test_id("checklist-1").click()
    page.get_by_test_id("start-opening").click()
    expect(page.get_by_test_id("table-status")).to_have_text("Opening")

    page.get_by_test_id("count-100").fill("40")
    page.get_by_test_id("count-500").fill("20")
    page.get_by_test_id("do-chip_float").click()
    expect(page.get_by_test_id("done-chip_float")).to_contain_text("Pitboss")
    page.get_by_test_id("decks").fill("6")
    page.get_by_test_id("do-cards").click()
    # the cards in the procedure's order (docs/sources.md#opening-procedure)
    for step in ("spread_checked", "turned", "mixed", "shuffled", "cut", "cut_card"):
        if step == "cut":
            page.get_by_test_id("cut-at").fill("150")
        if step == "cut_card":
            page.get_by_test_id("cards-behind-cut").fill("90")
        page.get_by_test_id(f"do-{step}").click()
        expect(page.get_by_test_id(f"done-{step}")).to_be_visible()
    expect(page.get_by_test_id("step-cut_card")).to_contain_text("90")
    for step in ("shoe_loaded", "sign_out"):
        page.get_by_test_id(f"do-{step}").click()
        expect(page.get_by_test_id(f"done-{step}")).to_be_visible()
    page.get_by_test_id("seal").fill("S-4411")
    page.get_by_test_id("tip-box").check()
    page.get_by_test_id("do-cash_box").click()
    page.get_by_test_id("do-staff").click()
    expect(page.get_by_test_id("done-staff")).to_be_visible()

    # Opening before the signatures is refused, with the reason.
    page.get_by_test_id("complete").click()
    expect(page.locator(".messages")).to_contain_text("needs both signatures")
    # The same person cannot give the second signature.
    page.get_by_test_id("sign-pit_boss-secret").fill(PASSWORD)
    page.get_by_test_id("sign-pit_boss-submit").click()
    expect(page.get_by_test_id("signature-pit_boss")).to_contain_text("Pitboss")
    page.get_by_test_id("sign-second-identifier").fill("pitboss")
    page.get_by_test_id("sign-second-secret").fill(PASSWORD)
    page.get_by_test_id("sign-second-submit").click()
    expect(page.locator(".messages")).to_contain_text("cannot sign here")
    page.get_by_test_id("sign-second-identifier").fill("inspector")
    page.get_by_test_id("sign-second-secret").fill(PASSWORD)
    page.get_by_test_id("sign-second-submit").click()
    expect(page.get_by_test_id("signature-second")).to_contain_text("Inspector")
    page.get_by_test_id("complete").click()
    expect(page.get_by_test_id("table-status")).to_have_text("Open")
    expect(page.get_by_test_id("history")).to_contain_text("Opening → Open")

    assert Table.objects.get(pk=table.pk).status == Table.Status.OPEN
    assert TableChange.objects.filter(table=table, kind="status").count() == 2
    assert ChipCount.objects.get(table=table, kind="opener").total == 14000


def test_a_reservation_counts_down_and_expires_on_two_screens(new_page, crew, table):
    table.reservation_seconds = 5
    table.save()
    observer = new_page()
    sign_in_with_pin(observer, "observer")
    dealer = new_page()
    sign_in_with_pin(dealer, "dealer")

    observer.get_by_test_id("reserve-box").select_option("3")
    observer.get_by_test_id("reserve-seat").fill("Ivan")
    observer.get_by_test_id("reserve").click()
    for page in (observer, dealer):
        expect(page.get_by_test_id("reservation-3")).to_contain_text("Ivan")
        expect(page.get_by_test_id("countdown-3")).to_have_text(re.compile(r"0:0[1-5]"))
    # It ticks between pushes...
    expect(dealer.get_by_test_id("countdown-3")).to_have_text(re.compile(r"0:0[1-3]"))
    # ...and at zero the token is gone from both screens, recorded as expired.
    for page in (observer, dealer):
        expect(page.get_by_test_id("reservation-3")).to_have_count(0, timeout=15_000)
    reservation = Reservation.objects.get(table=table, box=3)
    assert reservation.end_reason == "expired"


# The demo table's chip set and par (seed_demo): 185 000 at par; the reviewer's float had
# one chip of 5 000 where 20 are expected (issue 19, item 6).
DEMO_CHIPS = ["50", "100", "500", "1000", "5000"]
DEMO_PAR = {"50": 100, "100": 100, "500": 60, "1000": 40, "5000": 20}
TAP = 48  # CSS px: the smallest control a person at a desk taps or clicks


@pytest.mark.parametrize("size", ["landscape", "portrait"])
def test_a_short_float_is_a_warning_a_note_and_the_inspectors_acknowledgement(
    new_page, crew, table, size
):
    """A float of 90 000 against a par of 185 000: refused without a note, saying what
    differs; recorded with the note as a warning, not a tick; the inspector's signature
    names the difference and needs his acknowledgement. Screenshots:
    test-artifacts/short-float-*.png."""
    from floor.models import Alert
    from tables.checklists import step_codes
    from tables.models import Checklist
    from tables.services import checklist_step_record
    from tests.browser.screens import SIZES, assert_in_view, look

    table.status = Table.Status.CLOSED
    table.chip_denominations = DEMO_CHIPS
    table.par_float = DEMO_PAR
    table.save()
    page = new_page(viewport=SIZES[size])
    sign_in_pit_boss(page)
    page.goto(f"/tables/{table.pk}/")
    page.get_by_test_id("start-opening").click()
    expect(page.get_by_test_id("par-5000")).to_contain_text("par 20")
    for d, n in {**DEMO_PAR, "5000": 1}.items():
        page.get_by_test_id(f"count-{d}").fill(str(n))
    page.get_by_test_id("do-chip_float").click()
    refusal = page.locator(".messages")
    expect(refusal).to_contain_text("The chip float differs. Par float 185,000.00")
    expect(refusal).to_contain_text("90,000.00 counted, a difference of −95,000.00 (5,000 × −19)")
    assert not ChipCount.objects.exists()
    # The refusal keeps what was typed: only the note is still to write.
    for d, n in {**DEMO_PAR, "5000": 1}.items():
        expect(page.get_by_test_id(f"count-{d}")).to_have_value(str(n))
    assert_in_view(refusal, what=f"the float's refusal ({size})")
    note = page.get_by_test_id("float-note")
    note.scroll_into_view_if_needed()
    assert_in_view(note, what=f"the float's note ({size})")
    look(page, f"short-float-refused-{size}")
    note.fill("the cage is short of 5 000 chips")
    page.get_by_test_id("do-chip_float").click()
    warning = page.get_by_test_id("float-discrepancy")
    expect(warning).to_contain_text("−95,000.00")
    expect(warning).to_contain_text("the cage is short of 5 000 chips")
    expect(page.get_by_test_id("done-chip_float")).not_to_contain_text("✓")
    warning.scroll_into_view_if_needed()
    assert_in_view(warning, what=f"the float's warning ({size})")
    look(page, f"short-float-step-{size}")
    assert Alert.objects.get(kind="float_par_difference").params["difference"] == "-95000.00"

    checklist = Checklist.objects.get(table=table)
    data = {
        "cards": {"decks": 6},
        "cut": {"cut_at": 150},
        "cut_card": {"cards_behind_cut": 90},
        "cash_box": {"seal": "S", "tip_box": True},
    }
    for step in step_codes("opening")[1:-1]:  # the float was counted above; the staff below
        checklist_step_record(
            checklist=checklist, step=step, done_by=crew["pitboss"], data=data.get(step, {})
        )
    checklist_step_record(checklist=checklist, step="staff", done_by=crew["pitboss"])
    page.reload()
    signing = page.get_by_test_id("sign-discrepancy")
    expect(signing).to_contain_text("You sign for this difference of the chip float")
    expect(signing).to_contain_text("−95,000.00")
    page.get_by_test_id("sign-second-identifier").fill("inspector")
    page.get_by_test_id("sign-second-secret").fill(PASSWORD)
    page.get_by_test_id("sign-second-submit").click()
    expect(page.locator(".messages")).to_contain_text("signs only acknowledging it")
    assert Checklist.objects.get(pk=checklist.pk).second_signed_by is None
    box = page.get_by_test_id("sign-acknowledge")
    box.scroll_into_view_if_needed()
    for name in ("sign-acknowledge", "sign-second-identifier", "sign-second-submit"):
        assert_in_view(page.get_by_test_id(name), what=f"{name} ({size})")
    assert_in_view(page.get_by_test_id("sign-second-submit"), min_height=TAP, what="sign")
    box.check()
    page.get_by_test_id("sign-second-identifier").fill("inspector")
    page.get_by_test_id("sign-second-secret").fill(PASSWORD)
    look(page, f"short-float-sign-{size}")
    page.get_by_test_id("sign-second-submit").click()
    expect(page.get_by_test_id("signature-acknowledged")).to_be_visible()
    assert Checklist.objects.get(pk=checklist.pk).acknowledged["par"] == "185000.00"
