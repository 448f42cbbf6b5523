"""Limits (issue 11, row 11): a socket that sends faster than ``SCREEN_MESSAGES_PER_SECOND``
(after a burst of ``SCREEN_MESSAGE_BURST``) is told ``too_fast`` and closed; a person opens
at most ``SCREENS_PER_PERSON`` screens; every list page that grows without bound is paged."""

import json

import pytest
from channels.db import database_sync_to_async
from django.urls import reverse
from django.utils import timezone

from floor.models import Alert
from staff.models import ReplacementRequest, User
from staff.roles import TableRole
from tests.conftest import ws_communicator


async def connect(path, user):
    screen = await database_sync_to_async(ws_communicator)(path, user)
    connected, _ = await screen.connect()
    assert connected
    return screen


async def close_code(screen) -> tuple[int, list[str]]:
    """The close code of ``screen`` and the texts sent before it."""
    texts = []
    while True:
        message = await screen.receive_output(timeout=5)
        if message["type"] == "websocket.close":
            return message["code"], texts
        texts.append(message.get("text", ""))


@pytest.mark.django_db(transaction=True)
async def test_a_flood_of_messages_is_told_too_fast_and_closed(crew, table, settings):
    settings.SCREEN_MESSAGE_BURST = 5
    settings.SCREEN_MESSAGES_PER_SECOND = 1
    crew["dealer"].preferred_language = "en"
    await database_sync_to_async(crew["dealer"].save)()
    screen = await connect(f"/ws/tables/{table.pk}/", crew["dealer"])
    try:
        await screen.receive_from(timeout=5)  # the full state
        for _ in range(50):
            await screen.send_to(
                text_data=json.dumps({"action": "sync", "known": {f"table.{table.pk}": 10**9}})
            )
        code, texts = await close_code(screen)
        assert code == 4429
        refusals = [t for t in texts if 'data-code="too_fast"' in t]
        assert len(refusals) == 1 and "too many messages too fast" in refusals[0]
    finally:
        await screen.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_screen_within_the_rate_stays_open(crew, table, settings):
    settings.SCREEN_MESSAGE_BURST = 5
    settings.SCREEN_MESSAGES_PER_SECOND = 1
    screen = await connect(f"/ws/tables/{table.pk}/", crew["dealer"])
    try:
        await screen.receive_from(timeout=5)
        for _ in range(5):
            await screen.send_to(
                text_data=json.dumps({"action": "sync", "known": {f"table.{table.pk}": 10**9}})
            )
        assert await screen.receive_nothing(timeout=0.5)
    finally:
        await screen.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_one_person_opens_at_most_the_cap_of_screens(crew, table, settings):
    settings.SCREENS_PER_PERSON = 2
    path = f"/ws/tables/{table.pk}/"
    first = await connect(path, crew["dealer"])
    second = await connect(path, crew["dealer"])
    third = await connect(path, crew["dealer"])
    try:
        await first.receive_from(timeout=5)
        await second.receive_from(timeout=5)
        code, texts = await close_code(third)
        assert code == 4429
        assert any('data-code="too_many_screens"' in t and "2" in t for t in texts)
        await third.disconnect()
        # Another person is not counted against the dealer.
        observer = await connect(path, crew["observer"])
        assert 'data-version="' in await observer.receive_from(timeout=5)
        await observer.disconnect()
        # A screen closed frees its place.
        await first.disconnect()
        again = await connect(path, crew["dealer"])
        assert 'data-version="' in await again.receive_from(timeout=5)
        await again.disconnect()
    finally:
        await second.disconnect()


# -- pages -----------------------------------------------------------------------------------


def test_the_alert_history_is_paged(client, crew, table, settings):
    settings.LIST_PAGE_SIZE = 50
    Alert.objects.bulk_create(
        Alert(table=table, kind="flag", params={"note": f"note {n:04d}"}) for n in range(1234)
    )
    client.force_login(crew["duty"])
    url = reverse("tables:alerts")
    first = client.get(url, {"kind": "flag"}, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert first.count('data-testid="alert-row"') == 50
    assert "Page 1 of 25 (1234 rows)" in first
    assert "kind=flag&amp;alerts_page=2" in first  # the filter is kept
    last = client.get(url, {"alerts_page": "25"}, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert last.count('data-testid="alert-row"') == 34
    assert "note 0000" in last
    for bad in ("0", "-1", "x", "9" * 40):
        page = client.get(url, {"alerts_page": bad})
        assert page.status_code == 200
        assert page.content.decode().count('data-testid="alert-row"') == 50


def test_the_replacement_requests_are_paged(client, crew, table, settings):
    settings.LIST_PAGE_SIZE = 20
    ReplacementRequest.objects.bulk_create(
        ReplacementRequest(
            table=table,
            role=TableRole.DEALING_CROUPIER,
            current_person=crew["dealer"],
            reason=f"reason {n}",
            requested_by=crew["inspector"],
            status=ReplacementRequest.Status.REJECTED,
        )
        for n in range(45)
    )
    client.force_login(crew["duty"])
    page = client.get(reverse("staff:replacements"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert page.count("reason ") == 20 and "Page 1 of 3 (45 rows)" in page
    last = client.get(reverse("staff:replacements"), {"list_page": "3"}).content.decode()
    assert last.count("reason ") == 5


def test_the_locked_pins_are_paged(client, crew, settings):
    settings.LIST_PAGE_SIZE = 10
    now = timezone.now()
    User.objects.bulk_create(
        User(username=f"locked{n}", full_name=f"Locked {n}", pin_locked_at=now) for n in range(25)
    )
    client.force_login(crew["duty"])
    page = client.get(reverse("staff:lockouts"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert page.count('data-testid="locked-locked') == 10
    assert 'data-testid="pages-locked"' in page and "Page 1 of 3 (25 rows)" in page
