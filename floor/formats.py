"""A number as a person reads it, in the active language (the bottom of the layering: alerts
format their figures with it; ``tables.formats`` builds the screens' formats on it)."""

from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

from django.utils.formats import number_format

MINUS = "\u2212"


def _decimal(value) -> Decimal | None:
    if value is None or value == "" or isinstance(value, bool):
        return None
    try:
        number = Decimal(str(value).strip())
    except (InvalidOperation, ValueError):
        return None
    return number if number.is_finite() else None


def number_text(value, places: int = 0) -> str:
    """``value`` rounded half up to ``places`` decimals, grouped by thousands, in the active
    language; empty for no value (and the text itself for something that is not a number)."""
    number = _decimal(value)
    if number is None:
        return "" if value is None else str(value)
    number = number.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    text = number_format(abs(number), decimal_pos=places, force_grouping=True)
    return (MINUS if number < 0 else "") + text
