"""A throttled sign-in answers its wait message through a real daphne, not only through
Django's test client (issue 19, item 9).

Under daphne the request goes through django-axes' *async* middleware path, which once
handed the credentials dict to the lockout callable where the response belongs: every
throttled try answered 500. These tests speak plain HTTP to the live daphne of
tests/browser/conftest.py (no browser); the rules themselves are tested through the test
client in tests/staff/test_sign_in_throttle.py."""

import http.cookiejar
import re
import urllib.error
import urllib.parse
import urllib.request
from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.db.models import F

from tests.conftest import PASSWORD, PIN

WRONG = "9999"
THROTTLED = "Too many wrong tries from this device for this name."


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Browserless:
    """A plain HTTP client with its own cookies: GET a form, POST it with its CSRF token."""

    def __init__(self, base: str):
        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()), NoRedirect()
        )

    def _open(self, request) -> tuple[int, str, dict]:
        try:
            with self.opener.open(request, timeout=20) as response:
                return response.status, response.read().decode(), dict(response.headers)
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode(), dict(error.headers)

    def post_form(self, path: str, fields: dict) -> tuple[int, str, dict]:
        url = self.base + path
        status, page, _ = self._open(urllib.request.Request(url, headers={"Accept-Language": "en"}))
        assert status == 200, page[:300]
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        body = urllib.parse.urlencode({"csrfmiddlewaretoken": token, **fields}).encode()
        return self._open(
            urllib.request.Request(
                url,
                data=body,
                headers={"Accept-Language": "en", "Referer": url},
                method="POST",
            )
        )


def _later(seconds: int) -> None:
    """As if ``seconds`` had passed since every recorded wrong try."""
    AccessAttempt.objects.update(attempt_time=F("attempt_time") - timedelta(seconds=seconds))


def _wrong_tries(client, path, fields, count) -> None:
    """``count`` wrong tries, each after the previous one's wait; the source then waits
    (ten minutes more than the throttle says, so a slow machine cannot outlast it)."""
    for _ in range(count):
        _later(300)
        status, page, _ = client.post_form(path, fields)
        assert status in (200, 400), f"a wrong try answered {status}: {page[:300]}"
    _later(-600)


@pytest.mark.parametrize("stopped", [False, True], ids=["waiting", "stopped"])
def test_a_throttled_pin_try_answers_the_wait_under_daphne(live_url, crew, settings, stopped):
    client = Browserless(live_url)
    tries = settings.AXES_FAILURE_LIMIT if stopped else 4
    _wrong_tries(client, "/staff/pin/", {"identifier": "dealer", "pin": WRONG}, tries)

    status, page, headers = client.post_form("/staff/pin/", {"identifier": "dealer", "pin": PIN})

    assert status in (400, 429), f"answered {status}: {page[:500]}"
    error = re.search(r'data-testid="pin-error">([^<]*)<', page)
    assert error, page[:500]
    assert error.group(1).strip().startswith(THROTTLED)
    assert "Location" not in headers, "the right PIN during the wait does not sign in"


def test_a_throttled_password_try_answers_the_wait_under_daphne(live_url, crew):
    client = Browserless(live_url)
    _wrong_tries(client, "/staff/login/", {"username": "duty", "password": "guess"}, 4)

    status, page, headers = client.post_form(
        "/staff/login/", {"username": "duty", "password": PASSWORD}
    )

    assert status in (200, 429), f"answered {status}: {page[:500]}"
    error = re.search(r'data-testid="login-error">([^<]*)<', page)
    assert error, page[:500]
    assert error.group(1).strip().startswith(THROTTLED)
    assert "Location" not in headers, "the right password during the wait does not sign in"


def test_the_throttled_admin_sign_in_answers_429_under_daphne(live_url, crew, make_user):
    make_user("root", is_staff=True, is_superuser=True)
    client = Browserless(live_url)
    _wrong_tries(client, "/admin/login/", {"username": "root", "password": "guess"}, 4)

    status, page, _ = client.post_form("/admin/login/", {"username": "root", "password": PASSWORD})

    assert status == 429, f"answered {status}: {page[:500]}"
    assert THROTTLED in page
