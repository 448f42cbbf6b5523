"""Check the tamper-evident record: ``manage.py audit_verify [--day YYYY-MM-DD]``.

Walks every hash chain (round events, cash-desk records; cashdesk/audit.py), or those of one
gaming day, and prints OK or the first broken link; exits with status 1 when one is broken.
"""

import datetime as dt

from django.core.management.base import BaseCommand, CommandError

from cashdesk.audit import chains_verify


def _day(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise CommandError(f"--day wants a date as YYYY-MM-DD, not {text!r}")


class Command(BaseCommand):
    help = "Verify the hash chains of round events and cash-desk records (exit 1 if broken)."

    def add_arguments(self, parser):
        parser.add_argument("--day", type=_day, help="only the chains of this gaming day")

    def handle(self, *args, day=None, **options):
        result = chains_verify(day=day)
        scope = f"gaming day {day}" if day else "all gaming days"
        if result.broken is not None:
            self.stderr.write(f"BROKEN ({scope}): {result.broken}")
            raise SystemExit(1)
        self.stdout.write(
            self.style.SUCCESS(f"OK ({scope}): {result.chains} chains, {result.links} links.")
        )
