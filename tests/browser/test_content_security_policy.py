"""The Content-Security-Policy holds on every main screen: nothing the app ships is refused
by it (no inline script or style, htmx's injected style turned off, the sockets allowed).
Any violation Chromium reports, as an event or in the console, fails the test."""

import re

import pytest
from playwright.sync_api import expect

from tests.conftest import PASSWORD, PIN

pytestmark = pytest.mark.browser

WATCH = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  const where = `${e.sourceFile}:${e.lineNumber}`;
  window.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI} ${where}`);
});
"""


def _watched(new_page):
    page = new_page()
    page.add_init_script(WATCH)
    console = []
    page.on(
        "console",
        lambda message: (
            console.append(message.text)
            if re.search(r"Content Security Policy|Refused to", message.text)
            else None
        ),
    )
    return page, console


def _violations(page, console) -> list[str]:
    return [*page.evaluate("window.__cspViolations || []"), *console]


def _password(page, username):
    page.goto("/staff/login/")
    page.locator('input[name="username"]').fill(username)
    page.locator('input[name="password"]').fill(PASSWORD)
    page.locator('form[action$="/staff/login/"] button[type="submit"]').click()
    page.wait_for_load_state("load")


def _visit(page, console, path, *, live=False):
    page.goto(path)
    page.wait_for_load_state("load")
    if live:
        expect(page.get_by_test_id("conn-state")).to_have_class("conn conn-open")
    assert _violations(page, console) == [], path


def test_the_policy_is_sent_and_no_screen_violates_it(new_page, crew, table):
    page, console = _watched(new_page)
    response = page.goto("/staff/pin/")
    policy = response.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "'unsafe-inline'" not in policy
    assert "camera=()" in response.headers["permissions-policy"]
    page.locator('input[name="identifier"]').fill("dealer")
    for digit in PIN:
        page.locator(f'[data-keypad] [data-digit="{digit}"]').click()
    page.locator('[data-keypad] button[type="submit"]').click()
    expect(page.get_by_test_id("conn-state")).to_have_class("conn conn-open")
    assert _violations(page, console) == []
    page.get_by_role("button", name=re.compile("Sign out")).click()

    for username, screens in [
        ("observer", [(f"/game/tables/{table.pk}/watch/", True)]),
        (
            "inspector",
            [("/game/inspector/", True), ("/tables/alerts/", False), ("/game/rounds/", False)],
        ),
        (
            "duty",
            [
                ("/cash/duty/", False),
                ("/cash/reports/", False),
                ("/cash/reports/print/", False),
                ("/staff/lockouts/", False),
                ("/staff/replacements/", False),
            ],
        ),
        ("pitboss", [("/tables/pit/", False), (f"/tables/{table.pk}/", False)]),
    ]:
        page, console = _watched(new_page)
        _password(page, username)
        assert _violations(page, console) == [], username
        for path, live in screens:
            _visit(page, console, path, live=live)

    page, console = _watched(new_page)
    _visit(page, console, "/admin/login/")
