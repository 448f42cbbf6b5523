"""A live screen acts only while its session is valid (issue 11, row 4): signing out,
deactivation, a lost role or a changed password closes the person's open sockets at once
(4401 / 4403) — they are told by a push, nothing is re-read per message; an expired session
is noticed by the check every ``SCREEN_SESSION_RECHECK_SECONDS`` (also made before a command
once that interval has passed); the write path checks the role under its lock."""

import asyncio
import json
import re
import uuid
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from casino.asgi import application
from staff.roles import Role
from staff.services import role_group
from tests.desk import screen_seq

pytestmark = pytest.mark.django_db(transaction=True)


def signed_in(user):
    """A browser signed in as ``user`` and its cookie header."""
    client = Client()
    client.force_login(user)
    cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
    return client, cookie


async def open_screen(path, user):
    client, cookie = await database_sync_to_async(signed_in)(user)
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
    headers.append((b"cookie", cookie.encode()))
    screen = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await screen.connect()
    assert connected
    first = await screen.receive_output(timeout=5)
    assert first["type"] == "websocket.send"
    screen.first = first["text"]
    return client, screen


async def closed_with(screen) -> int:
    """The close code of ``screen`` (skipping whatever it was sent before)."""
    while True:
        message = await screen.receive_output(timeout=5)
        if message["type"] == "websocket.close":
            return message["code"]


def shuffle(screen):
    version = int(re.search(r'id="table-live"[^>]*data-version="(\d+)"', screen.first).group(1))
    return json.dumps(
        {
            "id": str(uuid.uuid4()),
            "expected_version": version,
            "action": "shuffle",
            "reason": "new_shoe",
            "cards_behind_cut": 80,
        }
    )


def shoe_events(table):
    """How often the table's screens were told it changed."""
    return screen_seq(table)


async def refused_and_closed(screen, table) -> int:
    """Send a shuffle; the screen is closed (its code returned) and the shoe did not move."""
    before = await database_sync_to_async(shoe_events)(table)
    await screen.send_to(text_data=shuffle(screen))
    code = await closed_with(screen)
    assert await database_sync_to_async(shoe_events)(table) == before
    return code


SCREENS = [
    ("dealer", "/ws/tables/T/"),
    ("inspector", "/ws/inspector/"),
    ("duty", "/ws/duty/"),
]


@pytest.mark.parametrize(("person", "route"), SCREENS)
async def test_signing_out_closes_the_screens_of_that_session(crew, table, person, route):
    client, screen = await open_screen(route.replace("T", str(table.pk)), crew[person])
    try:
        response = await database_sync_to_async(client.post)(reverse("staff:logout"))
        assert response.status_code == 302
        assert await closed_with(screen) == 4401
    finally:
        await screen.disconnect()


@pytest.mark.parametrize(("person", "route"), SCREENS)
async def test_deactivation_closes_every_screen_of_the_person(crew, table, person, route):
    _client, screen = await open_screen(route.replace("T", str(table.pk)), crew[person])
    try:
        user = crew[person]

        def deactivate():
            user.is_active = False
            user.save()

        await database_sync_to_async(deactivate)()
        assert await closed_with(screen) == 4401
    finally:
        await screen.disconnect()


ROLES = {
    "dealer": Role.DEALING_CROUPIER,
    "inspector": Role.INSPECTOR,
    "duty": Role.DUTY_ADMINISTRATOR,
}


@pytest.mark.parametrize(("person", "route"), SCREENS)
async def test_a_role_taken_away_closes_its_screens(crew, table, person, route):
    _client, screen = await open_screen(route.replace("T", str(table.pk)), crew[person])
    try:
        user = crew[person]
        await database_sync_to_async(lambda: user.groups.remove(role_group(ROLES[person])))()
        assert await closed_with(screen) == 4403
    finally:
        await screen.disconnect()


