"""The floor watch worker: every few seconds, looks at every open table for the alerts no
command raises (idle table, croupier due for rotation, result deviation, advantage play);
see ``game.detection.watch``. Runs for good (``--once`` for one pass)."""

import time
import traceback

from django.core.management.base import BaseCommand
from django.db import close_old_connections

from game.detection.watch import floor_watch


class Command(BaseCommand):
    help = "Watch the floor for idle tables, rotation, result deviation and advantage play."

    def add_arguments(self, parser):
        parser.add_argument("--interval", type=float, default=5.0)
        parser.add_argument("--once", action="store_true", help="one pass, then exit")

    def handle(self, *args, interval, once, **options):
        while True:
            try:
                raised = floor_watch()
            except Exception:  # a database hiccup must not stop the worker
                self.stderr.write("floor watch failed; retrying\n" + traceback.format_exc())
                raised = 0
            if raised:
                self.stdout.write(f"{raised} alert(s) raised")
            if once:
                return
            time.sleep(interval)
            close_old_connections()
