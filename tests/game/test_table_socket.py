"""The WebSocket protocol against the full ASGI application (docs/protocol.md)."""

import json
import re
import uuid

import pytest
from channels.db import database_sync_to_async

from tests.conftest import ws_communicator

pytestmark = pytest.mark.django_db(transaction=True)

VERSION = re.compile(r'id="table-live"[^>]*data-version="(\d+)"')


def version_of(html: str) -> int:
    match = VERSION.search(html)
    assert match, html[:200]
    return int(match.group(1))


async def connect(path, user):
    communicator = await database_sync_to_async(ws_communicator)(path, user)
    connected, _ = await communicator.connect()
    assert connected
    return communicator


async def next_live(communicator) -> str:
    """The next complete table fragment (skipping the sender's error-box updates)."""
    while True:
        text = await communicator.receive_from(timeout=5)
        if 'id="table-live"' in text:
            return text


def command(action, version, **fields):
    return json.dumps(
        {"id": str(uuid.uuid4()), "expected_version": version, "action": action, **fields}
    )


async def test_two_screens_of_a_table_see_the_same_versions(english_crew, table):
    path = f"/ws/tables/{table.pk}/"
    dealer = await connect(path, english_crew["dealer"])
    observer = await connect(path, english_crew["observer"])
    try:
        v0 = version_of(await next_live(dealer))
        assert version_of(await next_live(observer)) == v0
        await dealer.send_to(
            text_data=command("shuffle", v0, reason="new_shoe", cards_behind_cut=80)
        )
        seen_by_dealer = await next_live(dealer)
        seen_by_observer = await next_live(observer)
        assert version_of(seen_by_dealer) == version_of(seen_by_observer) == v0 + 1
        await dealer.send_to(text_data=command("open-round", v0 + 1))
        assert version_of(await next_live(observer)) == v0 + 2
        assert "Place your bets" in await next_live(dealer)
    finally:
        await dealer.disconnect()
        await observer.disconnect()


async def test_a_repeated_command_acts_once_and_a_stale_one_is_refused_to_its_sender_only(
    english_crew, table
):
    path = f"/ws/tables/{table.pk}/"
    dealer = await connect(path, english_crew["dealer"])
    observer = await connect(path, english_crew["observer"])
    try:
        v0 = version_of(await next_live(dealer))
        await next_live(observer)
        message = command("shuffle", v0, reason="new_shoe", cards_behind_cut=80)
        await dealer.send_to(text_data=message)
        assert version_of(await next_live(observer)) == v0 + 1
        await dealer.send_to(text_data=message)  # the same id again: acts only once
        await dealer.send_to(text_data=command("open-round", v0))  # stale
        replies = [await dealer.receive_from(timeout=5) for _ in range(4)]
        errors = [r for r in replies if 'id="table-error"' in r and 'data-code="stale"' in r]
        assert len(errors) == 1
        assert "changed the table a moment ago" in errors[0]
        assert max(version_of(r) for r in replies if 'id="table-live"' in r) == v0 + 1
        assert await observer.receive_nothing(timeout=0.5)  # nothing changed, nothing sent
    finally:
        await dealer.disconnect()
        await observer.disconnect()


async def test_an_unreadable_message_gets_a_clear_error(english_crew, table):
    dealer = await connect(f"/ws/tables/{table.pk}/", english_crew["dealer"])
    try:
        await next_live(dealer)
        await dealer.send_to(text_data="{not json")
        reply = await dealer.receive_from(timeout=5)
        assert 'data-code="bad_message"' in reply
        assert "cannot read" in reply
    finally:
        await dealer.disconnect()


async def test_an_observer_cannot_deal_but_can_flag(english_crew, table):
    path = f"/ws/tables/{table.pk}/"
    dealer = await connect(path, english_crew["dealer"])
    observer = await connect(path, english_crew["observer"])
    try:
        v0 = version_of(await next_live(dealer))
        await next_live(observer)
        await observer.send_to(text_data=command("shuffle", v0, cards_behind_cut=80))
        reply = await observer.receive_from(timeout=5)
        assert 'data-code="not_your_action"' in reply
        await observer.send_to(text_data=command("flag", v0, note="Box 3 was paid 3:2 twice"))
        seen = await next_live(dealer)
        assert "Box 3 was paid 3:2 twice" in seen
    finally:
        await dealer.disconnect()
        await observer.disconnect()