async def test_a_role_taken_away_from_the_group_side_closes_too(crew, table):
    _client, screen = await open_screen(f"/ws/tables/{table.pk}/", crew["dealer"])
    try:
        group = await database_sync_to_async(role_group)(Role.DEALING_CROUPIER)
        await database_sync_to_async(lambda: group.user_set.remove(crew["dealer"]))()
        assert await closed_with(screen) == 4403
    finally:
        await screen.disconnect()


async def test_a_changed_password_closes_the_screens_of_older_sessions(crew, table):
    _client, screen = await open_screen(f"/ws/tables/{table.pk}/", crew["dealer"])
    try:
        user = crew["dealer"]

        def new_password():
            user.set_password("another-horse-43")
            user.save()

        await database_sync_to_async(new_password)()
        assert await closed_with(screen) == 4401
    finally:
        await screen.disconnect()


async def test_an_expired_session_closes_a_silent_screen(crew, table, settings):
    settings.SCREEN_SESSION_RECHECK_SECONDS = 0.2
    client, screen = await open_screen(f"/ws/tables/{table.pk}/", crew["dealer"])
    try:
        key = client.cookies[settings.SESSION_COOKIE_NAME].value
        past = timezone.now() - timedelta(seconds=1)
        await database_sync_to_async(
            lambda: Session.objects.filter(session_key=key).update(expire_date=past)
        )()
        assert await closed_with(screen) == 4401
    finally:
        await screen.disconnect()


async def test_a_command_after_the_session_expired_is_not_carried_out(crew, table, settings):
    """Once the recheck interval has passed since the last check, a command checks first
    (here the silent screen's own watch is slower than the command)."""
    settings.SCREEN_SESSION_RECHECK_SECONDS = 0.3
    client, screen = await open_screen(f"/ws/tables/{table.pk}/", crew["dealer"])
    try:
        key = client.cookies[settings.SESSION_COOKIE_NAME].value
        past = timezone.now() - timedelta(seconds=1)
        await database_sync_to_async(
            lambda: Session.objects.filter(session_key=key).update(expire_date=past)
        )()
        await asyncio.sleep(0.35)  # the interval passed; the watch may or may not have run
        assert await refused_and_closed(screen, table) == 4401
    finally:
        await screen.disconnect()


async def test_every_command_checks_the_role_again_even_unannounced(crew, table):
    """A role removed behind the signals' back (a raw delete): the next command closes."""
    _client, screen = await open_screen(f"/ws/tables/{table.pk}/", crew["dealer"])
    try:
        user = crew["dealer"]

        def remove_quietly():
            user.groups.through.objects.filter(user_id=user.pk).delete()

        await database_sync_to_async(remove_quietly)()
        assert await refused_and_closed(screen, table) == 4403
    finally:
        await screen.disconnect()


async def test_a_valid_session_still_commands(crew, table):
    """The control: the same command from a screen whose session is valid is carried out."""
    _client, screen = await open_screen(f"/ws/tables/{table.pk}/", crew["dealer"])
    try:
        before = await database_sync_to_async(shoe_events)(table)
        await screen.send_to(text_data=shuffle(screen))
        await screen.receive_from(timeout=5)
        assert await database_sync_to_async(shoe_events)(table) > before
    finally:
        await screen.disconnect()


async def test_signing_out_elsewhere_leaves_another_session_open(crew, table):
    """One person, two devices: signing out on one ends that session's screens only."""
    client_a, screen_a = await open_screen(f"/ws/tables/{table.pk}/", crew["dealer"])
    _client_b, screen_b = await open_screen(f"/ws/tables/{table.pk}/", crew["dealer"])
    try:
        await database_sync_to_async(client_a.post)(reverse("staff:logout"))
        assert await closed_with(screen_a) == 4401
        await screen_b.send_to(
            text_data=json.dumps({"action": "sync", "known": {f"table.{table.pk}": 10**6}})
        )
        assert await screen_b.receive_nothing(timeout=0.5)
    finally:
        await screen_a.disconnect()
        await screen_b.disconnect()
