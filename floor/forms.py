"""The one parser's words and its form fields: ``floor.parsing`` reads, this says why not.

Every refusal of :mod:`floor.parsing` has a code and a message here, the same on a page (a
form field's error, a view's 400) and on a live screen (the socket's error frame, through
``game.commands.messages``). The fields below are what forms put on top of the parser; services that
take typed values call :func:`amount_value`, :func:`count_value` and :func:`seat_value`,
which raise a :class:`~floor.errors.Refused` (a ``ValidationError``) with that message.
"""

from __future__ import annotations

from decimal import Decimal

from django import forms
from django.utils.translation import gettext_lazy as _

from floor import parsing
from floor.errors import Refused

MESSAGES = {
    "amount_required": _("Enter an amount."),
    "not_an_amount": _(
        "“%(value)s” is not an amount: write digits, such as 1500 or 1 500,50 (no sign, no "
        "exponent)."
    ),
    "amount_negative": _("An amount cannot be negative."),
    "amount_decimals": _("At most two decimal places."),
    "amount_too_large": _("That amount is too large."),
    "amount_zero": _("The amount must be greater than zero."),
    "count_negative": _("A count cannot be negative."),
    "not_a_count": _("“%(value)s” is not a whole number of %(what)s."),
    "count_too_large": _("That count is too large."),
    "seat_required": _("Name the player's seat for this stake."),
    "seat_too_long": _("A seat label is at most %(longest)s characters: “%(value)s” is longer."),
    "seat_characters": _(
        "A seat label is letters, digits, spaces and “-”, at most %(longest)s characters."
    ),
    "player_card_too_long": _("A player card is at most %(longest)s characters."),
    "player_card_characters": _("A player card is letters, digits and “-”."),
}


def message(error: parsing.Unreadable, **extra) -> str:
    """The refusal's message in the active language."""
    params = {"what": "", **error.params, **extra}
    try:
        return str(MESSAGES[error.code]) % params
    except (KeyError, TypeError, ValueError):
        return str(MESSAGES.get(error.code, error.code))


def refused(error: parsing.Unreadable, **extra) -> Refused:
    """The parser's refusal as a service's (a ``ValidationError`` with code and message)."""
    return Refused(error.code, message(error, **extra), **error.params)


def amount_value(value, *, positive: bool = True) -> Decimal:
    """``parsing.amount``, refused in words (more than zero unless ``positive=False``)."""
    try:
        return parsing.amount(value, positive=positive)
    except parsing.Unreadable as error:
        raise refused(error) from None


def count_value(value, *, high: int, what: str = "") -> int:
    """``parsing.count``, refused in words (``what``: "notes", "chips")."""
    try:
        return parsing.count(value, high=high)
    except parsing.Unreadable as error:
        raise refused(error, what=what) from None


def seat_value(value, *, required: bool = True) -> str:
    """``parsing.seat_label``, refused in words."""
    try:
        return parsing.seat_label(value, required=required)
    except parsing.Unreadable as error:
        raise refused(error) from None


def player_card_value(value) -> str:
    """``parsing.player_card``, refused in words."""
    try:
        return parsing.player_card(value)
    except parsing.Unreadable as error:
        raise refused(error) from None


class AmountField(forms.Field):
    """An amount of money as typed in either language (``1 500,50``, ``1500.50``): a
    ``Decimal`` in cents, more than zero unless ``positive=False``. Empty is "Enter an
    amount." when required, else None."""

    widget = forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off"})

    def __init__(self, *, positive: bool = True, **kwargs):
        super().__init__(**kwargs)
        self.positive = positive
        self.error_messages["required"] = MESSAGES["amount_required"]

    def to_python(self, value):
        if value in self.empty_values:
            return None
        return amount_value(value, positive=self.positive)