async def test_a_reconnecting_screen_gets_the_full_current_state(english_crew, table):
    path = f"/ws/tables/{table.pk}/"
    dealer = await connect(path, english_crew["dealer"])
    v0 = version_of(await next_live(dealer))
    await dealer.send_to(text_data=command("shuffle", v0, reason="new_shoe", cards_behind_cut=80))
    await next_live(dealer)
    await dealer.disconnect()
    again = await connect(path, english_crew["dealer"])
    try:
        first = await next_live(again)
        assert version_of(first) == v0 + 1
        assert "Shoe 1" in first
    finally:
        await again.disconnect()


async def test_the_inspector_home_receives_the_table_tile_live(english_crew, table):
    inspector = await connect("/ws/inspector/", english_crew["inspector"])
    dealer = await connect(f"/ws/tables/{table.pk}/", english_crew["dealer"])
    try:
        tile = await inspector.receive_from(timeout=5)
        assert f'id="tile-{table.pk}"' in tile
        v0 = version_of(await next_live(dealer))
        await dealer.send_to(
            text_data=command("shuffle", v0, reason="new_shoe", cards_behind_cut=80)
        )
        await dealer.send_to(text_data=command("open-round", v0 + 1))
        tiles = [await inspector.receive_from(timeout=5) for _ in range(2)]
        assert "Place your bets" in tiles[-1]
        assert 'data-testid="tile-round">1<' in tiles[-1]
    finally:
        await inspector.disconnect()
        await dealer.disconnect()


async def test_a_croupier_replaced_at_the_table_loses_its_screen_at_once(
    english_crew, table, make_user
):
    from staff import services as staff_services
    from staff.roles import Role, TableRole

    dealer = await connect(f"/ws/tables/{table.pk}/", english_crew["dealer"])
    inspector_home = await connect("/ws/inspector/", english_crew["inspector"])
    try:
        await next_live(dealer)
        await inspector_home.receive_from(timeout=5)

        def replace():
            newcomer = make_user("newcomer", [Role.DEALING_CROUPIER])
            staff_services.assignment_start(
                table=table, user=newcomer, role=TableRole.DEALING_CROUPIER, replace=True
            )

        await database_sync_to_async(replace)()
        closed = await dealer.receive_output(timeout=5)
        assert closed == {"type": "websocket.close", "code": 4403}
        # still the inspector's table: the tile stays, with the new dealer on it
        tile = await inspector_home.receive_from(timeout=5)
        assert f'id="tile-{table.pk}"' in tile and "Newcomer" in tile
        assert 'hx-swap-oob="delete"' not in tile
    finally:
        await dealer.disconnect()
        await inspector_home.disconnect()


ANSWER = re.compile(
    r'<div id="table-error"[^>]*data-code="([^"]*)" data-ack="([^"]*)" data-version="(\d+)"'
)


async def answer_to(communicator, command_id: str) -> tuple[str, int]:
    """(code, version) of the answer to ``command_id`` (skipping the fragments)."""
    while True:
        text = await communicator.receive_from(timeout=5)
        match = ANSWER.search(text)
        if match and match.group(2) == command_id:
            return match.group(1), int(match.group(3))


async def test_a_tap_sent_again_after_a_reconnect_is_answered_as_before_and_acts_once(
    english_crew, table
):
    """The tablet resends an unanswered tap with its id after a cut: the answer names the
    command and the round version it made, the same both times; the table moved once."""
    from tests.desk import screen_seq

    path = f"/ws/tables/{table.pk}/"
    dealer = await connect(path, english_crew["dealer"])
    v0 = version_of(await next_live(dealer))
    tap = json.loads(command("shuffle", v0, reason="new_shoe", cards_behind_cut=80))
    await dealer.send_json_to(tap)
    assert await answer_to(dealer, tap["id"]) == ("", v0 + 1)
    await dealer.disconnect()  # the answer may never have reached the tablet
    moved = await database_sync_to_async(screen_seq)(table)
    again = await connect(path, english_crew["dealer"])
    try:
        assert version_of(await next_live(again)) == v0 + 1
        await again.send_json_to(tap)  # the same id, the version the tap was made on
        assert await answer_to(again, tap["id"]) == ("", v0 + 1)
        refused = json.loads(command("open-round", v0))
        await again.send_json_to(refused)
        assert await answer_to(again, refused["id"]) == ("stale", v0 + 1)
        assert await database_sync_to_async(screen_seq)(table) == moved  # acted once
    finally:
        await again.disconnect()
