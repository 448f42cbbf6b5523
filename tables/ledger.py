"""What ``audit_verify`` re-derives from the tables' chained records (floor/ledger.py): a chip
count's total is the sum of its chips by denomination."""

from decimal import Decimal, InvalidOperation

from django.utils.translation import gettext as _

from floor.gaming import day_window
from floor.ledger import Broken, figure_check
from tables.models import ChipCount


def _sum(counts) -> Decimal | None:
    try:
        return sum((Decimal(d) * int(n) for d, n in (counts or {}).items()), Decimal(0))
    except (InvalidOperation, TypeError, ValueError):
        return None


@figure_check
def chip_count_totals(day):
    counts = ChipCount.objects.all()
    if day is not None:
        start, end = day_window(day)
        counts = counts.filter(counted_at__gte=start, counted_at__lt=end)
    for pk, chain, seq, chips, total in counts.values_list(
        "pk", "audit_chain", "audit_seq", "counts", "total"
    ).iterator():
        if _sum(chips) != total:
            yield Broken(
                chain or "—",
                seq or 0,
                f"tables.chipcount #{pk}",
                _("the count's total is not the sum of its chips"),
            )
