"""Issue 19 item 8 through a real daphne: a stake of 1e14 (MemoryError and a 1011 close
before the one parser), an insurance of 1e9999 and a seat label with U+202E are refused on
the open socket, and the same socket then takes a good bet. A plain ``websockets`` client,
as docs/examples/play_round.py."""

import json
import re
import uuid

from websockets.sync.client import connect

from game.models import RoundEvent
from tests.conftest import session_cookie_for
from tests.desk import Desk

ANSWER = re.compile(r'<div id="table-error"[^>]*data-code="([^"]*)"[^>]*>([^<]*)<')


def answer_to(socket, command: dict) -> tuple[str, str]:
    socket.send(json.dumps(command))
    while True:
        found = ANSWER.search(socket.recv(timeout=10))
        if found and f'data-ack="{command["id"]}"' in found.group(0):
            return found.group(1), found.group(2)


def test_bad_amounts_and_labels_are_refused_on_an_open_socket(
    daphne_server, transactional_db, english_crew, table
):
    desk = Desk(table, english_crew["dealer"])
    table.chip_denominations = ["5", "25", "100", "500"]
    table.max_bet = 5000
    table.save(update_fields=["chip_denominations", "max_bet"])
    desk.start_round()
    version = desk.version
    events = RoundEvent.objects.count()
    url = daphne_server.replace("http", "ws", 1) + f"/ws/tables/{table.pk}/"
    cookie = session_cookie_for(english_crew["dealer"])
    with connect(url, origin=daphne_server, additional_headers={"Cookie": cookie}) as socket:
        for action, fields, code in [
            ("bet", {"box": 1, "seat": "P1", "stake": "1e14"}, "not_an_amount"),
            ("bet", {"box": 1, "seat": "P1", "stake": "1000000000000"}, "amount_too_large"),
            ("bet", {"box": 1, "seat": "P1", "stake": "１００"}, "not_an_amount"),
            ("bet", {"box": 1, "seat": "\u202eP1", "stake": "100"}, "seat_characters"),
            ("insure", {"box": 1, "amount": "1e9999"}, "not_an_amount"),
        ]:
            command = {"id": str(uuid.uuid4()), "expected_version": version, "action": action}
            refused = answer_to(socket, {**command, **fields})
            assert refused[0] == code, refused
        assert (desk.version, RoundEvent.objects.count()) == (version, events)
        command = {"id": str(uuid.uuid4()), "expected_version": version, "action": "bet"}
        assert answer_to(socket, {**command, "box": 1, "seat": "P1", "stake": "1 000"}) == ("", "")
    assert desk.version == version + 1
    assert RoundEvent.objects.latest("pk").payload["command"]["stake"] == "1000.00"
