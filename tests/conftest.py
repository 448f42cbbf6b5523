"""Shared fixtures: people in every role, a staffed table, their tablets, English, real-service
switches.

Where things are: model factories (closed rounds, shoes) in tests/factories.py; the tablet's
test double ``Desk`` in tests/desk.py; fixtures of one package in its own conftest.py."""

import os
from decimal import Decimal

import pytest

from staff import services as staff_services
from staff.roles import Role, TableRole

IN_CI = os.environ.get("CI", "").lower() == "true"
PASSWORD = "correct-horse-42"
PIN = "2468"


def require_service(reason: str):
    """Skip locally when a real service is absent; in CI a missing service is a failure."""
    if IN_CI:
        pytest.fail(f"CI must not skip: {reason}")
    pytest.skip(reason)


def using_postgres() -> bool:
    from django.conf import settings

    return settings.DATABASES["default"]["ENGINE"].endswith("postgresql")


def pytest_collection_modifyitems(config, items):
    """PostgreSQL-only tests run in the PostgreSQL pass; in the SQLite pass they are
    deselected (not skipped), so CI's two passes together run everything."""
    if using_postgres():
        return
    keep, dropped = [], []
    for item in items:
        (dropped if item.get_closest_marker("postgres_only") else keep).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = keep
        print(f"\n{len(dropped)} PostgreSQL-only tests deselected: this pass runs on SQLite.")


def pytest_configure(config):
    config.addinivalue_line("markers", "postgres_only: runs only when DATABASE_URL is PostgreSQL")


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """Hashing strength is Django's business; tests only need it to be a hash."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def make_user(db, django_user_model):
    counter = {"n": 0}

    def make(username=None, roles=(), pin=PIN, **extra):
        counter["n"] += 1
        username = username or f"user{counter['n']}"
        user = django_user_model.objects.create_user(
            username=username,
            password=PASSWORD,
            full_name=extra.pop("full_name", username.title()),
            employee_number=extra.pop("employee_number", f"E{counter['n']:04d}-{username}"),
            **extra,
        )
        staff_services.user_grant_roles(user=user, roles=list(roles))
        if pin and staff_services.may_use_pin(user):  # only croupiers have a table PIN
            staff_services.pin_set(user=user, pin=pin)
        return user

    return make


@pytest.fixture
def pit(db):
    from tables.models import Pit

    return Pit.objects.create(name="Pit A")


@pytest.fixture
def make_table(db, pit):
    from tables.models import Table

    def make(number=1, **fields):
        defaults = {
            "pit": pit,
            "name": f"BJ-{number}",
            "boxes": 7,
            "min_bet": Decimal("10"),
            "max_bet": Decimal("500"),
            "rules": {"preset": "standard"},
            "status": Table.Status.OPEN,
        }
        defaults.update(fields)
        return Table.objects.create(number=number, **defaults)

    return make


@pytest.fixture
def table(make_table):
    return make_table(1)


@pytest.fixture
def crew(make_user, table):
    """One person per role; the three table roles assigned to ``table``."""
    people = {
        "dealer": make_user("dealer", [Role.DEALING_CROUPIER]),
        "observer": make_user("observer", [Role.OBSERVING_CROUPIER]),
        "inspector": make_user("inspector", [Role.INSPECTOR]),
        "duty": make_user("duty", [Role.DUTY_ADMINISTRATOR]),
        "pitboss": make_user("pitboss", [Role.PIT_BOSS]),
    }
    staff_services.assignment_start(
        table=table, user=people["dealer"], role=TableRole.DEALING_CROUPIER
    )
    staff_services.assignment_start(
        table=table, user=people["observer"], role=TableRole.OBSERVING_CROUPIER
    )
    staff_services.assignment_start(table=table, user=people["inspector"], role=TableRole.INSPECTOR)
    return people


@pytest.fixture
def dealer_desk(crew, table):
    """The dealing croupier's tablet at ``table`` (tests/desk.py)."""
    from tests.desk import Desk

    return Desk(table, crew["dealer"])


@pytest.fixture
def observer_desk(crew, table):
    from tests.desk import Desk

    return Desk(table, crew["observer"])


@pytest.fixture
def inspector_desk(crew, table):
    from tests.desk import Desk

    return Desk(table, crew["inspector"])


@pytest.fixture
def english():
    """Messages built in this test are in English, whatever the default language (Russian) is.
    A module asserting English throughout: ``pytestmark = pytest.mark.usefixtures("english")``."""
    from django.utils import translation

    with translation.override("en"):
        yield


@pytest.fixture
def english_crew(crew):
    """The crew, every one of them reading the screens in English (``preferred_language``);
    what a signed-in page or socket sends them is asserted in English."""
    for person in crew.values():
        person.preferred_language = "en"
        person.save(update_fields=["preferred_language"])
    return crew


def session_cookie_for(user) -> str:
    """Sign ``user`` in through the real session machinery; return the Cookie header."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"


def ws_communicator(path: str, user=None):
    """A WebsocketCommunicator against the full ASGI application (origin check included)."""
    from channels.testing import WebsocketCommunicator

    from casino.asgi import application

    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
    if user is not None:
        headers.append((b"cookie", session_cookie_for(user).encode()))
    return WebsocketCommunicator(application, path, headers=headers)


@pytest.fixture(autouse=True)
def fresh_screen_state():
    """Who watches which screen (``feed.presence``) and the boards cached per process
    (``game.selectors``) start empty in every test."""
    from feed import presence
    from game.selectors import boards_forget

    presence.clear()
    boards_forget()
    yield
    presence.clear()
    boards_forget()
