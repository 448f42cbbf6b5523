"""The observing croupier's screen fits one screen at 1280×800 and 800×1280, in English and
in Russian, with a round in play, a reserved box and a note on the table: the dealer's hand,
every box, the reservation's countdown and release, the reservation form, the note, the
rated players and the cash link are in view, not covered, not clipped and a finger wide,
and the page does not scroll (it scrolled by up to 270 px in portrait).
Screenshots: test-artifacts/observer-screen-*.png."""

import pytest

from tests.browser.screens import (
    SIZES,
    assert_all_seen,
    assert_controls_at_least,
    assert_no_page_scroll,
    look,
)
from tests.browser.tablet import sign_in_with_pin
from tests.game.conftest import Desk

pytestmark = pytest.mark.browser

LANGUAGES = {"en": "en-US", "ru": "ru-RU"}
IN_VIEW = [
    '[data-testid="phase"]',
    '[data-testid="dealer-hand"]',
    '[data-testid^="box-"][id^="box-"]',
    '[data-testid="countdown-5"]',
    '[data-testid="release-5"]',
    '[data-testid="flag"]',
    '[data-testid="reserve-box"]',
    '[data-testid="reserve"]',
    '[data-testid="rated-open"]',
    '[data-testid="flag-note"]',
    '[data-testid="flag-send"]',
    '[data-testid="cash-link"]',
]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_observers_screen_fits_without_scrolling(new_page, crew, table, size, language):
    table.chip_denominations = ["50", "100", "500"]
    table.save()
    dealer = Desk(table, crew["dealer"])
    dealer.start_round({1: 100, 3: 200})
    dealer.ok("close-bets")
    dealer.cards("Th", "Ad", "6d", "9c", "8h")
    observer = Desk(table, crew["observer"])
    observer.ok("reserve", box=5, minutes=10)
    observer.ok("flag", note="Box 3 was paid twice last round")

    page = new_page(locale=LANGUAGES[language], viewport=SIZES[size])
    sign_in_with_pin(page, "observer")
    page.get_by_test_id("countdown-5").wait_for()

    assert_no_page_scroll(page)
    for selector in IN_VIEW:
        assert_all_seen(page, selector, what=f"{selector} ({size}, {language})")
    assert page.locator('[data-testid^="box-"][id^="box-"]').count() == 7
    assert_controls_at_least(page, 48)
    look(page, f"observer-screen-{size}-{language}")
