"""PIN sign-in at the table tablet: croupiers only; the right PIN opens the table; a wrong PIN
and an unknown name get the same answer; a locked PIN waits for the duty administrator.
Throttling of wrong tries: tests/staff/test_sign_in_throttle.py."""

import re

import pytest
from django.contrib.auth.hashers import check_password
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from staff import services as staff_services
from staff.roles import Role
from tests.conftest import PIN

PIN_URL = reverse("staff:pin_login")
WRONG = "9999"


def _pin(client, identifier, pin):
    return client.post(PIN_URL, {"identifier": identifier, "pin": pin}, follow=True)


def _text(response) -> str:
    return response.content.decode()


def _error(response) -> str:
    match = re.search(r'data-testid="pin-error">([^<]*)<', _text(response))
    assert match, _text(response)[:300]
    return match.group(1).strip()


def test_dealer_with_the_right_pin_lands_on_their_table_screen(client_en, crew, table):
    response = _pin(client_en, "dealer", PIN)

    assert response.redirect_chain, "a signed-in dealer is redirected to their screen"
    assert response.request["PATH_INFO"] == reverse("game:dealer", args=[table.pk])
    assert response.status_code == 200
    assert 'data-testid="home-heading"' in _text(response)
    assert str(table) in _text(response)


def test_employee_number_works_as_the_name(client_en, crew, table):
    response = _pin(client_en, crew["dealer"].employee_number, PIN)

    assert response.request["PATH_INFO"] == reverse("game:dealer", args=[table.pk])


def test_wrong_pin_shows_a_clear_message_that_says_nothing_about_the_name(client_en, crew):
    response = _pin(client_en, "dealer", WRONG)

    assert response.status_code == 400
    assert 'data-testid="pin-error"' in _text(response)
    assert "Wrong name or PIN." in _text(response)
    assert "Tries left" not in _text(response)
    assert "_auth_user_id" not in client_en.session


def test_unknown_name_gets_the_same_answer_as_a_wrong_pin(make_client_en, crew):
    known = _pin(make_client_en(), "dealer", WRONG)
    unknown = _pin(make_client_en(), "nobody", WRONG)

    assert unknown.status_code == known.status_code == 400
    assert _error(unknown) == _error(known) == "Wrong name or PIN."


def test_the_pin_is_only_for_croupiers(client_en, crew, make_user):
    person = make_user("vera", [Role.INSPECTOR, Role.DEALING_CROUPIER])
    person.groups.remove(*person.groups.exclude(name=Role.INSPECTOR))
    person._roles_cache = None

    refused = _pin(client_en, "vera", PIN)

    assert refused.status_code == 400
    assert "PIN sign-in is for croupiers only: sign in with your password." in _text(refused)
    assert "_auth_user_id" not in client_en.session


@pytest.mark.parametrize("person", ["inspector", "duty", "pitboss"])
def test_the_others_have_no_pin_and_the_page_says_to_use_the_password(client_en, crew, person):
    response = _pin(client_en, person, PIN)

    assert response.status_code == 400
    assert _error(response) == "Wrong name or PIN."
    assert "sign in with their password" in _text(response)
    assert "_auth_user_id" not in client_en.session


def test_a_locked_pin_is_refused_even_when_right_and_the_duty_administrator_unlocks_it(
    client_en, make_client_en, crew, table
):
    crew["dealer"].pin_locked_at = timezone.now()
    crew["dealer"].save(update_fields=["pin_locked_at"])

    right = _pin(client_en, "dealer", PIN)
    assert right.status_code == 400
    assert "This PIN is locked after too many wrong tries. Ask the duty administrator." in _text(
        right
    )
    assert "_auth_user_id" not in client_en.session

    duty = make_client_en()
    duty.force_login(crew["duty"])
    lockouts = duty.get(reverse("staff:lockouts"))
    assert 'data-testid="locked-dealer"' in _text(lockouts)
    assert crew["dealer"].display_name in _text(lockouts)

    unlocked = duty.post(reverse("staff:unlock", args=[crew["dealer"].pk]), follow=True)
    assert f"PIN unlocked for {crew['dealer'].display_name}." in _text(unlocked)
    assert 'data-testid="locked-dealer"' not in _text(unlocked)
    assert "No PIN is locked." in _text(unlocked)

    again = _pin(client_en, "dealer", PIN)
    assert again.request["PATH_INFO"] == reverse("game:dealer", args=[table.pk])


@pytest.mark.parametrize("pin", ["", "123", "1234567", "12a4", " 1234", "1234\n", "１２３４"])
def test_pin_must_be_four_to_six_digits(make_user, pin):
    user = make_user("dealer", [Role.DEALING_CROUPIER], pin=None)

    with pytest.raises(ValidationError):
        staff_services.pin_set(user=user, pin=pin)


@pytest.mark.parametrize("pin", ["1234", "12345", "123456"])
def test_four_to_six_digit_pins_are_accepted(make_user, pin):
    user = make_user("dealer", [Role.DEALING_CROUPIER], pin=None)

    staff_services.pin_set(user=user, pin=pin)

    assert staff_services.pin_check(identifier="dealer", pin=pin) == user


def test_pin_is_stored_hashed_not_as_the_digits(make_user):
    user = make_user("dealer", [Role.DEALING_CROUPIER], pin=None)

    staff_services.pin_set(user=user, pin="135790")
    user.refresh_from_db()

    assert "135790" not in user.pin_hash
    assert user.pin_hash != "135790"
    assert check_password("135790", user.pin_hash)
