"""Render cost of one table message, per kind of screen watching:

    DEBUG=1 python manage.py bench_render [--repeat 300] [--trials 5]

A table's push is rendered once per (kind of screen, language) some screen watches
(``game.screens.publish.table_message``). This measures the CPU one message costs for the
dealer's tablet alone and for the dealer's, the observer's and the inspector's screens (plus
the tile), with the part every kind shares rendered once (``{% shared %}``, as the publisher
does) and with every kind rendered whole — side by side, in one process. The state rendered is
a round mid-play at the demo floor's BJ-1 (four boxes, one hand split-free, the dealer's ace).

It works in a throwaway database (SQLite: in memory; PostgreSQL: ``<name>_bench_render``),
made, seeded with the demo floor and dropped — never in yours. Prints a table; ``--json``
prints one JSON object instead.
"""

from __future__ import annotations

import io
import json
import statistics
import time
import uuid
from contextlib import nullcontext

from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import connection

from game.models import LiveTable
from game.screens.publish import render_fragment, table_view
from game.services import command_submit
from game.templatetags.live import shared_parts
from staff.models import TableAssignment
from staff.roles import TableRole
from tables.models import Table

SETS = {
    "dealer": ["live"],
    "crew": ["live", "live-observer", "live-inspector"],
    "crew+tile": ["live", "live-observer", "live-inspector", "tile"],
}
ROUND = [
    ("shuffle", {"reason": "new_shoe", "cards_behind_cut": 80}),
    ("open-round", {}),
    ("bet", {"box": 1, "seat": "P1", "stake": "100"}),
    ("bet", {"box": 2, "seat": "P2", "stake": "200"}),
    ("bet", {"box": 4, "seat": "P4", "stake": "500"}),
    ("bet", {"box": 6, "seat": "P6", "stake": "100"}),
    (
        "close-bets",
        {"lone_player": "shared", "newcomer_consent": "agreed", "limits_announced": "told"},
    ),
    *[("card", {"card": card}) for card in ("8s", "5h", "9d", "Tc", "Ad", "8c", "6h", "Kd", "7c")],
]


class Command(BaseCommand):
    help = "The CPU one table message costs to render, per kind of screen (own database)."

    def add_arguments(self, parser):
        parser.add_argument("--repeat", type=int, default=300, help="messages per trial")
        parser.add_argument("--trials", type=int, default=5, help="trials per variant")
        parser.add_argument("--json", action="store_true", help="print one JSON object")

    def handle(self, *args, **options):
        old_name = connection.settings_dict["NAME"]
        if connection.vendor != "sqlite":  # never the test database a test run may be using
            connection.settings_dict["TEST"]["NAME"] = f"{old_name}_bench_render"
        connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
        try:
            figures = self._measure(options["repeat"], options["trials"])
        finally:
            connection.creation.destroy_test_db(old_name, verbosity=0)
        if options["json"]:
            self.stdout.write(json.dumps(figures))
            return
        self.stdout.write(f"{'screens':<12}{'shared once':>14}{'each whole':>14}{'ratio':>8}")
        for name, row in figures.items():
            self.stdout.write(
                f"{name:<12}{row['shared_ms']:>11.3f} ms{row['whole_ms']:>11.3f} ms"
                f"{row['shared_ms'] / row['whole_ms']:>8.3f}"
            )
        self.stdout.write("CPU per message, median of the trials (time.process_time)")

    def _measure(self, repeat: int, trials: int) -> dict:
        call_command("seed_demo", stdout=io.StringIO())
        table = Table.objects.get(name="BJ-1")
        dealer = TableAssignment.objects.get(
            table=table, role=TableRole.DEALING_CROUPIER, ends_at__isnull=True
        ).user
        for action, fields in ROUND:
            version = LiveTable.objects.filter(pk=table.pk).values_list("version", flat=True)
            command = {"id": str(uuid.uuid4()), "action": action, **fields}
            command["expected_version"] = version.first() or 0
            outcome = command_submit(table_id=table.pk, actor=dealer, command=command)
            if not outcome.ok:
                raise RuntimeError(f"{action}: {outcome.code} {outcome.message}")
        view = table_view(table.pk)
        figures = {}
        for name, kinds in SETS.items():
            times = {"shared_ms": [], "whole_ms": []}
            for _ in range(trials):  # interleaved: the two variants see the same machine
                for variant, context in (("shared_ms", shared_parts), ("whole_ms", nullcontext)):
                    times[variant].append(_per_message(view, kinds, repeat, context))
            figures[name] = {variant: statistics.median(t) for variant, t in times.items()}
        return figures


def _per_message(view: dict, kinds: list[str], repeat: int, context) -> float:
    """Milliseconds of CPU per message: every kind rendered in English and Russian."""
    with context():  # warm the box cache and the templates
        for kind in kinds:
            render_fragment(view, kind, "en")
    start = time.process_time()
    for _ in range(repeat):
        with context():
            for language in ("en", "ru"):
                for kind in kinds:
                    render_fragment(view, kind, language)
    return (time.process_time() - start) / repeat * 1000
