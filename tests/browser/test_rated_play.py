"""Rated play in a browser: the croupier seats a known player from the tablet, the
inspector's tile shows him live, and his page reads on both screen sizes."""

import pytest
from playwright.sync_api import expect

from game.models import Player
from tests.browser.screens import SIZES, assert_in_view, assert_inside, assert_no_page_scroll, look
from tests.browser.tablet import sign_in_with_password, sign_in_with_pin

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_player_seated_at_the_tablet_reaches_the_tile_and_his_page(new_page, crew, table, size):
    Player.objects.create(card="PC-7", name="Anna Smirnova")
    viewport = SIZES[size]
    inspector = new_page(viewport=viewport)
    sign_in_with_password(inspector, "inspector")
    tablet = new_page(viewport=viewport)
    sign_in_with_pin(tablet, "dealer")

    tablet.get_by_test_id("rated-open").click()
    expect(tablet.get_by_test_id("player-in-seat")).to_have_value("1")
    tablet.get_by_test_id("player-in-card").fill("PC-7")
    assert_in_view(tablet.get_by_test_id("player-in"), what="the 'Seated' button")
    tablet.get_by_test_id("player-in").click()
    seated = tablet.get_by_test_id("rated-1")
    expect(seated).to_contain_text("PC-7")
    # the panel stays open across the push, its 'Left' button in view, the tablet unscrolled
    assert_in_view(tablet.get_by_test_id("player-out-1"), what="the 'Left' button")
    assert_no_page_scroll(tablet)
    look(tablet, f"rated-tablet-{size}")

    tile = inspector.get_by_test_id(f"tile-{table.pk}")
    row = tile.get_by_test_id("tile-player-1")
    expect(row).to_contain_text("Anna Smirnova", timeout=2000)
    row.scroll_into_view_if_needed()
    assert_in_view(row, what="the tile's player row")
    assert_inside(row, tile, "the player row in its tile")
    look(inspector, f"rated-tile-{size}")

    row.get_by_role("link").click()
    expect(inspector.get_by_test_id("home-heading")).to_contain_text("PC-7")
    assert_in_view(inspector.get_by_test_id("rating-day"), what="today's summary")
    expect(inspector.get_by_test_id("player-now")).to_contain_text("BJ-1")
    sizes = inspector.evaluate(
        "() => ({sw: document.documentElement.scrollWidth, cw: window.innerWidth})"
    )
    assert sizes["sw"] <= sizes["cw"] + 1, f"the player's page scrolls sideways: {sizes}"
    look(inspector, f"rated-player-page-{size}")

    tablet.get_by_test_id("player-out-1").click()
    expect(tablet.get_by_test_id("rated-1")).to_have_count(0)
    expect(tablet.get_by_test_id("rated-open")).to_contain_text("0 rated players")
