"""PIN sign-in at the table tablet: the right PIN opens the table, wrong ones count down to a
lock that only the duty administrator lifts."""

import pytest
from django.contrib.auth.hashers import check_password
from django.core.exceptions import ValidationError
from django.urls import reverse

from staff import services as staff_services
from tests.conftest import PIN

PIN_URL = reverse("staff:pin_login")
WRONG = "9999"


def _pin(client, identifier, pin):
    return client.post(PIN_URL, {"identifier": identifier, "pin": pin}, follow=True)


def _text(response) -> str:
    return response.content.decode()


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


def test_wrong_pin_shows_a_clear_message_with_the_tries_left(client_en, crew):
    response = _pin(client_en, "dealer", WRONG)

    assert response.status_code == 400
    assert 'data-testid="pin-error"' in _text(response)
    assert "Wrong name or PIN. Tries left before the lock: 4." in _text(response)
    assert "_auth_user_id" not in client_en.session


def test_unknown_name_gets_the_same_message_without_revealing_who_exists(client_en, crew):
    response = _pin(client_en, "nobody", PIN)

    assert response.status_code == 400
    assert "Wrong name or PIN." in _text(response)
    assert "Tries left" not in _text(response)


def test_five_wrong_tries_lock_the_pin_and_then_even_the_right_pin_is_refused(client_en, crew):
    for left in (4, 3, 2, 1):
        assert f"Tries left before the lock: {left}." in _text(_pin(client_en, "dealer", WRONG))

    fifth = _pin(client_en, "dealer", WRONG)
    assert "Too many wrong tries: this PIN is now locked." in _text(fifth)

    right = _pin(client_en, "dealer", PIN)
    assert right.status_code == 400
    assert "This PIN is locked after too many wrong tries. Ask the duty administrator." in _text(
        right
    )
    assert "_auth_user_id" not in client_en.session


def test_a_right_pin_resets_the_count_of_wrong_tries(client_en, make_client_en, crew):
    for _ in range(4):
        _pin(client_en, "dealer", WRONG)
    _pin(make_client_en(), "dealer", PIN)

    response = _pin(client_en, "dealer", WRONG)

    assert "Tries left before the lock: 4." in _text(response)


def test_locked_person_appears_for_the_duty_administrator_who_can_unlock(
    client_en, make_client_en, crew, table
):
    for _ in range(5):
        _pin(client_en, "dealer", WRONG)
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
    user = make_user("dealer", pin=None)

    with pytest.raises(ValidationError):
        staff_services.pin_set(user=user, pin=pin)


@pytest.mark.parametrize("pin", ["1234", "12345", "123456"])
def test_four_to_six_digit_pins_are_accepted(make_user, pin):
    user = make_user("dealer", pin=None)

    staff_services.pin_set(user=user, pin=pin)

    assert staff_services.pin_authenticate(identifier="dealer", pin=pin) == user


def test_pin_is_stored_hashed_not_as_the_digits(make_user):
    user = make_user("dealer", pin=None)

    staff_services.pin_set(user=user, pin="135790")
    user.refresh_from_db()

    assert "135790" not in user.pin_hash
    assert user.pin_hash != "135790"
    assert check_password("135790", user.pin_hash)
