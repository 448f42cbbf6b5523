"""How a number or a stored value reads for a person: one format, in the person's language.

* ``money``: two decimals, thousands separated (``114 200,00`` in Russian, ``114,200.00`` in
  English), a real minus sign;
* ``number``: a whole count, or ``number(x, 1)`` for one decimal;
* ``denominations``: chips or notes by denomination, ``5 000 × 2, 1 000 × 3``;
* ``readable``: a stored setting (a list, a mapping, a yes/no), never a Python repr.

The separators are Django's locale formats (``django.utils.formats.number_format``), so both
languages follow Django's own tables. Templates use them as filters (``{% load formats %}``,
tables/templatetags/formats.py); messages, exports and charts call them here.
"""

from decimal import ROUND_HALF_UP, Decimal

from django.utils.formats import number_format
from django.utils.translation import gettext as _

from floor.formats import MINUS, _decimal, number_text  # noqa: F401  (re-exported)


def money(value) -> str:
    """An amount of money: two decimals, thousands separated."""
    return number_text(value, 2)


def typed_amount(value) -> str:
    """An amount as a field offers it for editing: two decimals with the person's decimal
    mark and no thousands separator (``250,00`` in Russian, ``250.00`` in English), which
    the one parser (floor.parsing.amount) reads back in either language."""
    number = _decimal(value)
    if number is None:
        return ""
    return number_format(number.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP), decimal_pos=2)


def number(value, places=0) -> str:
    """A count (``number``) or a ratio with ``places`` decimals (``number:1``)."""
    return number_text(value, int(places))


def chip_value(value) -> str:
    """A chip's denomination: whole where it is whole (``5 000``), else with cents."""
    number = _decimal(value)
    if number is None:
        return "" if value is None else str(value)
    return number_text(number, 0 if number == number.to_integral_value() else 2)


def percent(fraction, places=2) -> str:
    """A fraction as a percentage with a sign: ``-0.0037`` → ``−0.37 %``, ``0.005`` →
    ``+0.50 %`` (a house edge: the sign says who has it)."""
    number = _decimal(fraction)
    if number is None:
        return "—"
    text = number_text(number * 100, int(places))
    return f"{'+' if number > 0 else ''}{text}\u00a0%"


def denominations(counts) -> str:
    """Counts by denomination, the largest denomination first: ``5 000 × 2, 1 000 × 3``."""
    if not counts:
        return ""
    rows = []
    for key, count in dict(counts).items():
        value = _decimal(key)
        rows.append((value if value is not None else Decimal(0), key, count))
    rows.sort(key=lambda row: row[0], reverse=True)
    shown = []
    for value, key, count in rows:
        shown.append(f"{chip_value(value) or key} × {number_text(count)}")
    return ", ".join(shown)


def readable(value) -> str:
    """A stored value (a setting in the history) in words: lists joined, mappings as
    ``key: value``, yes/no, "—" for nothing."""
    if value is None or value == "" or value == [] or value == {}:
        return "—"
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, dict):
        return "; ".join(f"{key}: {readable(item)}" for key, item in value.items())
    if isinstance(value, list | tuple):
        return ", ".join(readable(item) for item in value)
    if isinstance(value, int | float | Decimal):
        return number_text(value, 0 if value == int(value) else 2)
    text = str(value)
    if text.strip().lstrip("-").replace(".", "", 1).isdigit():  # an amount saved as text
        return number_text(text, 2 if "." in text else 0)
    return text
