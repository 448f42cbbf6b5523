"""Read paths of the live table.

``table_snapshot`` is what every screen of a table needs, in one query when nothing but the
round changed: the table, its live row, its board version, its topic's sequence, its shoe
and its round; the rest — the board: staff, notes, alerts, reservations, the shift's money —
is read again only when the table's board version moved (``floor.changes``), and kept per
process.
"""

from __future__ import annotations

import threading
from typing import NamedTuple

from django.db.models import Count, Exists, OuterRef, Q, Subquery, Sum
from django.db.models.functions import Coalesce, Now
from django.utils import timezone

from cashdesk.models import RoundResult
from cashdesk.selectors import table_shift_totals
from feed.models import Topic
from floor.changes import table_topic
from floor.gaming import shift_window
from floor.models import Alert, TableFeed
from game.configuration.services import table_rules
from game.models import ErrorFlag, LiveTable, Round
from game.players import seated_players
from game.table.live import TableRound
from game.table.snapshot import TableSnapshot
from staff.models import TableAssignment
from staff.roles import TableRole
from tables.models import Table
from tables.selectors import active_reservations

ATTENTION_SEVERITIES = (Alert.Severity.WARNING, Alert.Severity.CRITICAL)
_boards: dict[int, tuple[tuple, dict]] = {}
_boards_lock = threading.Lock()


def table_snapshot(table_id: int) -> TableSnapshot | None:
    """The table's screens' state; ``None`` when there is no such table."""
    seq = Topic.objects.filter(pk=table_topic(table_id)).values("seq")[:1]
    live_row = (
        LiveTable.objects.select_related("table", "table__feed", "current_round", "current_shoe")
        .annotate(topic_seq=Subquery(seq))
        .filter(pk=table_id)
        .first()
    )
    if live_row is None:
        table = Table.objects.filter(pk=table_id).first()
        if table is None:
            return None
        LiveTable.objects.get_or_create(table=table)
        TableFeed.objects.get_or_create(table=table)
        return table_snapshot(table_id)
    table = live_row.table
    feed = getattr(table, "feed", None)
    if feed is None:
        TableFeed.objects.get_or_create(table=table)
        return table_snapshot(table_id)
    return TableSnapshot(
        table=table,
        rules=table_rules(table),
        version=live_row.version,
        seq=live_row.topic_seq or 0,
        shoe=live_row.current_shoe,
        round=live_row.current_round,
        board=table_board(table, feed=feed, seated=live_row.seated),
    )


def snapshot_of(live_row: LiveTable, seq: int, feed: tuple[int, int]) -> TableSnapshot:
    """The table's screens' state from its live row as a command transaction left it (the
    table, round and shoe it loaded and changed), the topic's sequence it moved to and the
    board's ``(board, epoch)``: no query for the round; the board as :func:`table_board`."""
    board, epoch = feed
    table = live_row.table
    return TableSnapshot(
        table=table,
        rules=table_rules(table),
        version=live_row.version,
        seq=seq,
        shoe=live_row.current_shoe,
        round=live_row.current_round,
        board=table_board(table, feed=_Feed(board=board, epoch=epoch), seated=live_row.seated),
    )


class _Feed(NamedTuple):
    board: int
    epoch: int


def table_board(table, *, feed: TableFeed, now=None, seated=None) -> dict:
    """Everything a table's screens show besides the round, cached per process by the
    table's board version (and the shift: the shift's money starts again at zero).
    ``seated``: the table's open rating sessions as its live row counts them (0: the
    players panel needs no query; None: read them)."""
    day, shift, start = shift_window(now or timezone.now())
    key = (feed.epoch, feed.board, day, shift)
    cached = _boards.get(table.pk)
    if cached is not None and cached[0] == key:
        return cached[1]
    board = _board_read(table, day=day, shift=shift, start=start)
    board["players"] = seated_players(table_id=table.pk) if seated is None or seated else []
    taken = {p["seat"] for p in board["players"]}
    board["next_seat"] = next((str(n) for n in table.box_numbers if str(n) not in taken), "")
    with _boards_lock:
        _boards[table.pk] = (key, board)
    return board


