"""The one parser: what a person typed (or a screen sent) becomes an amount, a count or a
label here, and nowhere else — on HTTP and the socket alike, before anything is computed.

Pure Python (no Django): ``floor.forms`` puts the messages and the form fields on top, the
socket's command parsing (``game.commands.commands.command_parse``) and every form call these.

* **Bounded first.** The text's length and its number of digits are checked before any
  conversion, so no input costs more than reading a few dozen characters: a 10 000-digit
  string, ``1e9999`` or a stake of ``1000000000000`` is refused at once, never converted,
  never split into chips.
* **Amounts** (:func:`amount`): ASCII digits, grouped by spaces as people type them
  (``1 500``, also a no-break or narrow no-break space: the Russian format), one decimal
  separator — ``.`` or ``,`` (the Russian keyboard types a comma) — with at most two
  decimals; below ``MAX_AMOUNT``. No sign, no exponent, no underscore, no other script's
  digits (``１００``, ``١٠٠``), no ``NaN`` or ``Infinity``, never a float. The result is a
  ``Decimal`` in cents (``Decimal("1500.50")``): ``str()`` of it is the one normalised spelling
  a record keeps, whatever was typed.
* **Counts** (:func:`count`, :func:`whole_number`): ASCII digits only.
* **Labels** (:func:`seat_label`, :func:`player_card`): short plain text — letters of any
  script, ASCII digits, spaces and ``-`` — refused beyond their length, never cut; no control
  or format character (a right-to-left override U+202E would turn a label around on screen).

A refusal is :class:`Unreadable` with a stable ``code`` and the ``params`` of its message
(``floor.forms.MESSAGES``); the functions returning ``None`` say "not one" where the caller
has its own words (an id, a box, a number of minutes).
"""

from __future__ import annotations

import re
import unicodedata
from decimal import Decimal

MAX_DB_ID = 2**63 - 1  # a bigint primary key


class Unreadable(ValueError):
    """Input that is not what was asked for: ``code`` says why, ``params`` fill the message
    (``value``: what was typed, made safe to show)."""

    def __init__(self, code: str, **params):
        super().__init__(code)
        self.code = code
        self.params = params


def shown(value, limit: int = 16) -> str:
    """What was typed, safe to put back in a message: at most ``limit`` characters, no
    control or format character (nothing can turn the message around)."""
    if isinstance(value, bool) or not isinstance(value, str | int | float | Decimal):
        return type(value).__name__ if value is not None else ""
    if isinstance(value, int) and abs(value) >= 10**limit:
        return "…"  # str() of a huge int costs; nobody reads it anyway
    text = str(value)[: limit * 4]
    text = "".join(
        c for c in text if not unicodedata.category(c).startswith(("C", "Z")) or c == " "
    )
    return text if len(text) <= limit else text[: limit - 1] + "…"


# -- whole numbers ---------------------------------------------------------------------------


def digits(value) -> str | None:
    """``value`` as a string of ASCII digits (ints pass), else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return str(value) if 0 <= value <= MAX_DB_ID else None
    if not isinstance(value, str | None):
        return None
    text = (value or "").strip()
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
    """A box number as screens send it — an int, or up to three ASCII digits and nothing
    else (not ``" 3"``, ``"+3"`` or ``"³"``) — else None. The one reading of a box number:
    a command's form (``floor.forms.BoxField``), the table layer and the services use it."""
    if isinstance(value, str) and (len(value) > 3 or value != value.strip()):
        return None
    return whole_number(value, low=0, high=999)


def count(value, *, high: int) -> int:
    """A count of notes or chips as typed: ASCII digits only (no sign, no point, no
    exponent), at most ``high``; empty is zero. Raises :class:`Unreadable`
    (``count_negative``, ``not_a_count``, ``count_too_large``)."""
    if isinstance(value, int) and not isinstance(value, bool):
        if value < 0:
            raise Unreadable("count_negative")
        if value > high:
            raise Unreadable("count_too_large", high=high)
        return value
    if value is None:
        return 0
    if not isinstance(value, str):
        raise Unreadable("not_a_count", value=shown(value))
    text = value.strip()
    if not text:
        return 0
    if len(text) > len(str(high)) + 1:  # bounded before any conversion
        numeric = text.lstrip("-").isascii() and text.lstrip("-").isdigit()
        raise Unreadable("count_too_large" if numeric else "not_a_count", value=shown(text))
    if text[0] == "-" and text[1:].isascii() and text[1:].isdigit():
        raise Unreadable("count_negative")
    if not (text.isascii() and text.isdigit()):
        raise Unreadable("not_a_count", value=shown(text))
    number = int(text)
    if number > high:
        raise Unreadable("count_too_large", high=high)
    return number


# -- amounts -----------------------------------------------------------------------------------

CENT = Decimal("0.01")
AMOUNT_DIGITS = 12  # whole digits: the database keeps 14 digits, two of them after the point
MAX_AMOUNT = Decimal(10) ** AMOUNT_DIGITS  # far beyond any stake or cash-in: an error beyond
AMOUNT_TEXT_MAX = 32  # "999 999 999 999,99" is 18 characters; nothing longer is an amount
GROUP_SPACES = " \u00a0\u202f"  # a space, a no-break space, a narrow no-break space
_AMOUNT = re.compile(r"(\d{1,3}(?:[ \u00a0\u202f]\d{3})+|\d+)(?:[.,](\d+))?", re.ASCII)


