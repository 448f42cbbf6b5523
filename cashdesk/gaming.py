"""Money and counts typed at the cash desk; gaming days and shifts are ``floor.gaming``
(re-exported here for the cash desk's modules)."""

from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from floor.gaming import day_window, gaming_day_of, shift_hours, shift_of  # noqa: F401

CENT = Decimal("0.01")


# Amounts are stored with 14 digits, 2 after the point; no count of chips or notes comes near
# a million. Beyond these, input is a typing error, refused before any arithmetic.
MAX_AMOUNT = Decimal("1e12")
MAX_COUNT = 1_000_000


def money(value, *, field: str = "") -> Decimal:
    """A positive amount of money from user input, or a ValidationError."""
    if isinstance(value, bool) or value is None:
        raise ValidationError(_("Enter an amount."), code="bad_amount")
    try:
        amount = Decimal(str(value).strip().replace(",", "."))
    except (InvalidOperation, ValueError):
        raise ValidationError(_("“%(value)s” is not an amount.") % {"value": value})
    if not amount.is_finite():
        raise ValidationError(_("“%(value)s” is not an amount.") % {"value": value})
    if amount <= 0:
        raise ValidationError(_("The amount must be greater than zero."), code="not_positive")
    if amount >= MAX_AMOUNT:
        raise ValidationError(_("That amount is too large."), code="too_large")
    if amount != amount.quantize(CENT, rounding=ROUND_HALF_UP):
        raise ValidationError(_("At most two decimal places."), code="bad_amount")
    return amount.quantize(CENT)


def whole_number(value, *, what: str) -> int:
    """A count of notes or chips typed by a person: ASCII digits only (no sign, no point,
    no exponent), at most ``MAX_COUNT``; empty is zero. The one place digits become a count
    (the cash desk's forms and ``counts`` below use it)."""
    if isinstance(value, int) and not isinstance(value, bool):
        text = str(value)
    else:
        text = str(value if value is not None else "").strip()
    if text in ("", "0"):
        return 0
    if text.startswith("-") and text[1:].isascii() and text[1:].isdigit():
        raise ValidationError(_("A count cannot be negative."), code="negative")
    if not (text.isascii() and text.isdigit()):
        raise ValidationError(
            _("“%(value)s” is not a whole number of %(what)s.") % {"value": value, "what": what},
            code="not_a_count",
        )
    if len(text) > len(str(MAX_COUNT)) or int(text) > MAX_COUNT:
        raise ValidationError(_("That count is too large."), code="too_large")
    return int(text)


def counts(raw: dict, allowed: list[str], *, what: str) -> tuple[dict[str, int], Decimal]:
    """Counts by denomination (only ``allowed`` denominations, whole non-negative numbers)
    and their total value. Zero counts are dropped; an empty result is refused."""
    allowed_set = {_name(Decimal(str(a))) for a in allowed}
    out: dict[str, int] = {}
    total = Decimal(0)
    for key, value in (raw or {}).items():
        if value in ("", None, 0, "0"):
            continue
        try:
            denomination = Decimal(str(key))
        except (InvalidOperation, ValueError):
            denomination = Decimal("NaN")
        number = whole_number(value, what=what)
        name = _name(denomination) if denomination.is_finite() else str(key)
        if name not in allowed_set:
            raise ValidationError(
                _("%(denomination)s is not a denomination of the %(what)s here.")
                % {"denomination": key, "what": what}
            )
        if number:
            out[name] = out.get(name, 0) + number
            total += denomination * number
    if not out:
        raise ValidationError(_("Enter at least one %(what)s.") % {"what": what})
    return out, total.quantize(CENT)


def _name(denomination: Decimal) -> str:
    return f"{denomination.normalize():f}"
