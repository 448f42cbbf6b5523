"""Driving the live table screens like a person: tap, then wait for the table to move on."""

from playwright.sync_api import expect

from tests.conftest import PASSWORD, PIN


def sign_in_with_pin(page, username: str) -> None:
    page.goto("/staff/pin/")
    page.locator('input[name="identifier"]').fill(username)
    for digit in PIN:
        page.locator(f'[data-keypad] [data-digit="{digit}"]').click()
    page.locator('[data-keypad] button[type="submit"]').click()
    expect(page.get_by_test_id("conn-state")).to_have_class("conn conn-open")


def sign_in_with_password(page, username: str, *, live: bool = True) -> None:
    """Sign in; ``live``: wait until the home screen's socket is open."""
    page.goto("/staff/login/")
    page.locator('input[name="username"]').fill(username)
    page.locator('input[name="password"]').fill(PASSWORD)
    page.locator('form[action$="/staff/login/"] button[type="submit"]').click()
    if live:
        expect(page.get_by_test_id("conn-state")).to_have_class("conn conn-open")
    else:
        page.wait_for_load_state("load")


def version_moved_on(page, before: str) -> None:
    """Wait until the table screen shows a version other than ``before`` (an expect, not a
    page-side function: the Content-Security-Policy forbids the eval that would need)."""
    expect(page.locator("#table-live")).not_to_have_attribute(
        "data-version", before, timeout=10_000
    )


class Tablet:
    """The dealing croupier's tablet in a browser page."""

    def __init__(self, page):
        self.page = page

    @property
    def version(self) -> str:
        return self.page.locator("#table-live").get_attribute("data-version")

    def tap(self, test_id: str) -> None:
        """Tap a control and wait until every screen got the next version."""
        before = self.version
        self.page.get_by_test_id(test_id).click()
        version_moved_on(self.page, before)
        expect(self.page.get_by_test_id("table-error")).to_be_empty()

    def card(self, code: str) -> None:
        self.tap(f"card-{code}")

    def cards(self, *codes: str) -> None:
        for code in codes:
            self.card(code)

    def shuffle(self, burn_card: str | None = None) -> None:
        if burn_card:
            self.page.get_by_test_id("burn-card").fill(burn_card)
        self.tap("shuffle")

    def bet(self, box: int, stake: int) -> None:
        self.page.get_by_test_id(f"stake-{box}").fill(str(stake))
        before = self.version
        self.page.get_by_test_id(f"bet-form-{box}").get_by_role("button").click()
        version_moved_on(self.page, before)

    def error(self):
        return self.page.get_by_test_id("table-error")