def amount(value, *, positive: bool = False) -> Decimal:
    """An amount of money as typed (``"1 500,50"``, ``"1500.5"``, ``1500``) as a ``Decimal``
    in cents, below ``MAX_AMOUNT`` (more than zero with ``positive``). Raises
    :class:`Unreadable`: ``amount_required`` (nothing), ``not_an_amount``,
    ``amount_negative``, ``amount_decimals`` (more than two), ``amount_too_large``,
    ``amount_zero``. A JSON number arrives as an int (exact) or a float (refused: a float
    cannot hold cents exactly)."""
    if value is None or (isinstance(value, str) and not value.strip(GROUP_SPACES + "\t")):
        raise Unreadable("amount_required")
    if isinstance(value, bool) or not isinstance(value, str | int | Decimal):
        raise Unreadable("not_an_amount", value=shown(value))
    if isinstance(value, str):
        number = _amount_text(value.strip(GROUP_SPACES + "\t"))
    else:
        number = _amount_number(value)
    number = number.quantize(CENT)
    if positive and number == 0:
        raise Unreadable("amount_zero")
    return number


def _amount_text(text: str) -> Decimal:
    if len(text) > AMOUNT_TEXT_MAX:
        head = text[:AMOUNT_TEXT_MAX].lstrip("-")
        numeric = all(c.isascii() and (c.isdigit() or c in GROUP_SPACES) for c in head)
        raise Unreadable("amount_too_large" if numeric else "not_an_amount", value=shown(text))
    negative = text.startswith("-")
    found = _AMOUNT.fullmatch(text[1:] if negative else text)
    if found is None:
        raise Unreadable("not_an_amount", value=shown(text))
    if negative:
        raise Unreadable("amount_negative", value=shown(text))
    whole = "".join(c for c in found.group(1) if c.isdigit()).lstrip("0") or "0"
    cents = found.group(2) or ""
    if len(whole) > AMOUNT_DIGITS:
        raise Unreadable("amount_too_large", value=shown(text))
    if len(cents) == 3 and "," in text:  # "1,500": an English thousands comma, not cents
        raise Unreadable("not_an_amount", value=shown(text))
    if len(cents) > 2:
        raise Unreadable("amount_decimals", value=shown(text))
    return Decimal(f"{whole}.{cents or '0'}")


def _amount_number(value: int | Decimal) -> Decimal:
    """An int or a Decimal handed over by code (a JSON integer, a cleaned form value)."""
    if isinstance(value, Decimal) and not value.is_finite():
        raise Unreadable("not_an_amount", value=shown(value))
    if value < 0:
        raise Unreadable("amount_negative", value=shown(value))
    if value >= MAX_AMOUNT:  # compared before any conversion or rounding
        raise Unreadable("amount_too_large", value=shown(value))
    number = Decimal(value)
    if number != number.quantize(CENT):
        raise Unreadable("amount_decimals", value=shown(value))
    return number


def denomination_text(value: Decimal) -> str:
    """A chip's or a note's denomination as the records keep it: ``"1000"``, ``"25.5"``."""
    return f"{value.normalize():f}"


# -- labels ------------------------------------------------------------------------------------

SEAT_LABEL_MAX = 24  # what a seat's name tag holds
PLAYER_CARD_MAX = 32
_SPACES = re.compile(f"[{GROUP_SPACES}]+")


def _plain(value, *, longest: int, code: str) -> str:
    """Letters of any script (with their combining marks), ASCII digits, single spaces and
    ``-``; at most ``longest`` characters. Empty is ``""``. Raises ``<code>_too_long`` or
    ``<code>_characters``."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise Unreadable(f"{code}_characters", value=shown(value), longest=longest)
    if len(value) > 4 * longest + 16:  # bounded before normalising
        raise Unreadable(f"{code}_too_long", value=shown(value), longest=longest)
    words = _SPACES.split(unicodedata.normalize("NFC", value))
    text = " ".join(w for w in words if w)
    previous = " "
    for char in text:
        kind = unicodedata.category(char)
        mark = kind.startswith("M") and previous not in " -"
        if not (char in " -" or (char.isascii() and char.isdigit()) or kind[0] == "L" or mark):
            raise Unreadable(f"{code}_characters", value=shown(text), longest=longest)
        previous = char
    if len(text) > longest:
        raise Unreadable(f"{code}_too_long", value=shown(text), longest=longest)
    return text


def seat_label(value, *, required: bool = True) -> str:
    """A player's seat label as the croupier types it (``P1``, ``Иван``, ``box-3 left``),
    spaces collapsed. Raises :class:`Unreadable`: ``seat_required``, ``seat_too_long``
    (more than ``SEAT_LABEL_MAX``: refused, never cut), ``seat_characters``."""
    text = _plain(value, longest=SEAT_LABEL_MAX, code="seat")
    if required and not text:
        raise Unreadable("seat_required")
    return text


def player_card(value) -> str:
    """A player card's number (``PC-1001``), or ``""`` for none. Raises :class:`Unreadable`:
    ``player_card_too_long``, ``player_card_characters``."""
    return _plain(value, longest=PLAYER_CARD_MAX, code="player_card")
