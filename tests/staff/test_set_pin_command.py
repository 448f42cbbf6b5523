"""``manage.py set_pin``: how an operator gives a real person a table PIN."""

import io

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from staff import services as staff_services
from staff.roles import Role

CROUPIER = [Role.DEALING_CROUPIER]


pytestmark = pytest.mark.usefixtures("english")  # tests/conftest.py


def _set_pin(monkeypatch, username, *, stdin=None, prompts=None, **options):
    if stdin is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    if prompts is not None:
        answers = iter(prompts)
        monkeypatch.setattr("getpass.getpass", lambda prompt="": next(answers))
    out = io.StringIO()
    call_command("set_pin", username, stdout=out, **options)
    return out.getvalue()


def test_pin_from_stdin_lets_the_person_sign_in(monkeypatch, make_user):
    anna = make_user("anna", CROUPIER, pin=None, full_name="Anna Petrova")

    output = _set_pin(monkeypatch, "anna", stdin="5821\n", pin_stdin=True)

    assert "PIN set for Anna Petrova." in output
    assert staff_services.pin_check(identifier="anna", pin="5821") == anna


def test_pin_typed_twice_at_the_prompt(monkeypatch, make_user):
    anna = make_user("anna", CROUPIER, pin=None)

    _set_pin(monkeypatch, "anna", prompts=["630514", "630514"])

    assert staff_services.pin_check(identifier="anna", pin="630514") == anna


def test_two_different_pins_at_the_prompt_change_nothing(monkeypatch, make_user):
    make_user("anna", CROUPIER, pin="1111")

    with pytest.raises(CommandError, match="The two PINs differ"):
        _set_pin(monkeypatch, "anna", prompts=["2222", "3333"])

    assert staff_services.pin_check(identifier="anna", pin="1111")


@pytest.mark.parametrize("pin", ["123", "1234567", "abcd", ""])
def test_a_pin_that_is_not_4_to_6_digits_is_refused(monkeypatch, make_user, pin):
    make_user("anna", CROUPIER, pin=None)

    with pytest.raises(CommandError, match="A PIN is 4 to 6 digits."):
        _set_pin(monkeypatch, "anna", stdin=pin + "\n", pin_stdin=True)


def test_unknown_username_is_refused(monkeypatch, db):
    with pytest.raises(CommandError, match="No staff member with the username ghost."):
        _set_pin(monkeypatch, "ghost", stdin="1234\n", pin_stdin=True)


def test_setting_a_new_pin_lifts_a_lockout(monkeypatch, make_user):
    anna = make_user("anna", CROUPIER, pin="1111")
    anna.pin_locked_at = timezone.now()
    anna.save(update_fields=["pin_locked_at"])

    _set_pin(monkeypatch, "anna", stdin="4455\n", pin_stdin=True)

    assert staff_services.pin_check(identifier="anna", pin="4455") == anna


@pytest.mark.parametrize("role", [Role.INSPECTOR, Role.DUTY_ADMINISTRATOR, Role.PIT_BOSS])
def test_only_croupiers_get_a_pin(monkeypatch, make_user, role):
    person = make_user("vera", [role], pin=None, full_name="Vera")

    with pytest.raises(CommandError, match="Only croupiers sign in with a PIN"):
        _set_pin(monkeypatch, "vera", stdin="4455\n", pin_stdin=True)

    person.refresh_from_db()
    assert person.pin_hash == ""
