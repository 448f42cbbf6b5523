"""The table's chip set and counts of its chip float."""

from decimal import Decimal

from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext as _

from floor import parsing
from floor.errors import Refused
from tables.models import ChipCount, Table

MAX_CHIPS_OF_ONE_KIND = 1_000_000  # no tray holds a million chips: a typing error


def table_validate_chips(*, table: Table) -> None:
    """Denominations are positive amounts in cents (``floor.parsing``); the par float counts
    only those denominations, in whole numbers of chips."""
    denominations = []
    for raw in table.chip_denominations or []:
        try:
            parsing.amount(raw, positive=True)
        except parsing.Unreadable:
            raise ValidationError(
                {
                    "chip_denominations": _("%(value)s is not a chip value.")
                    % {"value": parsing.shown(raw)}
                }
            ) from None
        denominations.append(str(raw))
    for key, count in (table.par_float or {}).items():
        if key not in denominations:
            raise ValidationError(
                {"par_float": _("%(value)s is not in the chip set.") % {"value": key}}
            )
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise ValidationError(
                {"par_float": _("The par float of %(value)s is not a count.") % {"value": key}}
            )


def chip_count_record(
    *,
    table: Table,
    kind: str,
    counts: dict,
    counted_by,
    counted_at=None,
    replaces: ChipCount | None = None,
    note: str = "",
) -> ChipCount:
    """Record a count of the chip float: ``counts`` is {denomination: number of chips}.
    A correction (``replaces``: the count it corrects, with its moment ``counted_at`` and a
    ``note``) is written by ``cashdesk.corrections``, which asks for its second signature."""
    allowed = [str(d) for d in table.chip_denominations or []]
    if not allowed:
        raise Refused("no_chip_set", _("Set the table's chip set before counting its float."))
    extra = set(counts) - set(allowed)
    if extra:
        raise Refused(
            "bad_count", _("%(value)s is not in the chip set.") % {"value": sorted(extra)[0]}
        )
    clean = {}
    total = Decimal(0)
    for denomination in allowed:
        try:  # the one parser: ASCII digits, bounded before any conversion
            number = parsing.count(counts.get(denomination, 0), high=MAX_CHIPS_OF_ONE_KIND)
            value = parsing.amount(denomination, positive=True)
        except parsing.Unreadable:
            raise Refused(
                "bad_count",
                _("The count of %(value)s chips must be a whole number, zero or more.")
                % {"value": denomination},
            ) from None
        clean[denomination] = number
        total += value * number
    count = ChipCount(
        table=table,
        kind=kind,
        counts=clean,
        total=total.quantize(Decimal("0.01")),
        counted_by=counted_by,
        counted_at=counted_at or timezone.now(),
        replaces=replaces,
        note=note,
        corrected_at=timezone.now() if replaces is not None else None,
    )
    count.full_clean()
    count.save()
    return count