def _board_read(table, *, day, shift, start) -> dict:
    assignments = list(
        TableAssignment.objects.filter(table=table, ends_at__isnull=True)
        .select_related("user")
        .order_by("role")
    )
    # The observer's notes to the dealer now at the table: a note to the croupier he
    # replaced is not his (the inspector keeps it as an alert until acknowledged).
    flags = ErrorFlag.objects.filter(table=table, seen_at__isnull=True)
    dealer = next((a for a in assignments if a.role == TableRole.DEALING_CROUPIER), None)
    if dealer is not None:
        flags = flags.filter(created_at__gte=dealer.starts_at)
    flags = list(flags.select_related("raised_by")[:5])
    alerts = list(
        Alert.objects.filter(table=table, acknowledged_at__isnull=True).order_by("-created_at")
    )
    severities = {a.severity for a in alerts}
    reservations = [
        {
            "box": r.box,
            "seat": r.seat,
            "expires_at": r.expires_at,
            "expires_iso": r.expires_at.isoformat(),
            "placed_by": r.placed_by,
            "renewal_note": r.renewal_note,
        }
        for r in active_reservations(table=table)
    ]
    results = RoundResult.objects.filter(table=table)
    last = results.order_by("-closed_at", "-pk").values("round__number", "players_net").first()
    shift_rounds = results.filter(gaming_day=day, shift=shift).aggregate(
        n=Count("pk"), net=Sum("players_net")
    )
    return {
        "staff": {a.role: a.user for a in assignments},
        "flags": flags,
        "alerts": alerts[:5],
        "reservations": reservations,
        "last_settlement": None
        if last is None
        else {"number": last["round__number"], "house_net": -last["players_net"]},
        "dashboard": {
            "shift": shift,
            **table_shift_totals(table=table, gaming_day=day, shift=shift),
            "shift_rounds": shift_rounds["n"],
            "shift_result": -(shift_rounds["net"] or 0),
            "staff": [
                {"role": a.role, "name": a.user.display_name, "since_iso": a.starts_at.isoformat()}
                for a in assignments
            ],
            "open_alerts": len(alerts),
            "critical": Alert.Severity.CRITICAL in severities,
            "attention": bool(severities & set(ATTENTION_SEVERITIES)),
        },
    }


def boards_forget() -> None:
    """Drop the cached boards (tests that rewrite the database under a running process)."""
    with _boards_lock:
        _boards.clear()


def round_events(round_row: Round):
    return round_row.events.select_related("actor").order_by("seq")


def round_replay(round_row: Round) -> TableRound:
    """Rebuild a round from its event log alone (the opening event, then each command)."""
    events = list(round_events(round_row))
    opening = events[0].payload["opening"]
    return TableRound.replay(opening, [event.payload["command"] for event in events[1:]])


def round_replay_steps(round_row: Round):
    """Each event of the round with a function giving the state after it (a ``TableRound``,
    computed only when asked, by one pass over the log: O(events) for the whole replay)."""
    events = list(round_events(round_row))
    return events, _StateAfter(events)


class _StateAfter:
    """The round's state after event ``i``, replaying forward from the nearest state already
    computed (an earlier step asked later replays from the opening)."""

    def __init__(self, events):
        self.events = events
        self.state = None
        self.at = -1

    def __call__(self, index: int) -> TableRound:
        if self.state is None or index < self.at:
            self.state, self.at = TableRound(self.events[0].payload["opening"]), 0
        while self.at < index:
            self.at += 1
            self.state.apply(self.events[self.at].payload["command"])
        return TableRound.from_dict(self.state.to_dict())  # a copy: the caller may keep it


def rounds_search(
    *,
    tables,
    table_id: int | None = None,
    opened_from=None,
    opened_to=None,
    min_total_bet=None,
    min_result=None,
    box: int | None = None,
    with_alert: bool = False,
):
    """Past and current rounds of ``tables`` (a queryset or list), newest first, filtered.

    ``min_result``: the round's result for either side at least this much (the players'
    net, won or lost). ``box``: a stake was on that box. ``with_alert``: an alert of the
    table was raised while the round was open (from its opening to its close, or now).
    """
    rows = Round.objects.filter(table__in=tables).select_related("table", "opened_by")
    if table_id is not None:
        rows = rows.filter(table_id=table_id)
    if opened_from is not None:
        rows = rows.filter(opened_at__gte=opened_from)
    if opened_to is not None:
        rows = rows.filter(opened_at__lte=opened_to)
    if min_total_bet is not None:
        rows = rows.filter(total_bet__gte=min_total_bet)
    if min_result is not None:
        rows = rows.filter(Q(players_net__gte=min_result) | Q(players_net__lte=-min_result))
    if box is not None:
        rows = rows.filter(snapshot__shares__has_key=str(box))
    if with_alert:
        alerts = Alert.objects.filter(
            table=OuterRef("table"),
            created_at__gte=OuterRef("opened_at"),
            created_at__lte=Coalesce(OuterRef("closed_at"), Now()),
        )
        # A voided round is one with an alert (round_voided is raised right after it
        # closes, so the time window alone would miss it).
        rows = rows.filter(Q(Exists(alerts)) | Q(status=Round.Status.VOIDED))
    return rows.order_by("-opened_at", "-pk")
