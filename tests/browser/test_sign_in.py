"""Signing in at a real browser: the PIN keypad at the table tablet, the password form."""

import re

import pytest
from playwright.sync_api import expect

from tests.conftest import PASSWORD, PIN

pytestmark = pytest.mark.browser


def _tap_pin(page, pin: str) -> None:
    for digit in pin:
        page.locator(f'[data-keypad] [data-digit="{digit}"]').click()


def test_dealing_croupier_signs_in_with_the_keypad_and_sees_their_table(page, crew, table):
    page.goto("/staff/pin/")
    page.locator('input[name="identifier"]').fill("dealer")
    _tap_pin(page, PIN)
    expect(page.locator("[data-pin]")).to_have_value(PIN)
    page.locator('[data-keypad] button[type="submit"]').click()

    expect(page).to_have_url(re.compile(rf"/game/tables/{table.pk}/dealer/$"))
    heading = page.get_by_test_id("home-heading")
    expect(heading).to_be_visible()
    expect(heading).to_contain_text(str(table))
    expect(page.get_by_test_id("who")).to_have_text(crew["dealer"].display_name)


def test_inspector_signs_in_with_a_password_and_sees_the_inspector_home(page, crew, table):
    page.goto("/staff/login/")
    page.locator('input[name="username"]').fill("inspector")
    page.locator('input[name="password"]').fill(PASSWORD)
    page.locator('form[action$="/staff/login/"] button[type="submit"]').click()

    expect(page).to_have_url(re.compile(r"/game/inspector/$"))
    expect(page.get_by_test_id("home-heading")).to_be_visible()
    expect(page.get_by_role("link", name=re.compile(str(table)))).to_be_visible()


def test_wrong_pin_shows_a_clear_message(page, crew):
    page.goto("/staff/pin/")
    page.locator('input[name="identifier"]').fill("dealer")
    _tap_pin(page, "9999")
    page.locator('[data-keypad] button[type="submit"]').click()

    error = page.get_by_test_id("pin-error")
    expect(error).to_be_visible()
    expect(error).to_have_text("Wrong name or PIN.")
    expect(page).to_have_url(re.compile(r"/staff/pin/$"))
