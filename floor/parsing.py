"""Turning what a person typed (or a screen sent) into a number: once, the same everywhere.

Each function returns the value or ``None`` for anything that is not exactly what it
expects — never an exception, never a silent guess. Digits are ASCII digits only (``\\d``
would take other scripts' digits; ``int()`` would take " 3", "+3", "3_0"). Callers give the
person the message; forms use :class:`floor.forms` fields built on these.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

MAX_DB_ID = 2**63 - 1  # a bigint primary key


def digits(value) -> str | None:
    """``value`` as a string of ASCII digits (ints pass), else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return str(value) if value >= 0 else None
    text = str(value if value is not None else "").strip()
    return text if text and text.isascii() and text.isdigit() else None


def whole_number(value, *, low: int = 0, high: int = MAX_DB_ID) -> int | None:
    """A whole number between ``low`` and ``high`` (both included), else None."""
    text = digits(value)
    if text is None or len(text) > 19:
        return None
    number = int(text)
    return number if low <= number <= high else None


def record_id(value) -> int | None:
    """A database id (1 to 2^63 − 1), else None."""
    return whole_number(value, low=1, high=MAX_DB_ID)


def box_number(value) -> int | None:
    """A box number as screens send it (an int or up to three ASCII digits), else None."""
    return whole_number(value, low=0, high=999)


CENT = Decimal("0.01")
MAX_AMOUNT = Decimal("1e12")  # far beyond any stake or cash-in: beyond it, input is an error


def amount(value, *, cents: bool = True) -> Decimal | None:
    """An amount of money as typed ("1 500,50", "1500.5", 1500): a finite, non-negative
    Decimal below ``MAX_AMOUNT``, in whole cents (``cents``) — else None. Never a float."""
    if isinstance(value, bool) or isinstance(value, float):
        return None
    text = str(value if value is not None else "").strip().replace("\u00a0", "").replace(" ", "")
    text = text.replace(",", ".")
    if not text or not all(c.isascii() for c in text):
        return None
    try:
        number = Decimal(text)
    except InvalidOperation:
        return None
    if not number.is_finite() or number < 0 or number >= MAX_AMOUNT:
        return None
    if cents and number != number.quantize(CENT):
        return None
    return number
