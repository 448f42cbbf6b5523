"""Counts typed at the cash desk (an amount of money is read by the one parser:
``floor.forms.amount_value``); gaming days and shifts are ``floor.gaming`` (re-exported here
for the cash desk's modules)."""

from decimal import Decimal

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from floor import parsing
from floor.forms import count_value
from floor.gaming import day_window, gaming_day_of, shift_hours, shift_of  # noqa: F401

CENT = Decimal("0.01")

# No count of chips or notes comes near a million: beyond it, input is a typing error,
# refused before any arithmetic. Amounts are bounded by the one parser (floor.parsing) and,
# for what changes hands, by ``settings.CASH_AMOUNT_MAX`` (cashdesk.services).
MAX_COUNT = 1_000_000


def whole_number(value, *, what: str) -> int:
    """A count of notes or chips typed by a person (``floor.parsing.count``: ASCII digits
    only, at most ``MAX_COUNT``; empty is zero), or a ``Refused`` saying why."""
    return count_value(value, high=MAX_COUNT, what=what)


def counts(raw: dict, allowed: list[str], *, what: str) -> tuple[dict[str, int], Decimal]:
    """Counts by denomination (only ``allowed`` denominations, whole non-negative numbers)
    and their total value. Zero counts are dropped; an empty result is refused. A
    denomination is read by the one parser too: ``1e3`` or ``１０００`` names none."""
    allowed_set = {_name(a) for a in allowed}
    allowed_set.discard(None)
    out: dict[str, int] = {}
    total = Decimal(0)
    for key, value in (raw or {}).items():
        if value in ("", None, 0, "0"):
            continue
        number = whole_number(value, what=what)
        name = _name(key)
        if name is None or name not in allowed_set:
            raise ValidationError(
                _("%(denomination)s is not a denomination of the %(what)s here.")
                % {"denomination": parsing.shown(key), "what": what}
            )
        if number:
            out[name] = out.get(name, 0) + number
            total += Decimal(name) * number
    if not out:
        raise ValidationError(_("Enter at least one %(what)s.") % {"what": what})
    return out, total.quantize(CENT)


def _name(denomination) -> str | None:
    """A denomination as the records keep it (``"5000"``, ``"2.5"``), or None."""
    try:
        return parsing.denomination_text(parsing.amount(denomination, positive=True))
    except parsing.Unreadable:
        return None
