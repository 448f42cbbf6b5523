"""Every screen as a person sees it, in landscape (1280×800) and portrait (800×1280), in
English and in Russian: no serious or critical axe-core violation (contrast included),
what must be tapped inside the viewport and not covered, and a screenshot of each under
test-artifacts/ (every-<language>-<size>-<screen>.png) for a reviewer to look at."""

import pytest
from playwright.sync_api import expect

from game.configuration import table_configure
from game.models import Player
from tables.models import Table
from tests.browser.screens import SIZES, TOUCH, assert_in_view, axe_violations, look
from tests.browser.tablet import Tablet, sign_in_with_password, sign_in_with_pin
from tests.conftest import PIN
from tests.game.conftest import Desk

pytestmark = pytest.mark.browser

LANGUAGES = {"en": "en-US", "ru": "ru-RU"}


def _played_round(table, dealer):
    """One round played and closed at ``table``, one open (its tablet has boxes on it)."""
    desk = Desk(table, dealer)
    desk.start_round({1: 100, 3: 200})
    desk.ok("close-bets")
    desk.cards("Th", "Ad", "6d", "9c", "8h")
    desk.ok("stand")
    desk.ok("stand")
    desk.cards("5s", "Kc")
    desk.ok("confirm-settlement")


def _visit(page, path, name, *, live=False):
    page.goto(path)
    page.wait_for_load_state("load")
    if live:
        expect(page.get_by_test_id("conn-state")).to_have_class("conn conn-open")
    heading = page.locator("main h1").first
    expect(heading).to_be_visible()
    assert_in_view(heading, what=f"{name}: its heading")
    look(page, name)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_screen_is_readable_and_usable(new_page, crew, table, make_table, language, size):
    table.chip_denominations = ["50", "100", "500"]
    table.save()
    closed = make_table(2, status=Table.Status.CLOSED)
    table_configure(
        table=closed, changed_by=crew["pitboss"], rules={"preset": "open-cards", "ties": "push"}
    )
    _played_round(table, crew["dealer"])
    viewport = SIZES[size]
    prefix = f"every-{language}-{size}"

    def new(**kw):
        return new_page(locale=LANGUAGES[language], viewport=viewport, **kw)

    # Sign-in: the name field is on the screen and usable by touch, the keypad a finger wide.
    page = new()
    page.goto("/staff/pin/")
    name = page.locator('input[name="identifier"]')
    assert_in_view(name, min_height=44, what="the PIN page's name field")
    for digit in "0123456789":
        assert_in_view(
            page.locator(f'[data-keypad] [data-digit="{digit}"]'), min_width=TOUCH, min_height=TOUCH
        )
    name.click()
    name.fill("dealer")
    look(page, f"{prefix}-sign-in-pin")
    page.goto("/staff/login/")
    assert_in_view(page.locator('input[name="username"]'), min_height=44, what="the name field")
    assert_in_view(page.locator('input[name="password"]'), min_height=44)
    look(page, f"{prefix}-sign-in-password")

    # The tablet between rounds, and the observer's screen.
    dealer = new()
    dealer.goto("/staff/pin/")
    dealer.locator('input[name="identifier"]').fill("dealer")
    for digit in PIN:
        dealer.locator(f'[data-keypad] [data-digit="{digit}"]').click()
    dealer.locator('[data-keypad] button[type="submit"]').click()
    expect(dealer.get_by_test_id("conn-state")).to_have_class("conn conn-open")
    Tablet(dealer).tap("open-round")
    look(dealer, f"{prefix}-tablet-betting")
    observer = new()
    sign_in_with_pin(observer, "observer")
    look(observer, f"{prefix}-observer")

    # The inspector: dashboard, a table's screen, alerts, replay.
    inspector = new()
    sign_in_with_password(inspector, "inspector")
    look(inspector, f"{prefix}-inspector-dashboard")
    _visit(inspector, f"/game/tables/{table.pk}/watch/", f"{prefix}-inspector-table", live=True)
    _visit(inspector, "/game/rounds/", f"{prefix}-replay-search")
    inspector.locator('[data-testid^="replay-"]').last.click()
    expect(inspector.get_by_test_id("replay-log")).to_be_visible()
    look(inspector, f"{prefix}-replay")
    _visit(inspector, "/tables/alerts/", f"{prefix}-alerts")
    Player.objects.get_or_create(card="PC-1", defaults={"name": "Ivan Petrov"})
    _visit(inspector, "/game/players/", f"{prefix}-players")
    _visit(inspector, "/game/players/PC-1/", f"{prefix}-player")

    # The duty administrator: duty home, staff, reports.
    duty = new()
    duty.goto("/staff/login/")
    duty.locator('input[name="username"]').fill("duty")
    duty.locator('input[name="password"]').fill("correct-horse-42")
    duty.locator('form[action$="/staff/login/"] button[type="submit"]').click()
    duty.wait_for_load_state("load")
    look(duty, f"{prefix}-duty-home")
    _visit(duty, "/cash/reports/", f"{prefix}-report")
    _visit(duty, "/tables/staff/", f"{prefix}-staff")

    # The pit boss: the pit, the live overview, a checklist, the configuration.
    pitboss = new()
    pitboss.goto("/staff/login/")
    pitboss.locator('input[name="username"]').fill("pitboss")
    pitboss.locator('input[name="password"]').fill("correct-horse-42")
    pitboss.locator('form[action$="/staff/login/"] button[type="submit"]').click()
    pitboss.wait_for_load_state("load")
    look(pitboss, f"{prefix}-pit")
    _visit(pitboss, "/game/pit/", f"{prefix}-pit-overview", live=True)
    _visit(pitboss, f"/game/tables/{closed.pk}/config/", f"{prefix}-config")
    expect(pitboss.get_by_test_id("player-edge-warning")).to_be_visible()
    _visit(pitboss, f"/tables/{closed.pk}/", f"{prefix}-checklist")


def test_the_accessibility_check_does_find_violations(page):
    """The check above is not blind: a picture without a text, an unnamed button and grey
    on grey text are reported."""
    page.set_content(
        '<html lang="en"><body><main><h1>x</h1><img src="/static/none.png">'
        '<button></button><p class="grey">faint</p></main></body></html>'
    )
    page.add_style_tag(content=".grey { color: #777; background: #888; }")
    found = " ".join(axe_violations(page))
    assert "image-alt" in found and "button-name" in found and "color-contrast" in found
