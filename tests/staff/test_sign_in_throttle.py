"""Wrong passwords and PINs throttle the source (device address and name together), never
the person: the first tries are free, then the source waits longer after each wrong try and
stops at the limit, while the croupier at his own tablet still signs in. A PIN locks only
after wrong PINs from several sources, with an alert to the duty administrator. The PIN page,
the password page, the admin's sign-in and the checklist signature
(tests/tables/test_signature_throttle.py) are all throttled.

Time passing is simulated by moving the recorded tries back (``_later``)."""

import re
from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.contrib.auth.hashers import MD5PasswordHasher
from django.db.models import F
from django.test import AsyncClient, Client
from django.urls import reverse

from tests.conftest import PASSWORD, PIN

pytestmark = pytest.mark.django_db

WRONG = "9999"
ATTACKER = "10.0.0.66"
TABLET = "10.0.0.5"


def _client(address: str) -> Client:
    return Client(REMOTE_ADDR=address, headers={"accept-language": "en"})


def _pin(client, identifier, pin):
    return client.post(reverse("staff:pin_login"), {"identifier": identifier, "pin": pin})


def _error(response) -> str:
    match = re.search(r'data-testid="pin-error">([^<]*)<', response.content.decode())
    assert match, response.content.decode()[:300]
    return match.group(1).strip()


def _signed_in(client) -> bool:
    return "_auth_user_id" in client.session


def _later(seconds: int) -> None:
    """As if ``seconds`` had passed since every recorded wrong try."""
    AccessAttempt.objects.update(attempt_time=F("attempt_time") - timedelta(seconds=seconds))


def _wrong_pins(client, name: str, count: int) -> None:
    for _ in range(count):
        _later(300)
        assert _pin(client, name, WRONG).status_code == 400


def test_the_first_tries_are_free_then_the_source_waits_longer_each_time(crew):
    attacker = _client(ATTACKER)
    for _ in range(3):
        assert _error(_pin(attacker, "dealer", WRONG)) == "Wrong name or PIN."

    fourth = _error(_pin(attacker, "dealer", WRONG))
    assert fourth == "Wrong name or PIN. Wait 2 seconds before the next try."
    # Trying again at once, even with the right PIN, is refused and not counted.
    right_too_soon = _pin(attacker, "dealer", PIN)
    assert _error(right_too_soon).startswith("Too many wrong tries from this device for this name.")
    assert not _signed_in(attacker)
    assert AccessAttempt.objects.get(ip_address=ATTACKER).failures_since_start == 4

    _later(2)
    assert _error(_pin(attacker, "dealer", WRONG)) == (
        "Wrong name or PIN. Wait 4 seconds before the next try."
    )
    _later(4)
    assert _pin(attacker, "dealer", PIN).status_code == 302, "after the wait the right PIN works"
    assert _signed_in(attacker)
    assert not AccessAttempt.objects.filter(ip_address=ATTACKER).exists(), "success resets it"


def test_at_the_limit_the_source_stops_but_the_croupier_signs_in_at_his_own_tablet(
    crew, table, settings
):
    attacker = _client(ATTACKER)
    _wrong_pins(attacker, "dealer", settings.AXES_FAILURE_LIMIT)

    stopped = _pin(attacker, "dealer", PIN)
    assert stopped.status_code == 400
    assert _error(stopped) == (
        "Too many wrong tries from this device for this name. Try again in 60 minutes, "
        "or ask the duty administrator to lift the stop."
    )
    assert not _signed_in(attacker)

    tablet = _client(TABLET)
    assert _pin(tablet, "dealer", PIN).url == reverse("staff:home")
    assert _signed_in(tablet)
    crew["dealer"].refresh_from_db()
    assert crew["dealer"].pin_locked_at is None, "one source never locks the person"


def test_an_unknown_name_is_answered_and_counted_exactly_like_a_known_one(crew):
    known, unknown = _client(ATTACKER), _client("10.0.0.67")
    answers = {"known": [], "unknown": []}
    for _ in range(4):
        answers["known"].append(_error(_pin(known, "dealer", WRONG)))
        answers["unknown"].append(_error(_pin(unknown, "nobody", WRONG)))

    assert answers["known"] == answers["unknown"]
    assert _error(_pin(known, "dealer", WRONG)) == _error(_pin(unknown, "nobody", WRONG))


class CountingHasher(MD5PasswordHasher):
    """The test's hasher, counting how many times a PIN is hashed (the costly part)."""

    algorithm = "counting_md5"
    calls = 0

    def encode(self, password, salt):
        CountingHasher.calls += 1
        return super().encode(password, salt)


def test_an_unknown_name_costs_one_pin_hash_like_a_wrong_pin(make_user, settings):
    from staff.roles import Role

    settings.PASSWORD_HASHERS = [f"{__name__}.CountingHasher"]
    make_user("dealer", [Role.DEALING_CROUPIER])
    costs = {}
    for name in ("dealer", "nobody"):
        CountingHasher.calls = 0
        _pin(_client(ATTACKER), name, WRONG)
        costs[name] = CountingHasher.calls

    assert costs["nobody"] == costs["dealer"] == 1


