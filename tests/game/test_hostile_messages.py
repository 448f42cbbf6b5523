"""Whatever a socket sends, it gets a refusal and stays open: never a 1011, never a
traceback (docs/protocol.md)."""

import json
import uuid

import pytest

from tests.game.test_table_socket import connect, next_live

pytestmark = pytest.mark.django_db(transaction=True)


def _command(**fields) -> str:
    return json.dumps({"id": str(uuid.uuid4()), "expected_version": 1, **fields})


HOSTILE = [
    (_command(action=[]), "bad_action"),
    (_command(action={}), "bad_action"),
    (_command(action="card", expected_version=[]), "bad_message"),
    (_command(action="card", card={"a": 1}), None),
    ('{"id": [], "expected_version": 1, "action": "card"}', "bad_message"),
    ("{}", "bad_message"),
    ("[]", "bad_message"),
    ("null", "bad_message"),
    ('"a string"', "bad_message"),
    ("[" * 1000 + "]" * 1000, "bad_message"),
    ('{"a":' * 900 + "1" + "}" * 900, "bad_message"),
    ("x" * 5000, "bad_message"),
    ("{not json", "bad_message"),
    ('{"action": "sync", "known": {"x": 1}}', None),
    ('{"action": "sync", "known": [1, 2]}', None),
    ('{"action": "sync", "known": {"table.1": {"x": 1}}}', None),
    ('{"action": "sync", "known": {"table.1": "99999999999999999999999999"}}', None),
]


@pytest.mark.parametrize("message,code", HOSTILE)
async def test_a_hostile_message_is_refused_and_the_socket_stays_open(
    english_crew,
    table,
    message,
    code,
):
    dealer = await connect(f"/ws/tables/{table.pk}/", english_crew["dealer"])
    try:
        await next_live(dealer)
        await dealer.send_to(text_data=message)
        reply = await dealer.receive_from(timeout=5)
        if code is not None:
            assert f'data-code="{code}"' in reply
        # still open and still answering: a valid command is refused for a reason of its own
        await dealer.send_to(
            text_data=json.dumps(
                {"id": str(uuid.uuid4()), "expected_version": 0, "action": "open-round"}
            )
        )
        while True:
            answer = await dealer.receive_from(timeout=5)
            if 'id="table-error"' in answer and 'data-code=""' not in answer:
                break
        assert 'data-code="shuffle_needed"' in answer
    finally:
        await dealer.disconnect()


async def test_binary_frames_are_refused(english_crew, table):
    dealer = await connect(f"/ws/tables/{table.pk}/", english_crew["dealer"])
    try:
        await next_live(dealer)
        await dealer.send_to(bytes_data=b"\x00\x01")
        assert 'data-code="bad_message"' in await dealer.receive_from(timeout=5)
    finally:
        await dealer.disconnect()
