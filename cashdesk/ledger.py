"""What ``audit_verify`` checks of the cash desk beyond its chains (floor/ledger.py): every
standing close of a gaming day carries its seal, and the seal still holds."""

from django.utils.translation import gettext as _

from cashdesk.models import GamingDayClose
from floor.ledger import Broken, figure_check, seal_breaks


@figure_check
def day_seals(day):
    closes = GamingDayClose.objects.filter(reopened_at__isnull=True)
    if day is not None:
        closes = closes.filter(gaming_day=day)
    for close in closes.order_by("gaming_day"):
        if not close.seal:
            yield Broken(
                f"seal:{close.gaming_day.isoformat()}",
                0,
                f"cashdesk.gamingdayclose #{close.pk}",
                _("a closed gaming day without its seal"),
            )
            continue
        yield from seal_breaks(close.gaming_day, close.sealed_heads, close.seal_key, close.seal)
