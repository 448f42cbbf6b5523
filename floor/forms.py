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


class ParsedField(forms.Field):
    """A form field read by the one parser: what the parser refuses is this field's error,
    with the parser's code, message and params (a :class:`~floor.errors.Refused`) — the
    same on a page and on a live screen. The parser says what an empty value is (refused,
    or ``""`` / ``None`` for a field not required), so the form adds no check of its own.
    A value comes as the request or the socket sent it: a string, or any JSON value."""

    def __init__(self, *, required: bool = True, **kwargs):
        super().__init__(required=required, **kwargs)

    def read(self, value):
        raise NotImplementedError

    def to_python(self, value):
        try:
            return self.read(value)
        except parsing.Unreadable as error:
            raise refused(error) from None

    def validate(self, value):
        pass  # the parser decided (an empty required value is its own refusal)


class AmountField(ParsedField):
    """An amount of money as typed in either language (``1 500,50``, ``1500.50``): a
    ``Decimal`` in cents, more than zero unless ``positive=False``. Empty is "Enter an
    amount." (``amount_required``) when required, else None."""

    widget = forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off"})

    def __init__(self, *, positive: bool = True, **kwargs):
        super().__init__(**kwargs)
        self.positive = positive
        self.error_messages["required"] = MESSAGES["amount_required"]

    def read(self, value):
        if not self.required and value in (None, ""):
            return None
        return parsing.amount(value, positive=self.positive)


class SeatField(ParsedField):
    """A player's seat label (``parsing.seat_label``): ``""`` when empty and not required."""

    def read(self, value):
        return parsing.seat_label(value, required=self.required)


class PlayerCardField(ParsedField):
    """A player card's number (``parsing.player_card``), ``""`` for none."""

    def __init__(self, **kwargs):
        super().__init__(required=False, **kwargs)

    def read(self, value):
        return parsing.player_card(value)


class NumberField(ParsedField):
    """A whole number from ``low`` to ``high`` (``parsing.whole_number``: an int or ASCII
    digits). Anything else is refused with ``refusal`` (a code of the caller's vocabulary)
    — or, with ``refusal=None``, read as None for the caller to decide (a number checked
    against a table's own bounds, an optional box)."""

    def __init__(self, *, low: int = 0, high: int = parsing.MAX_DB_ID, refusal=None, **kwargs):
        super().__init__(required=False, **kwargs)
        self.low, self.high, self.refusal = low, high, refusal

    def read(self, value) -> int | None:
        return parsing.whole_number(value, low=self.low, high=self.high)

    def to_python(self, value):
        number = self.read(value)
        if number is None and self.refusal is not None:
            raise Refused(self.refusal, value=parsing.shown(value))
        return number


class BoxField(NumberField):
    """A box number as screens send it (``parsing.box_number``: an int or up to three ASCII
    digits; not ``" 3"``, ``"+3"`` or ``"³"``)."""

    def __init__(self, *, refusal=None, **kwargs):
        super().__init__(low=0, high=999, refusal=refusal, **kwargs)

    def read(self, value) -> int | None:
        return parsing.box_number(value)


class ScalarField(forms.Field):
    """A short value kept as the screen sent it — a string or an integer of at most
    ``longest`` characters, else None — for a command's handler to read in words of its
    own (a note, a reason, a choice it compares with its own)."""

    def __init__(self, *, longest: int = 500, **kwargs):
        super().__init__(required=False, **kwargs)
        self.longest = longest

    def to_python(self, value):
        if isinstance(value, bool) or not isinstance(value, str | int):
            return None
        if isinstance(value, int) and abs(value) >= 10**self.longest:
            return None  # str() of a huge int costs; no screen sends one
        return value if len(str(value)) <= self.longest else None
