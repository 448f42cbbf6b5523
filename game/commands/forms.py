"""One form per command: the fields each command of the live table carries, declared once.

A command's message — from a socket, or posted by a page — is read by its form and nothing
else: amounts, seat labels, player cards and box numbers by the one parser's fields
(``floor.forms``, on top of ``floor.parsing``), a card by the engine's ``Card.parse``, and
the rest kept as the short scalar the screen sent, for the handler to read in its own words
(a note, a reason, a choice). A bad field refuses the whole command with the parser's code
and message (the first bad field in the order declared here); what the form keeps — the
normalised values (``"100.00"``, ``"P1"``, ``3``, ``"Th"``) — is the command's ``fields``,
which the round's event records. The dispatch table (``game.commands.dispatch.COMMANDS``) names the
form of each command.
"""

from __future__ import annotations

from decimal import Decimal

from django import forms

from floor.errors import Refused
from floor.forms import AmountField, BoxField, NumberField, PlayerCardField, ScalarField, SeatField
from floor.parsing import shown
from game.engine import Card, EngineError

CARD_TEXT_MAX = 8  # "10h" is the longest spelling of a card


class CardField(forms.Field):
    """A card as a screen sends it (``Th``, ``10h``, ``th``, ``T``): its code, read by the
    engine's ``Card.parse``; anything else is refused ``bad_card``."""

    def to_python(self, value):
        if not isinstance(value, str) or len(value) > CARD_TEXT_MAX:
            raise Refused("bad_card", f"Not a card: {shown(value)!r}", card=shown(value))
        try:
            return Card.parse(value).code
        except EngineError as error:
            raise Refused(error.code, error.message, **error.params) from None

    def validate(self, value):
        pass


class CommandForm(forms.Form):
    """A command's fields. ``values()`` are the command's fields, JSON-safe (a ``Decimal`` as
    its normalised spelling), absent ones left out."""

    def refusal(self) -> Refused:
        """The first bad field's refusal: its code and params (the screen words it in its
        own language, ``game.messages``)."""
        for errors in self.errors.as_data().values():
            error = errors[0]
            if isinstance(error, Refused):
                return Refused(error.code, **error.refusal_params)
            return Refused(error.code or "bad_message")
        return Refused("bad_message")

    def values(self) -> dict:
        return {
            name: str(value) if isinstance(value, Decimal) else value
            for name, value in self.cleaned_data.items()
            if value is not None
        }


class NoFields(CommandForm):
    """A command that carries nothing but its name (stand, close the insurance, ...)."""


# -- the round's commands (game.table.live) --------------------------------------------------


class BetForm(CommandForm):
    stake = AmountField()
    seat = SeatField()
    player_card = PlayerCardField()
    box = BoxField(refusal="bad_action")


class NewcomerRefusedForm(CommandForm):
    stake = AmountField()
    seat = SeatField()
    box = BoxField(refusal="bad_action")


class RemoveShareForm(CommandForm):
    seat = SeatField()
    box = BoxField(refusal="bad_action")


class InsureForm(CommandForm):
    amount = AmountField()
    box = BoxField(refusal="bad_action")


class EvenMoneyForm(CommandForm):
    box = BoxField(refusal="bad_action")


class CardForm(CommandForm):
    """A card dealt, or the card a correction puts in place of the last one."""

    card = CardField()


class CloseBetsForm(CommandForm):
    # What the croupier said before bets close (game.commands.round_commands reads them).
    lone_player = ScalarField()
    newcomer_consent = ScalarField()
    limits_announced = ScalarField()


class CutCardOutForm(CommandForm):
    confirmed = ScalarField()  # "the cut card came out early: yes, it did"


class VoidForm(CommandForm):
    reason = ScalarField()


# -- the commands outside a round (game.commands.table_commands) ------------------------------


class ShuffleForm(CommandForm):
    reason = ScalarField()
    cards_behind_cut = NumberField()  # checked against the rule set's bounds: bad_cut
    cut_by_box = BoxField()  # optional: the dealer cut
    cut_passed = ScalarField()
    burn_card = ScalarField()  # read by the handler: burn_card_required


class FlagForm(CommandForm):
    note = ScalarField()


class FlagSeenForm(CommandForm):
    flag = NumberField(low=1)


class ReserveForm(CommandForm):
    seat = SeatField(required=False)
    box = BoxField(refusal="bad_message")
    minutes = ScalarField()  # the table's own bounds: bad_reservation_time


class ReleaseForm(CommandForm):
    box = BoxField(refusal="bad_message")


class RenewReservationForm(CommandForm):
    box = BoxField(refusal="bad_message")
    note = ScalarField()
    minutes = ScalarField()


class PlayerInForm(CommandForm):
    seat = SeatField()
    player_card = PlayerCardField()


class PlayerOutForm(CommandForm):
    chips_taken = AmountField(positive=False, required=False)
    session = ScalarField()
