"""Every screen as a person sees it, in landscape (1280×800) and portrait (800×1280), in
English and in Russian: no serious or critical axe-core violation (contrast included),
what must be tapped inside the viewport and not covered, and a screenshot of each under
test-artifacts/ (every-<language>-<size>-<screen>.png) for a reviewer to look at."""

import pytest
from playwright.sync_api import expect

from floor.alerts import alert_raise
from game.configuration.services import table_configure
from game.models import Player
from staff.roles import Role
from tables.models import Table
from tests.browser.screens import (
    SIZES,
    TOUCH,
    assert_controls_at_least,
    assert_in_view,
    axe_violations,
    look,
)
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
def test_every_screen_is_readable_and_usable(
    new_page, crew, table, make_table, make_user, language, size
):
    table.chip_denominations = ["50", "100", "500"]
    table.save()
    closed = make_table(2, status=Table.Status.CLOSED)
    table_configure(
        table=closed, changed_by=crew["pitboss"], rules={"preset": "open-cards", "ties": "push"}
    )
    _played_round(table, crew["dealer"])
    make_user("spare", [Role.OBSERVING_CROUPIER])
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
    dealer.locator("details.shuffle > summary").click()  # "Shuffle and cut", opened
    assert_controls_at_least(dealer, 48)
    look(dealer, f"{prefix}-tablet-between-rounds")
    Tablet(dealer).tap("open-round")
    assert_controls_at_least(dealer, 48)
    look(dealer, f"{prefix}-tablet-betting")
    Tablet(dealer).bet(2, 100)
    Tablet(dealer).tap("close-bets")
    expect(dealer.get_by_test_id("card-pad-box")).to_be_visible()
    assert_controls_at_least(dealer, 48)
    look(dealer, f"{prefix}-tablet-dealing")
    _visit(dealer, f"/cash/tables/{table.pk}/", f"{prefix}-dealer-cash")
    observer = new()
    sign_in_with_pin(observer, "observer")
    assert_controls_at_least(observer, 48)
    look(observer, f"{prefix}-observer")
    observer.get_by_test_id("rated-open").click()
    assert_controls_at_least(observer, 48)
    look(observer, f"{prefix}-observer-rated")
    _visit(observer, f"/cash/tables/{table.pk}/", f"{prefix}-observer-cash")

    # The inspector: dashboard (and its acknowledgement), a table's screen, alerts, replay.
    alert_raise(table_id=table.pk, kind="flag", params={"note": "Box 2 paid twice"})
    inspector = new()
    sign_in_with_password(inspector, "inspector")
    look(inspector, f"{prefix}-inspector-dashboard")
    inspector.get_by_test_id(f"tile-{table.pk}").get_by_test_id("tile-ack").click()
    expect(inspector.get_by_test_id("ack-dialog")).to_be_visible()
    look(inspector, f"{prefix}-inspector-acknowledge")
    _visit(inspector, f"/cash/tables/{table.pk}/", f"{prefix}-inspector-cash")
    _visit(inspector, f"/staff/tables/{table.pk}/replacement/", f"{prefix}-replacement-request")
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
    _visit(duty, "/cash/reports/records/", f"{prefix}-records")
    _visit(duty, "/cash/duty/drop/", f"{prefix}-drop")
    _visit(duty, "/staff/lockouts/", f"{prefix}-lockouts")
    _visit(duty, "/staff/replacements/", f"{prefix}-replacements")
    _visit(duty, "/tables/staff/", f"{prefix}-staff")
    _visit(duty, "/game/no-such-screen/", f"{prefix}-not-found")

    # A croupier at no table.
    spare = new()
    sign_in_with_password(spare, "spare", live=False)
    look(spare, f"{prefix}-no-assignment")

    # The pit boss: the pit, the live overview, a checklist, the configuration.
    pitboss = new()
    pitboss.goto("/staff/login/")
    pitboss.locator('input[name="username"]').fill("pitboss")
    pitboss.locator('input[name="password"]').fill("correct-horse-42")
    pitboss.locator('form[action$="/staff/login/"] button[type="submit"]').click()
    pitboss.wait_for_load_state("load")
    look(pitboss, f"{prefix}-pit")
    _visit(pitboss, "/tables/staff/", f"{prefix}-pit-staff")
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
