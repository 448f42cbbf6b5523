"""Commands are values: one form per command reads its fields — from a socket's JSON message
or a page's POST alike — with the one parser; one dispatch table names each command's form,
act, round flag and handler; the table layer's commands are exactly the round commands the
table sends it."""

import uuid

import pytest
from django.http import QueryDict

from floor.errors import Refused
from game.commands.dispatch import COMMANDS, ROUND_COMMANDS, command_parse
from game.table import live
from staff.permissions import ACTS

pytestmark = pytest.mark.usefixtures("english")


def parsed(action, **fields):
    return command_parse(
        {"id": str(uuid.uuid4()), "expected_version": 3, "action": action, **fields}
    )


def test_the_dispatch_table_names_every_command_once():
    assert {name for name, kind in COMMANDS.items() if kind.on_round} == set(live.COMMANDS)
    assert set(live.COMMANDS) <= ROUND_COMMANDS
    assert ROUND_COMMANDS - set(live.COMMANDS) == {"open-round", "shuffle", "deal-next"}
    for name, kind in COMMANDS.items():
        assert kind.act in ACTS, name


def test_a_form_keeps_the_normalised_fields_and_nothing_else():
    command = parsed("bet", box="3", seat="  P1 ", stake="1 500,5", junk="x", hand=2)
    assert command.fields == {"stake": "1500.50", "seat": "P1", "player_card": "", "box": 3}
    assert parsed("card", card="10h").fields == {"card": "Th"}
    assert parsed("stand", box=1, hand=1).fields == {}


@pytest.mark.parametrize(
    ("action", "fields", "code"),
    [
        ("bet", {"box": "x", "seat": "P1", "stake": "100"}, "bad_action"),
        ("bet", {"box": "x", "seat": "P1", "stake": "1e3"}, "not_an_amount"),  # stake first
        ("bet", {"box": 1, "seat": "x" * 25, "stake": "100"}, "seat_too_long"),
        ("insure", {"box": "+1", "amount": "50"}, "bad_action"),
        ("even-money", {"box": " 1"}, "bad_action"),
        ("reserve", {"box": "one"}, "bad_message"),
        ("release", {"box": []}, "bad_message"),
        ("card", {"card": {"a": 1}}, "bad_card"),
        ("correct-card", {"card": "Zz"}, "bad_card"),
        ("player-out", {"session": "1", "chips_taken": "-5"}, "amount_negative"),
        ("player-in", {"seat": "", "player_card": "PC-1"}, "seat_required"),
    ],
)
def test_a_bad_field_refuses_the_command_with_its_code(action, fields, code):
    refusal = parsed(action, **fields)
    assert isinstance(refusal, Refused) and refusal.code == code


def test_a_page_posting_a_command_reads_it_with_the_same_form():
    """The same form reads a page's POST (a ``QueryDict``) as the socket's JSON message."""
    form = COMMANDS["bet"].form(QueryDict("box=3&seat=%20P1&stake=1%20500%2C5&player_card="))
    assert form.is_valid()
    assert form.values() == parsed("bet", box=3, seat=" P1", stake="1 500,5").fields
    posted = COMMANDS["insure"].form(QueryDict("box=2&amount=1e3"))
    assert not posted.is_valid() and posted.refusal().code == "not_an_amount"
    assert "is not an amount" in posted.errors["amount"][0]
