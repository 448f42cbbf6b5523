"""The reservation worker: ends due reservation tokens on time, with no screen open.

Runs for good (``--once`` for one pass): every ``--interval`` seconds it calls
``tables.services.reservation_expire_due``, which warns the inspector two minutes before a
token ends and ends it at its time, publishing every change to the table's screens.
"""

import time

from django.core.management.base import BaseCommand
from django.db import close_old_connections

from tables.services import reservation_expire_due


class Command(BaseCommand):
    help = "End due box reservations every second (run one of these in production)."

    def add_arguments(self, parser):
        parser.add_argument("--interval", type=float, default=1.0)
        parser.add_argument("--once", action="store_true", help="one pass, then exit")

    def handle(self, *args, interval, once, **options):
        while True:
            try:
                changed = reservation_expire_due()
            except Exception:  # a database hiccup must not stop the worker
                self.stderr.write("reservation expiry failed; retrying")
                changed = 0
            if changed:
                self.stdout.write(f"{changed} reservation(s) warned or expired")
            if once:
                return
            time.sleep(interval)
            close_old_connections()  # a worker that lives for days: drop stale connections
