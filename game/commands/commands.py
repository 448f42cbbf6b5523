"""A command as a value: what each command is (round command or not, the act of
staff.permissions that may send it), its typed fields and the one parse of a protocol
message into a :class:`ParsedCommand` (docs/protocol.md)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field

from floor import parsing
from floor.errors import Refused
from floor.parsing import whole_number
from game.table import live

# Commands that change the round or the shoe: they carry the round version the screen
# showed, are refused ``stale`` when it moved on, and move it.
ROUND_COMMANDS = live.COMMANDS | {"open-round", "shuffle", "deal-next"}
# Each command is one act of staff.permissions: who may send it is declared there, once.
COMMAND_ACTS = {
    **dict.fromkeys(ROUND_COMMANDS - {"void"}, "game.deal"),
    "void": "game.void",
    "flag": "game.flag",
    "flag-seen": "game.flag_seen",
    "reserve": "game.reserve",
    "release": "game.reserve",
    "renew-reservation": "game.renew_reservation",
    # Rated play (game.players): either croupier of the table seats a player and sees him leave.
    "player-in": "game.seat_player",
    "player-out": "game.seat_player",
}
ALL_COMMANDS = frozenset(COMMAND_ACTS)
MAX_FIELD_LENGTH = 500


@dataclass
class Outcome:
    ok: bool
    version: int
    code: str = ""
    message: str = ""
    params: dict = field(default_factory=dict)
    duplicate: bool = False

    def to_dict(self) -> dict:
        return {
            "ok": self.ok,
            "version": self.version,
            "code": self.code,
            "message": self.message,
            "params": self.params,
        }


@dataclass
class ParsedCommand:
    """One parsed command: what the screen sent, checked for shape."""

    id: uuid.UUID
    action: str
    expected: int | None
    fields: dict


def command_parse(message) -> ParsedCommand | Refused:
    """The protocol message as a command, or the refusal (``bad_message``: not a command
    at all; ``bad_action``: an action the table does not know). Only short scalar fields
    are kept: a list, an object or a long string never reaches the table."""
    if not isinstance(message, dict):
        return Refused("bad_message")
    try:
        command_id = uuid.UUID(str(message.get("id")))
    except (TypeError, ValueError, AttributeError):
        return Refused("bad_message")
    action = message.get("action")
    if not isinstance(action, str) or action not in ALL_COMMANDS:
        return Refused("bad_action")
    expected = message.get("expected_version")
    expected = None if expected is None else whole_number(expected)
    if action in ROUND_COMMANDS and expected is None:
        return Refused("bad_message")
    fields = {
        k: v
        for k, v in message.items()
        if k not in ("id", "expected_version", "HEADERS")
        and isinstance(k, str)
        and isinstance(v, str | int)
        and not isinstance(v, bool)
        and len(str(v)) <= MAX_FIELD_LENGTH
    }
    try:
        fields.update(_typed_fields(action, message))
    except parsing.Unreadable as error:
        return Refused(error.code, **error.params)
    return ParsedCommand(id=command_id, action=action, expected=expected, fields=fields)


# -- what a person typed: amounts and labels, read by the one parser (floor.parsing) ------


def _stake(value) -> str:
    return str(parsing.amount(value, positive=True))  # "1 500,5" -> "1500.50"


def _chips_taken(value) -> str:
    return "" if value in (None, "") else str(parsing.amount(value))


def _seat(value) -> str:
    return parsing.seat_label(value)


def _seat_if_any(value) -> str:
    return parsing.seat_label(value, required=False)


# The typed fields of each command and their parser: every one is read, whatever its type,
# before anything else is done with the command — a bad one refuses the whole command, and
# the event keeps the normalised value ("100.00"), never the spelling.
TYPED_FIELDS = {
    "bet": {"stake": _stake, "seat": _seat, "player_card": parsing.player_card},
    "newcomer-refused": {"stake": _stake, "seat": _seat},
    "remove-share": {"seat": _seat},
    "insure": {"amount": _stake},
    "reserve": {"seat": _seat_if_any},
    "player-in": {"seat": _seat, "player_card": parsing.player_card},
    "player-out": {"chips_taken": _chips_taken},
}


def _typed_fields(action: str, message: dict) -> dict:
    """The typed fields of ``action`` in ``message``, normalised; raises
    ``parsing.Unreadable``."""
    return {name: parse(message.get(name)) for name, parse in TYPED_FIELDS.get(action, {}).items()}
