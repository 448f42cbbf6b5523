"""In the browser: 003's double card face down to the end (issue 23 item 6, `double_card:
face-down`) — every screen shows it face down until the dealer has played, then the tablet
says which card to turn and the card pad is in view to enter it; at 1280×800 and 800×1280.
Screenshots: test-artifacts/face-down-*.png."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.screens import SIZES, TOUCH, assert_in_view, look
from tests.browser.tablet import Tablet, sign_in_with_pin

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("size", SIZES)
def test_the_double_card_lies_face_down_until_it_is_turned(new_page, crew, table, size):
    table.rules = {"preset": "hole-card", "double_card": "face-down"}
    table.save()
    viewport = SIZES[size]
    observer = new_page(viewport=viewport)
    sign_in_with_pin(observer, "observer")
    page = new_page(viewport=viewport)
    sign_in_with_pin(page, "dealer")
    tablet = Tablet(page)
    tablet.shuffle(burn_card="2c")
    tablet.tap("open-round")
    tablet.bet(1, 100)
    tablet.bet(2, 100)
    tablet.tap("close-bets")
    tablet.cards("6", "T", "9", "5", "8", "7")  # box 1: 11, box 2: 18, dealer 9 (hole 7)
    tablet.tap("double")
    for screen in (page, observer):
        hand = screen.get_by_test_id("hand-1-1")
        expect(hand.locator(".playing-card.hidden")).to_have_count(1)
    look(observer, f"face-down-observer-{size}")
    tablet.tap("stand")  # box 2
    tablet.card("2")  # the dealer: 18
    expect(page.get_by_test_id("phase")).to_have_text("Turning the face-down cards")
    expect(page.get_by_test_id("awaiting")).to_have_text(
        "Turn the face-down card of box 1, hand 1, and tap it"
    )
    assert_in_view(page.get_by_test_id("awaiting"), what="which card to turn")
    assert_in_view(page.get_by_test_id("card-T"), min_width=TOUCH, min_height=TOUCH)
    look(page, f"face-down-tablet-turning-{size}")
    tablet.card("T")  # turned: 21
    expect(page.get_by_test_id("phase")).to_have_text("Settlement")
    for screen in (page, observer):
        expect(screen.get_by_test_id("hand-1-1").locator(".playing-card.hidden")).to_have_count(0)
    expect(page.get_by_test_id("result-1-1")).to_have_text(re.compile(r"won \+?200\.00"))
