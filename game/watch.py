"""The floor watch: alerts that no command raises, found by looking at the floor every few
seconds (``manage.py run_floor_watch``).

* ``table_idle`` — an open table with no command for ``TABLE_IDLE_MINUTES``;
* ``croupier_rotation`` — a croupier on one table longer than ``ROTATION_MINUTES``;
* ``result_deviation`` — the table's result this shift more than ``DEVIATION_SIGMAS``
  standard deviations from its theoretical result (after ``DEVIATION_MIN_ROUNDS`` rounds);
* ``advantage_play`` — a box whose bet follows the true count this shift
  (``game.detection.bet_count_correlation``; docs/detection.md).

Each alert is raised once per occurrence (per idle spell, per assignment, per table and
shift, per box and shift), so a watch that runs every few seconds never repeats itself.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.conf import settings
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from floor.alerts import alert_raise
from floor.gaming import shift_window
from floor.models import Alert
from game import detection
from game.configuration import house_edge
from game.models import Command, Round
from staff.models import TableAssignment
from staff.roles import TableRole
from tables.models import Table, TableChange

CROUPIER_ROLES = (TableRole.DEALING_CROUPIER, TableRole.OBSERVING_CROUPIER)


def _raise(table: Table, kind: str, params: dict, severity: str) -> Alert:
    with transaction.atomic():  # the screens are published once it commits
        return alert_raise(table_id=table.pk, kind=kind, params=params, severity=severity)


def last_activity(table: Table) -> dt.datetime | None:
    """The table's last command, or its opening if no command came since."""
    last_command = Command.objects.filter(table=table).aggregate(m=Max("created_at"))["m"]
    opened = (
        TableChange.objects.filter(table=table, to_status=Table.Status.OPEN)
        .aggregate(m=Max("changed_at"))
        .get("m")
    )
    moments = [m for m in (last_command, opened) if m is not None]
    return max(moments) if moments else None


def check_idle(table: Table, now: dt.datetime) -> Alert | None:
    last = last_activity(table)
    if last is None or now - last < dt.timedelta(minutes=settings.TABLE_IDLE_MINUTES):
        return None
    if Alert.objects.filter(table=table, kind="table_idle", created_at__gte=last).exists():
        return None
    minutes = int((now - last).total_seconds() // 60)
    return _raise(table, "table_idle", {"minutes": minutes}, Alert.Severity.WARNING)


def check_rotation(table: Table, now: dt.datetime) -> list[Alert]:
    limit = dt.timedelta(minutes=settings.ROTATION_MINUTES)
    raised = []
    for assignment in TableAssignment.objects.filter(
        table=table, ends_at__isnull=True, role__in=CROUPIER_ROLES, starts_at__lte=now - limit
    ).select_related("user"):
        if Alert.objects.filter(
            table=table, kind="croupier_rotation", params__assignment=assignment.pk
        ).exists():
            continue
        raised.append(
            _raise(
                table,
                "croupier_rotation",
                {
                    "assignment": assignment.pk,
                    "name": assignment.user.display_name,
                    "minutes": int((now - assignment.starts_at).total_seconds() // 60),
                    "limit": settings.ROTATION_MINUTES,
                },
                Alert.Severity.WARNING,
            )
        )
    return raised


def _shift_rounds(table: Table, start: dt.datetime):
    return Round.objects.filter(
        table=table, status=Round.Status.CLOSED, closed_at__gte=start
    ).order_by("number")


def deviation(table: Table, start: dt.datetime) -> dict:
    """The table's result this shift against its theoretical result (docs/detection.md)."""
    rows = list(_shift_rounds(table, start).values_list("players_net", "total_bet"))
    house_net = -sum((net or Decimal(0) for net, _ in rows), Decimal(0))
    preset = (table.rules or {}).get("preset", "standard")
    figures = detection.result_deviation(
        house_net=house_net,
        bets=[bet for _, bet in rows],
        house_edge=float(house_edge(table.rules) or 0),
        sd_per_hand=detection.SD_PER_HAND.get(preset, detection.SD_PER_HAND_DEFAULT),
    )
    return {"rounds": len(rows), "house_net": house_net, **figures}


def check_deviation(table: Table, now: dt.datetime) -> Alert | None:
    day, shift, start = shift_window(now)
    key = f"{day.isoformat()}/{shift}"
    if Alert.objects.filter(table=table, kind="result_deviation", params__shift=key).exists():
        return None
    d = deviation(table, start)
    if d["rounds"] < settings.DEVIATION_MIN_ROUNDS or d["z"] is None:
        return None
    if abs(d["z"]) < settings.DEVIATION_SIGMAS:
        return None
    return _raise(
        table,
        "result_deviation",
        {
            "shift": key,
            "rounds": d["rounds"],
            "result": str(d["house_net"]),
            "theoretical": f"{d['theoretical']:.2f}",
            "z": f"{d['z']:+.1f}",
        },
        Alert.Severity.CRITICAL,
    )


def box_counts_and_bets(table: Table, start: dt.datetime) -> dict[int, list[tuple[float, float]]]:
    """Per box: (true count before the round, the box's bet) for each closed round of the
    shift. The true count comes from the cards out of the shoe when the round opened."""
    out: dict[int, list[tuple[float, float]]] = {}
    for snapshot in _shift_rounds(table, start).values_list("snapshot", flat=True):
        shoe = (snapshot.get("opening") or {}).get("shoe") or {}
        tc = detection.true_count(shoe.get("out_ranks") or {}, int(shoe.get("decks") or 6))
        for box, bet in ((snapshot.get("engine") or {}).get("bets") or {}).items():
            out.setdefault(int(box), []).append((tc, float(Decimal(bet))))
    return out


def check_advantage_play(table: Table, now: dt.datetime) -> list[Alert]:
    day, shift, start = shift_window(now)
    key = f"{day.isoformat()}/{shift}"
    raised = []
    for box, pairs in sorted(box_counts_and_bets(table, start).items()):
        verdict = detection.bet_count_correlation(
            pairs,
            min_rounds=settings.ADVANTAGE_MIN_ROUNDS,
            threshold=settings.ADVANTAGE_MIN_RHO,
            min_z=settings.ADVANTAGE_MIN_Z,
        )
        if not verdict["flagged"]:
            continue
        if Alert.objects.filter(
            table=table, kind="advantage_play", params__shift=key, params__box=box
        ).exists():
            continue
        raised.append(
            _raise(
                table,
                "advantage_play",
                {
                    "shift": key,
                    "box": box,
                    "rounds": verdict["rounds"],
                    "rho": f"{verdict['rho']:.2f}",
                    "z": f"{verdict['z']:.1f}",
                },
                Alert.Severity.CRITICAL,
            )
        )
    return raised


_seen_rounds: dict[int, int] = {}


def floor_watch(*, now: dt.datetime | None = None, table_id: int | None = None) -> int:
    """One look at every open table; returns the number of alerts raised.

    The statistics of the shift (deviation, advantage play) are recomputed only when the
    table closed a round since the last look (kept per process).
    """
    now = now or timezone.now()
    tables = Table.objects.filter(status=Table.Status.OPEN)
    if table_id is not None:
        tables = tables.filter(pk=table_id)
    raised = 0
    for table in tables:
        raised += check_idle(table, now) is not None
        raised += len(check_rotation(table, now))
        closed = Round.objects.filter(table=table, status=Round.Status.CLOSED).count()
        if _seen_rounds.get(table.pk) != closed or table_id is not None:
            raised += check_deviation(table, now) is not None
            raised += len(check_advantage_play(table, now))
            _seen_rounds[table.pk] = closed
    return raised
