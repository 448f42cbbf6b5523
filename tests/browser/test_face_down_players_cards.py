"""In the browser: 003's variant «Карты игроков могут сдаваться взакрытую» (issue 23 item 6,
`player_cards: face-down`, docs/sources.md#players-cards-face-down) — the tablet records each
box card of the deal as dealt face down with one big button; every screen (the observer's,
the inspector's tile) shows the cards face down; at the box's turn the tablet says to turn
them and the card pad is in view to enter each; at 1280×800 and 800×1280.
Screenshots: test-artifacts/players-face-down-*.png."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.screens import SIZES, TOUCH, assert_in_view, look
from tests.browser.tablet import Tablet, sign_in_with_password, sign_in_with_pin

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("size", SIZES)
def test_the_players_cards_lie_face_down_until_their_box_plays(new_page, crew, table, size):
    table.rules = {"preset": "hole-card", "player_cards": "face-down"}
    table.save()
    viewport = SIZES[size]
    observer = new_page(viewport=viewport)
    sign_in_with_pin(observer, "observer")
    inspector = new_page(viewport=viewport)
    sign_in_with_password(inspector, "inspector")
    tile = inspector.get_by_test_id(f"tile-{table.pk}")
    page = new_page(viewport=viewport)
    sign_in_with_pin(page, "dealer")
    tablet = Tablet(page)
    tablet.shuffle(burn_card="2c")
    tablet.tap("open-round")
    tablet.bet(1, 100)
    tablet.bet(2, 100)
    tablet.tap("close-bets")
    expect(page.get_by_test_id("awaiting")).to_have_text(
        'Card face down to box 1: tap "Dealt face down"'
    )
    # the button just tapped (close-bets) is not morphed into this one with its old words
    expect(page.get_by_test_id("card-down")).to_have_text("Dealt face down")
    assert_in_view(page.get_by_test_id("card-down"), min_width=TOUCH, min_height=TOUCH)
    expect(page.get_by_test_id("card-pad-box")).to_be_hidden()  # nothing to enter now
    look(page, f"players-face-down-tablet-dealing-{size}")
    tablet.tap("card-down")  # box 1
    tablet.tap("card-down")  # box 2
    tablet.card("9")  # the dealer's up card
    tablet.tap("card-down")
    tablet.tap("card-down")
    tablet.card("7")  # the hole card
    for screen in (page, observer):
        for box in (1, 2):
            hand = screen.get_by_test_id(f"hand-{box}-1")
            expect(hand.locator(".playing-card.hidden")).to_have_count(2)
    expect(tile.get_by_test_id("tile-face-down")).to_contain_text("boxes 1, 2")
    assert_in_view(tile.get_by_test_id("tile-face-down"), what="the tile's face-down boxes")
    look(observer, f"players-face-down-observer-{size}")
    look(inspector, f"players-face-down-inspector-{size}")
    expect(page.get_by_test_id("turn-face-down")).to_have_text(
        "Box 1: turn its two face-down cards and tap each"
    )
    assert_in_view(page.get_by_test_id("awaiting"), what="which cards to turn")
    assert_in_view(page.get_by_test_id("card-6"), min_width=TOUCH, min_height=TOUCH)
    expect(page.get_by_test_id("stand")).to_have_count(0)  # the decision waits
    look(page, f"players-face-down-tablet-turning-{size}")
    tablet.cards("6", "5")  # box 1 turned: 11
    expect(observer.get_by_test_id("hand-1-1").locator(".playing-card.hidden")).to_have_count(0)
    expect(observer.get_by_test_id("hand-2-1").locator(".playing-card.hidden")).to_have_count(2)
    expect(tile.get_by_test_id("tile-face-down")).to_contain_text("box 2")
    tablet.tap("double")
    tablet.card("T")  # 21
    tablet.cards("T", "8")  # box 2 turned: 18
    tablet.tap("stand")
    tablet.card("2")  # the dealer: 18
    expect(page.get_by_test_id("phase")).to_have_text("Settlement")
    expect(tile.get_by_test_id("tile-face-down")).to_have_count(0)
    for screen in (page, observer):
        expect(screen.locator(".hand .playing-card.hidden")).to_have_count(0)
    expect(page.get_by_test_id("result-1-1")).to_have_text(re.compile(r"won \+?200\.00"))


@pytest.mark.parametrize("size", SIZES)
def test_a_one_card_table_turns_a_blackjack_after_insurance(new_page, crew, table, size):
    """The standard game's deal ends on a face-down card: the next control (close insurance)
    carries its own words, and the Blackjack turned at the box's turn is noted."""
    table.rules = {"preset": "standard", "player_cards": "face-down"}
    table.save()
    page = new_page(viewport=SIZES[size])
    sign_in_with_pin(page, "dealer")
    tablet = Tablet(page)
    tablet.shuffle()
    tablet.tap("open-round")
    tablet.bet(1, 100)
    tablet.tap("close-bets")
    tablet.tap("card-down")
    tablet.card("Ad")  # the dealer's ace (a standard table records suits: 7-7-7)
    tablet.tap("card-down")
    expect(page.get_by_test_id("insurance-closed")).to_have_text("Close insurance")
    assert_in_view(page.get_by_test_id("insurance-closed"), min_height=TOUCH)
    expect(page.get_by_test_id("hand-1-1").locator(".playing-card.hidden")).to_have_count(2)
    tablet.tap("insurance-closed")
    tablet.cards("As", "Kh")  # turned: Blackjack, noted against the ace
    expect(page.get_by_test_id("hand-1-1").locator(".playing-card.hidden")).to_have_count(0)
    expect(page.get_by_test_id("phase")).to_have_text("Dealer's draw")
    look(page, f"players-face-down-blackjack-{size}")
    tablet.card("7c")
    expect(page.get_by_test_id("phase")).to_have_text("Settlement")
    expect(page.get_by_test_id("result-1-1")).to_have_text(re.compile(r"won \+?150\.00"))
