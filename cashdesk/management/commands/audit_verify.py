"""Check the tamper-evident record: ``manage.py audit_verify [--day YYYY-MM-DD [--seal S]]``.

Walks every hash chain and the records around them (floor/ledger.py: rows outside a chain,
missing or unregistered heads, registered chains that are gone, broken links, sealed days
whose sealed links are gone, figures re-derived from chained records), or those of one
gaming day, and prints OK or every break found; exits with status 1 when one is found.
``--seal`` compares a day's seal kept outside the database (printed on the closed day's
report) with the one stored and with the day's chains.
"""

import datetime as dt
import re

from django.core.management.base import BaseCommand, CommandError

from cashdesk.models import GamingDayClose
from floor.ledger import Broken, ledger_verify, seal_breaks


def _day(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise CommandError(f"--day wants a date as YYYY-MM-DD, not {text!r}")


def _seal(text: str) -> str:
    seal = re.sub(r"[\s-]", "", text).lower()
    if not re.fullmatch(r"[0-9a-f]{64}", seal):
        raise CommandError("--seal wants the 64 hexadecimal digits printed on the report")
    return seal


class Command(BaseCommand):
    help = "Verify the record's hash chains, records and day seals (exit 1 if broken)."

    def add_arguments(self, parser):
        parser.add_argument("--day", type=_day, help="only the chains of this gaming day")
        parser.add_argument(
            "--seal", type=_seal, help="the day's seal as printed on its report (with --day)"
        )

    def handle(self, *args, day=None, seal=None, **options):
        if seal and day is None:
            raise CommandError("--seal needs --day")
        result = ledger_verify(day=day)
        breaks = list(result.breaks)
        if seal:
            breaks.extend(self._seal_given(day, seal))
        scope = f"gaming day {day}" if day else "all gaming days"
        if breaks:
            self.stderr.write(f"BROKEN ({scope}): {len(breaks)} break(s)")
            for broken in breaks:
                self.stderr.write(f"  {broken}")
            raise SystemExit(1)
        sealed = " and its seal" if seal else ""
        self.stdout.write(
            self.style.SUCCESS(
                f"OK ({scope}{sealed}): {result.chains} chains, {result.links} links."
            )
        )

    def _seal_given(self, day: dt.date, seal: str) -> list[Broken]:
        close = GamingDayClose.objects.filter(gaming_day=day, reopened_at__isnull=True).first()
        where = f"seal:{day.isoformat()}"
        if close is None or not close.seal:
            return [Broken(where, 0, "seal", "the day has no standing close with a seal")]
        if close.seal != seal:
            return [Broken(where, 0, "seal", "the seal stored is not the one given")]
        return seal_breaks(day, close.sealed_heads, close.seal_key, seal)
