"""The floor watch: alerts that no command raises, found by looking at the floor every few
seconds (``manage.py run_floor_watch``).

* ``table_idle`` — an open table with no command for ``TABLE_IDLE_MINUTES``;
* ``croupier_rotation`` — a croupier on one table longer than the table's rotation plan
  (``ROTATION_MINUTES`` where it has none);
* ``result_deviation`` — the table's result this shift, checked after every round, reached
  ``DEVIATION_SIGMAS`` standard deviations from its theoretical result (from
  ``DEVIATION_MIN_ROUNDS`` rounds on; ``game.detection.ShiftDeviation``);
* ``advantage_play`` — a player (by player card, or seat label at the table) whose bets follow
  the true count this shift (``game.detection.PlayerEvidence``; docs/detection.md).

Each alert is raised once per occurrence (per idle spell, per assignment, per table and
shift, per player and shift), so a watch that runs every few seconds never repeats itself.
"""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from floor.alerts import alert_raise
from floor.gaming import shift_window
from floor.models import Alert
from game import detection
from game.configuration.services import house_edge
from game.detection import records as detection_records
from game.models import Command, Round
from staff.models import TableAssignment
from staff.roles import TableRole
from staff.selectors import rotation_minutes
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
    minutes = rotation_minutes(table_id=table.pk)
    limit = dt.timedelta(minutes=minutes)
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
                    "limit": minutes,
                },
                Alert.Severity.WARNING,
            )
        )
    return raised


def _shift_key(now: dt.datetime) -> tuple[str, dt.datetime]:
    day, shift, start = shift_window(now)
    return f"{day.isoformat()}/{shift}", start


def _edge_and_spread(table: Table) -> tuple[float, float, float]:
    """The table's house edge, one box's standard deviation and the boxes' correlation."""
    preset = (table.rules or {}).get("preset", "standard")
    return (
        float(house_edge(table.rules) or 0),
        detection.SD_PER_HAND.get(preset, detection.SD_PER_HAND_DEFAULT),
        detection.BOX_CORRELATION.get(preset, detection.BOX_CORRELATION_DEFAULT),
    )


def deviation(table: Table, start: dt.datetime) -> detection.ShiftDeviation:
    """The table's result this shift against theory, checked after every round
    (docs/detection.md): ``at_round`` is set if it crossed the threshold at some round."""
    edge, sd, rho = _edge_and_spread(table)
    check = detection.ShiftDeviation(
        house_edge=edge,
        sd_per_hand=sd,
        box_correlation=rho,
        sigmas=settings.DEVIATION_SIGMAS,
        min_rounds=settings.DEVIATION_MIN_ROUNDS,
    )
    for r in detection_records.shift_records(start, table_ids=[table.pk]):
        check.observe(house_net=-r.players_net, box_bets=r.box_bets)
    return check


def check_deviation(table: Table, now: dt.datetime) -> Alert | None:
    key, start = _shift_key(now)
    if Alert.objects.filter(table=table, kind="result_deviation", params__shift=key).exists():
        return None
    d = deviation(table, start)
    if d.at_round is None:
        return None
    at = d.crossing
    return _raise(
        table,
        "result_deviation",
        {
            "shift": key,
            "rounds": at["rounds"],
            "result": str(at["result"]),
            "theoretical": f"{at['theoretical']:.2f}",
            "z": f"{at['z']:+.1f}",
        },
        Alert.Severity.CRITICAL,
    )


def check_advantage_play(table: Table, now: dt.datetime) -> list[Alert]:
    """Each player at the table this shift (by player card across the tables he played, or
    by seat label here) whose bets follow the count: ``game.detection.PlayerEvidence``."""
    key, start = _shift_key(now)
    here = detection_records.shift_records(start, table_ids=[table.pk])
    players = {p: r.labels[p] for r in here for p in r.stakes}
    cards = any(p.startswith("card:") for p in players)
    records = detection_records.shift_records(start) if cards else here
    edge = _edge_and_spread(table)[0]
    raised = []
    for player, label in sorted(players.items()):
        evidence = detection_records.player_evidence(
            records, player, alpha=settings.ADVANTAGE_ALPHA, house_edge=edge
        )
        if not evidence.alarm:
            continue
        seen = Alert.objects.filter(kind="advantage_play", params__shift=key, params__player=player)
        if not player.startswith("card:"):
            seen = seen.filter(table=table)
        if seen.exists():
            continue
        advantage = evidence.advantage or 0.0
        raised.append(
            _raise(
                table,
                "advantage_play",
                {
                    "shift": key,
                    "player": player,
                    "name": label,
                    "rounds": evidence.at_round,
                    "evidence": f"{evidence.log_evidence:.1f}",
                    "edge": f"{advantage:+.2%}",
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
