"""A full round on the tablet in Chromium while the inspector watches in another context."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.tablet import Tablet, sign_in_with_password, sign_in_with_pin, version_moved_on

pytestmark = pytest.mark.browser


def test_a_round_with_insurance_a_split_and_a_double_settles_on_every_screen(new_page, crew, table):
    inspector = new_page()
    sign_in_with_password(inspector, "inspector")
    tile = inspector.get_by_test_id(f"tile-{table.pk}")
    observer = new_page()
    sign_in_with_pin(observer, "observer")
    dealer_page = new_page()
    sign_in_with_pin(dealer_page, "dealer")
    tablet = Tablet(dealer_page)

    tablet.shuffle()
    tablet.tap("open-round")
    expect(tile.get_by_test_id("tile-phase")).to_have_text("Place your bets")
    tablet.bet(1, 200)
    tablet.bet(3, 100)
    tablet.tap("close-bets")
    tablet.cards("8s", "5h", "Ad", "8c", "6h")  # box 1: 8 8, box 3: 5 6, dealer: ace
    expect(dealer_page.get_by_test_id("phase")).to_have_text("Insurance")
    expect(dealer_page.get_by_test_id("insure-amount-1")).to_have_value(
        "100.00"
    )  # the engine's bound: half the bet, in cents
    before = tablet.version
    dealer_page.get_by_test_id("insure-form-1").get_by_role("button").click()
    version_moved_on(dealer_page, before)
    tablet.tap("insurance-closed")
    expect(dealer_page.get_by_test_id("hand-1-1").get_by_test_id("total")).to_have_text("16")
    tablet.tap("split")
    tablet.card("3d")
    expect(dealer_page.get_by_test_id("hand-1-1").get_by_test_id("total")).to_have_text("11")
    tablet.tap("double")
    tablet.card("Tc")
    tablet.card("9h")
    tablet.tap("stand")
    tablet.tap("double")
    tablet.card("9s")
    expect(dealer_page.get_by_test_id("awaiting")).to_have_text("The dealer draws: tap the card")
    expect(dealer_page.get_by_test_id("dealer-instruction")).to_have_text("Draw")
    tablet.card("7c")  # A 7: soft 18, the dealer stands

    expect(dealer_page.get_by_test_id("phase")).to_have_text("Settlement")
    expect(dealer_page.get_by_test_id("dealer-hand").get_by_test_id("total")).to_have_text(
        "soft 18"
    )
    expect(dealer_page.get_by_test_id("result-1-1")).to_have_text("won +400.00")
    expect(dealer_page.get_by_test_id("result-1-2")).to_have_text("lost −200.00")
    expect(dealer_page.get_by_test_id("result-3-1")).to_have_text("won +200.00")
    # box 1: insurance lost 100, 400 won, 200 lost: one instruction, pay 100
    expect(dealer_page.get_by_test_id("instruction-1")).to_have_text("Pay 100.00")
    expect(dealer_page.get_by_test_id("instruction-3")).to_have_text("Pay 200.00")
    expect(dealer_page.get_by_test_id("round-result")).to_contain_text("−300")
    # the observer sees the same table, without the dealer's controls
    expect(observer.get_by_test_id("result-1-1")).to_have_text("won +400.00")
    expect(observer.get_by_test_id("confirm-settlement")).to_be_hidden()

    tablet.tap("confirm-settlement")
    expect(tile.get_by_test_id("tile-phase")).to_have_text("Round closed")
    expect(tile.get_by_test_id("tile-last")).to_have_text("round 1: house −300.00")


def test_bad_input_on_the_tablet_shows_a_clear_message_and_changes_nothing(new_page, crew, table):
    page = new_page()
    sign_in_with_pin(page, "dealer")
    tablet = Tablet(page)
    page.get_by_test_id("cards-behind-cut").fill("20")
    page.get_by_test_id("shuffle").click()
    expect(tablet.error()).to_have_text(
        "The cut card must leave between 78 and 104 cards behind it."
    )
    page.get_by_test_id("cards-behind-cut").fill("90")
    tablet.shuffle()
    tablet.tap("open-round")
    version = tablet.version
    page.get_by_test_id("stake-2").fill("100000")
    page.get_by_test_id("bet-form-2").get_by_role("button").click()
    expect(tablet.error()).to_have_text(
        "Box 2: the bet 100,000.00 is over the table maximum 500.00."
    )
    assert tablet.version == version
    expect(page.get_by_test_id("box-bet-2")).to_have_count(0)


@pytest.mark.parametrize(
    ("preset", "burn", "cards", "expected"),
    [
        # hole card: box 1 T 9, dealer 7 up (7 in the hole), stand, dealer stands on 17
        ("hole-card", "2c", ["Th", "7d", "9c", "Ts"], "Pay 100.00"),
        # open cards: box 1 T 7, dealer T 7 both up: the dealer wins the tie
        ("open-cards", None, ["Th", "Td", "7c", "7s"], "Collect 100.00"),
    ],
)
def test_every_preset_plays_end_to_end_on_the_tablet(
    new_page, crew, table, preset, burn, cards, expected
):
    table.rules = {"preset": preset}
    table.save()
    page = new_page()
    sign_in_with_pin(page, "dealer")
    tablet = Tablet(page)
    tablet.shuffle(burn_card=burn)
    tablet.tap("open-round")
    tablet.bet(1, 100)
    tablet.tap("close-bets")
    tablet.cards(*[c[0] for c in cards])  # these tables do not record suits
    tablet.tap("stand")
    expect(page.get_by_test_id("phase")).to_have_text("Settlement")
    expect(page.get_by_test_id("instruction-1")).to_have_text(re.compile(expected))
    tablet.tap("confirm-settlement")
    expect(page.get_by_test_id("phase")).to_have_text("Round closed")


def test_a_dropped_connection_reconnects_by_itself_and_the_tablet_carries_on(new_page, crew, table):
    page = new_page()
    sign_in_with_pin(page, "dealer")
    tablet = Tablet(page)
    tablet.shuffle()
    page.evaluate(
        "document.getElementById('live-root')['htmx-internal-data'].webSocket.socket.close()"
    )
    expect(page.get_by_test_id("conn-state")).to_have_class("conn conn-closed")
    expect(page.get_by_test_id("conn-state")).to_have_class("conn conn-open")
    tablet.tap("open-round")
    expect(page.get_by_test_id("phase")).to_have_text("Place your bets")
