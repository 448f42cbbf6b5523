"""Username and password sign-in: each role lands on its own home screen."""

import pytest
from django.urls import reverse

from tests.conftest import PASSWORD

LOGIN_URL = reverse("staff:login")


def _sign_in(client, username, password=PASSWORD, **extra):
    return client.post(
        LOGIN_URL, {"username": username, "password": password, **extra}, follow=True
    )


@pytest.mark.parametrize(
    ("person", "home"),
    [
        ("dealer", lambda table: reverse("game:dealer", args=[table.pk])),
        ("observer", lambda table: reverse("game:observer", args=[table.pk])),
        ("inspector", lambda table: reverse("game:inspector_home")),
        ("duty", lambda table: reverse("cashdesk:duty_home")),
        ("pitboss", lambda table: reverse("tables:pit_home")),
    ],
)
def test_each_role_lands_on_its_own_home(client_en, crew, table, person, home):
    response = _sign_in(client_en, person)

    assert response.status_code == 200
    assert response.request["PATH_INFO"] == home(table)
    assert 'data-testid="home-heading"' in response.content.decode()
    assert f'data-testid="who">{crew[person].display_name}<' in response.content.decode()


def test_wrong_password_is_refused_with_a_message(client_en, crew):
    response = _sign_in(client_en, "inspector", "not-the-password")

    assert response.status_code == 200
    assert response.request["PATH_INFO"] == LOGIN_URL
    assert "Please enter a correct username and password." in response.content.decode()
    assert "_auth_user_id" not in client_en.session


def test_inactive_person_cannot_sign_in(client_en, crew):
    crew["inspector"].is_active = False
    crew["inspector"].save()

    response = _sign_in(client_en, "inspector")

    assert response.request["PATH_INFO"] == LOGIN_URL
    assert "_auth_user_id" not in client_en.session


def test_next_is_followed_after_sign_in(client_en, crew, table):
    target = reverse("game:observer", args=[table.pk])

    response = _sign_in(client_en, "inspector", next=target)

    assert response.request["PATH_INFO"] == target


def test_next_to_another_site_is_ignored(client_en, crew):
    response = _sign_in(client_en, "inspector", next="https://evil.example/")

    assert response.request["PATH_INFO"] == reverse("game:inspector_home")
