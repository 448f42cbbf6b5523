"""The one dispatch table and the one parse of a command (docs/protocol.md).

``COMMANDS`` names, for every command a screen may send: its form (``game.commands.forms``:
the one reading of its fields), the act of ``staff.permissions`` that may send it, whether it
is a round command (it carries the round version the screen showed, is refused ``stale``
when the round moved on, and moves it) and its handler. The round's own commands (bet, card,
stand, ..., void) have one handler, :func:`game.commands.round_commands.round_command`: the table
layer decides them (``game.table.live.COMMANDS``, pure Python, is what a replay of the stored
events runs too). :func:`command_parse` reads a protocol message through that table.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass

from floor.errors import Refused
from floor.parsing import whole_number
from game.commands import forms
from game.commands import table_commands as outside
from game.commands.commands import ParsedCommand
from game.commands.round_commands import round_command
from game.recording import Context


@dataclass(frozen=True)
class Kind:
    """What a command is: its form, the act that may send it, whether it is a round command
    and what does it."""

    form: type[forms.CommandForm]
    act: str
    round: bool
    handler: Callable[[Context], None]

    @property
    def on_round(self) -> bool:
        """Decided by the table layer on the current round (its state is the command's)."""
        return self.handler is round_command


def _round(form: type[forms.CommandForm], act: str = "game.deal") -> Kind:
    return Kind(form, act, True, round_command)


COMMANDS: dict[str, Kind] = {
    # the round: the table layer and the engine decide (game.table.live.COMMANDS)
    "bet": _round(forms.BetForm),
    "newcomer-refused": _round(forms.NewcomerRefusedForm),
    "remove-share": _round(forms.RemoveShareForm),
    "close-bets": _round(forms.CloseBetsForm),
    "card": _round(forms.CardForm),
    "card-down": _round(forms.NoFields),  # a box's card of the deal dealt face down
    "correct-card": _round(forms.CardForm),
    "stand": _round(forms.NoFields),
    "double": _round(forms.NoFields),
    "split": _round(forms.NoFields),
    "insure": _round(forms.InsureForm),
    "even-money": _round(forms.EvenMoneyForm),
    "insurance-closed": _round(forms.NoFields),
    "cut-card-out": _round(forms.CutCardOutForm),
    "confirm-settlement": _round(forms.NoFields),
    "void": _round(forms.VoidForm, "game.void"),
    # the shoe and the next round: round commands too (game.commands.table_commands)
    "open-round": Kind(forms.NoFields, "game.deal", True, outside.open_round),
    "shuffle": Kind(forms.ShuffleForm, "game.deal", True, outside.shuffle),
    "deal-next": Kind(forms.NoFields, "game.deal", True, outside.deal_next),
    # notes, tokens and rated play: they never make a croupier's next tap stale
    "flag": Kind(forms.FlagForm, "game.flag", False, outside.flag),
    "flag-seen": Kind(forms.FlagSeenForm, "game.flag_seen", False, outside.flag_seen),
    "reserve": Kind(forms.ReserveForm, "game.reserve", False, outside.reserve),
    "release": Kind(forms.ReleaseForm, "game.reserve", False, outside.release),
    "renew-reservation": Kind(
        forms.RenewReservationForm, "game.renew_reservation", False, outside.renew_reservation
    ),
    # Rated play (game.players): either croupier of the table seats a player and sees him leave.
    "player-in": Kind(forms.PlayerInForm, "game.seat_player", False, outside.player_in),
    "player-out": Kind(forms.PlayerOutForm, "game.seat_player", False, outside.player_out),
}
ALL_COMMANDS = frozenset(COMMANDS)
ROUND_COMMANDS = frozenset(name for name, kind in COMMANDS.items() if kind.round)
# Each command is one act of staff.permissions: who may send it is declared there, once.
COMMAND_ACTS = {name: kind.act for name, kind in COMMANDS.items()}


def command_parse(message) -> ParsedCommand | Refused:
    """The protocol message as a command, or the refusal: ``bad_message`` (not a command at
    all), ``bad_action`` (an action the table does not know), or its form's refusal of a
    field (the first bad one: the one parser's code and message). The command's ``fields``
    are what its form read — normalised, nothing else the message carried."""
    if not isinstance(message, dict):
        return Refused("bad_message")
    try:
        command_id = uuid.UUID(str(message.get("id")))
    except (TypeError, ValueError, AttributeError):
        return Refused("bad_message")
    action = message.get("action")
    kind = COMMANDS.get(action) if isinstance(action, str) else None
    if kind is None:
        return Refused("bad_action")
    expected = message.get("expected_version")
    expected = None if expected is None else whole_number(expected)
    if kind.round and expected is None:
        return Refused("bad_message")
    form = kind.form(data=message)
    if not form.is_valid():
        return form.refusal()
    return ParsedCommand(id=command_id, action=action, expected=expected, fields=form.values())
