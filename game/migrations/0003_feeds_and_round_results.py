"""The live rows and feeds of existing tables, and the round results the reports read,
written from now on by the round's own closing command (before: copied when a report was
opened): every closed round gets its result once, with the theoretical win of its rules."""

import datetime as dt
import json
from decimal import Decimal

from django.conf import settings
from django.db import migrations
from django.utils import timezone


def _gaming_day_and_shift(moment):
    local = timezone.localtime(moment)
    start = settings.GAMING_DAY_START_HOUR
    day = (local - dt.timedelta(hours=start)).date()
    hours = sorted(settings.SHIFT_START_HOURS, key=lambda h: (h - start) % 24)
    offset = (local.hour - start) % 24
    shift = 1
    for i, hour in enumerate(hours):
        if (hour - start) % 24 <= offset:
            shift = i + 1
    return day, shift


def forward(apps, schema_editor):
    from game.engine import Rules
    from game.engine.strategy import theoretical_edge

    Table = apps.get_model("tables", "Table")
    LiveTable = apps.get_model("game", "LiveTable")
    TableFeed = apps.get_model("floor", "TableFeed")
    Round = apps.get_model("game", "Round")
    RoundResult = apps.get_model("cashdesk", "RoundResult")
    edges = {}

    def edge(rules):
        key = json.dumps(rules or {}, sort_keys=True)
        if key not in edges:
            try:
                value = theoretical_edge(Rules.from_json(rules or "standard"))
                edges[key] = Decimal(repr(round(value, 6)))
            except Exception:  # noqa: BLE001 - a rule set the engine refuses: no theory
                edges[key] = Decimal(0)
        return edges[key]

    for table in Table.objects.all():
        LiveTable.objects.get_or_create(table_id=table.pk)
        feed, _ = TableFeed.objects.get_or_create(table_id=table.pk)
        live = LiveTable.objects.get(table_id=table.pk)
        if live.current_round_id:
            current = Round.objects.get(pk=live.current_round_id)
            feed.round_open = current.status not in ("closed", "voided")
            feed.round_number = current.number
            feed.save(update_fields=["round_open", "round_number"])
        rules = table.rules
        copied = set(RoundResult.objects.filter(table_id=table.pk).values_list("round_id", flat=True))
        for result in RoundResult.objects.filter(table_id=table.pk, theoretical_win=0):
            result.theoretical_win = (result.total_bet * edge(rules)).quantize(Decimal("0.01"))
            result.save(update_fields=["theoretical_win"])
        new = []
        for r in Round.objects.filter(table_id=table.pk, status="closed", closed_at__isnull=False):
            if r.pk in copied:
                continue
            seats = (r.snapshot or {}).get("engine", {}).get("seats", [])
            day, shift = _gaming_day_and_shift(r.closed_at)
            new.append(
                RoundResult(
                    round_id=r.pk,
                    table_id=table.pk,
                    gaming_day=day,
                    shift=shift,
                    closed_at=r.closed_at,
                    hands=sum(1 for s in seats if Decimal(s.get("bet") or 0) > 0),
                    total_bet=r.total_bet or 0,
                    players_net=r.players_net or 0,
                    theoretical_win=((r.total_bet or 0) * edge(rules)).quantize(Decimal("0.01")),
                )
            )
        RoundResult.objects.bulk_create(new, batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [
        ("game", "0002_round_events_count"),
        ("floor", "0001_initial"),
        ("cashdesk", "0002_roundresult_theoretical_win"),
    ]

    operations = [migrations.RunPython(forward, migrations.RunPython.noop)]