def test_wrong_pins_from_several_sources_lock_the_pin_and_alert_the_duty_administrator(
    crew, settings, monkeypatch
):
    from floor.models import Alert

    settings.PIN_LOCK_FAILURES = 6
    settings.PIN_LOCK_SOURCES = 3
    sources = [_client(f"10.0.1.{n}") for n in (1, 2, 3)]
    for attacker in sources[:2]:
        _wrong_pins(attacker, "dealer", 3)
    crew["dealer"].refresh_from_db()
    assert crew["dealer"].pin_locked_at is None, "two sources are not enough"

    third = _pin(sources[2], "dealer", WRONG)
    locked = "This PIN is locked after too many wrong tries. Ask the duty administrator."
    assert _error(third) == locked

    crew["dealer"].refresh_from_db()
    assert crew["dealer"].pin_locked_at is not None
    alert = Alert.objects.get(kind="pin_locked")  # on the duty administrator's home
    assert (alert.severity, alert.table, alert.params["name"]) == (
        "critical",
        None,
        crew["dealer"].display_name,
    )
    assert _error(_pin(_client(TABLET), "dealer", PIN)) == locked, "even the right PIN"

    # An unknown name attacked the same way answers the same: the lock reveals no name.
    _wrong_pins(sources[0], "nobody", 3)
    _wrong_pins(sources[1], "nobody", 3)
    assert _error(_pin(sources[2], "nobody", WRONG)) == locked

    duty = _client("10.0.9.9")
    duty.force_login(crew["duty"])
    duty.post(reverse("staff:unlock", args=[crew["dealer"].pk]))
    assert _pin(_client(TABLET), "dealer", PIN).status_code == 302


def test_the_password_page_is_throttled_by_source_too(crew):
    attacker = _client(ATTACKER)
    url = reverse("staff:login")
    for _ in range(4):
        wrong = attacker.post(url, {"username": "duty", "password": "guess"})
    assert "Please enter a correct username and password." in wrong.content.decode()
    assert "Wait 2 seconds before the next try." in wrong.content.decode()

    right_too_soon = attacker.post(url, {"username": "duty", "password": PASSWORD})
    assert "Too many wrong tries from this device for this name." in (
        right_too_soon.content.decode()
    )
    assert not _signed_in(attacker)

    own_desk = _client(TABLET)
    assert own_desk.post(url, {"username": "duty", "password": PASSWORD}).status_code == 302
    assert _signed_in(own_desk)


def test_the_admin_sign_in_is_throttled(crew, make_user):
    make_user("root", is_staff=True, is_superuser=True)
    attacker = _client(ATTACKER)
    url = reverse("admin:login")
    for _ in range(4):
        attacker.post(url, {"username": "root", "password": "guess"})

    refused = attacker.post(url, {"username": "root", "password": PASSWORD})

    assert refused.status_code == 429
    assert "Too many wrong tries from this device for this name." in refused.content.decode()
    assert not _signed_in(attacker)
    assert _client(TABLET).post(url, {"username": "root", "password": PASSWORD}).status_code == 302


def test_the_duty_administrator_sees_a_waiting_source_and_lifts_it(crew):
    attacker = _client(ATTACKER)
    _wrong_pins(attacker, "dealer", 4)
    duty = _client(TABLET)
    duty.force_login(crew["duty"])

    page = duty.get(reverse("staff:lockouts")).content.decode()
    assert f'data-testid="source-dealer-{ATTACKER}"' in page

    attempt = AccessAttempt.objects.get(ip_address=ATTACKER)
    lifted = duty.post(reverse("staff:source_lift", args=[attempt.pk]), follow=True)
    assert "The sign-in source may try again." in lifted.content.decode()
    assert "No device is waiting." in lifted.content.decode()
    assert _pin(attacker, "dealer", PIN).status_code == 302


def test_only_the_duty_administrator_lifts_a_source(crew):
    attacker = _client(ATTACKER)
    _wrong_pins(attacker, "dealer", 4)
    attempt = AccessAttempt.objects.get(ip_address=ATTACKER)
    inspector = _client(TABLET)
    inspector.force_login(crew["inspector"])

    assert inspector.post(reverse("staff:source_lift", args=[attempt.pk])).status_code == 403
    assert AccessAttempt.objects.filter(pk=attempt.pk).exists()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "middleware",
    ["staff.middleware.SignInThrottleMiddleware", "axes.middleware.AxesMiddleware"],
    ids=["ours", "django-axes' own"],
)
async def test_the_async_handler_answers_a_throttled_try_with_the_wait(crew, settings, middleware):
    """Django's async handler (as under daphne; through a real daphne:
    tests/browser/test_sign_in_throttle_daphne.py). Ours explains the try on the PIN page;
    django-axes' own async path loses that page, yet still answers the wait (429), not 500."""
    settings.MIDDLEWARE = [
        middleware if name.endswith("SignInThrottleMiddleware") else name
        for name in settings.MIDDLEWARE
    ]
    settings.SIGN_IN_DELAY_SECONDS = 3600
    attacker, english = AsyncClient(), {"accept-language": "en"}
    url = reverse("staff:pin_login")
    for _ in range(4):
        await attacker.post(url, {"identifier": "dealer", "pin": WRONG}, headers=english)

    refused = await attacker.post(url, {"identifier": "dealer", "pin": PIN}, headers=english)

    assert refused.status_code == (400 if middleware.startswith("staff") else 429)
    assert "Too many wrong tries from this device for this name." in refused.content.decode()
