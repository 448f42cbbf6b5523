"""The language switch: remembered on the person and in the browser, and kept after signing
out and in again."""

import re

from django.test import Client
from django.urls import reverse

from tests.conftest import PASSWORD

LANGUAGE_COOKIE = "django_language"


def _html_lang(response) -> str:
    match = re.search(r'<html lang="([^"]+)"', response.content.decode())
    assert match, "every page declares its language"
    return match.group(1)


def _switch(client, language, next_url):
    return client.post(reverse("staff:language"), {"language": language, "next": next_url})


def test_switch_is_stored_on_the_person_and_in_the_cookie(crew):
    client = Client(headers={"accept-language": "ru"})
    client.force_login(crew["inspector"])
    home = reverse("game:inspector_home")
    assert _html_lang(client.get(home)) == "ru"

    response = _switch(client, "en", home)

    assert response.status_code == 302
    assert response["Location"] == home
    assert response.cookies[LANGUAGE_COOKIE].value == "en"
    crew["inspector"].refresh_from_db()
    assert crew["inspector"].preferred_language == "en"
    assert _html_lang(client.get(home)) == "en"

    _switch(client, "ru", home)
    assert _html_lang(client.get(home)) == "ru"


def test_choice_is_kept_after_signing_out_and_in_again(crew):
    client = Client(headers={"accept-language": "ru"})
    client.post(reverse("staff:login"), {"username": "inspector", "password": PASSWORD})
    _switch(client, "en", reverse("root"))
    client.post(reverse("staff:logout"))

    # Another browser, one that asks for Russian: the person's own choice wins.
    fresh = Client(headers={"accept-language": "ru"})
    assert _html_lang(fresh.get(reverse("staff:login"))) == "ru"
    response = fresh.post(
        reverse("staff:login"), {"username": "inspector", "password": PASSWORD}, follow=True
    )

    assert response.request["PATH_INFO"] == reverse("game:inspector_home")
    assert _html_lang(response) == "en"
    assert fresh.cookies[LANGUAGE_COOKIE].value == "en"


def test_anonymous_switch_is_remembered_by_the_browser(db):
    client = Client(headers={"accept-language": "ru"})

    _switch(client, "en", reverse("staff:login"))

    assert _html_lang(client.get(reverse("staff:login"))) == "en"


def test_unknown_language_is_refused(crew):
    client = Client(headers={"accept-language": "en"})
    client.force_login(crew["inspector"])

    response = _switch(client, "xx", reverse("game:inspector_home"))

    assert LANGUAGE_COOKIE not in response.cookies
    crew["inspector"].refresh_from_db()
    assert crew["inspector"].preferred_language == ""
    assert "Unknown language." in client.get(reverse("game:inspector_home")).content.decode()
