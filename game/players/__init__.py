"""Players and rated play (docs/players.md).

A player known to the house carries a player card (``Player``); a player without one is
rated by the seat label the croupier gives him, within one session. A **rating session**
(``RatingSession``) is one player at one table, from "seated" to "left", both a tap on the
table's tablet (the live commands ``player-in`` and ``player-out``, checked by
``game.services.command_submit``: a croupier of that table only).

The figures of a session grow in the transaction that closes each round
(:func:`rated_round_record`, one UPDATE for every rated player of the round, none at a table
where nobody is rated): rounds, boxes played, hands (a split box counts each hand), the total
of the initial stakes (the average bet is that total over the boxes played), the player's
result and the theoretical win (each stake times the house edge of the table's rule set).
A player's stake is each share of a box that carries his card, or — without a card — his
seat label. Cash-ins with his card at that table during the session are read from the cash
desk's records; the chips he takes away are entered when he leaves.

A carded player seated at another table while a session of his is open there has moved:
that session ends ("moved to") and the new one points at it (``continued_from``); the day
and month views sum every session.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Case, DecimalField, F, IntegerField, Q, Sum, Value, When
from django.utils import timezone

from cashdesk.gaming import gaming_day_of
from cashdesk.models import CashIn
from floor import parsing
from floor.changes import table_changed
from floor.errors import Refused
from floor.parsing import whole_number
from game.models import LiveTable, Player, RatingSession

CARD_MAX_LENGTH = parsing.PLAYER_CARD_MAX
THEO = Decimal("0.0001")

# -- writes (called by game.services.command_submit, inside the command's transaction) ---


def rating_session_open(*, live_row: LiveTable, actor, seat, card="") -> RatingSession:
    """Seat a player at the table of ``live_row`` (locked by the caller): a session under
    the seat label ``seat`` and, for a known player, his ``card``. Refused: no seat label
    (``seat_required``), a card the house does not know (``unknown_player_card``), a seat
    label or a player already seated here (``seat_taken``, ``player_seated``). A player
    seated at another table has moved: that session ends and this one continues it."""
    table = live_row.table
    try:  # the one parser (game.services read them already: this is a type check)
        seat, card = parsing.seat_label(seat), parsing.player_card(card)
    except parsing.Unreadable as error:
        raise Refused(error.code, **error.params) from None
    player = None
    if card:
        player = Player.objects.filter(card=card).first()
        if player is None:
            raise Refused("unknown_player_card", card=card)
    open_here = RatingSession.objects.filter(table=table, ended_at__isnull=True)
    if open_here.filter(seat=seat).exists():
        raise Refused("seat_taken", seat=seat)
    now = timezone.now()
    previous = None
    if player is not None:
        previous = RatingSession.objects.filter(player=player, ended_at__isnull=True).first()
        if previous is not None and previous.table_id == table.pk:
            raise Refused("player_seated", card=card, seat=previous.seat)
        if previous is not None:  # he moved: his session there ends now
            previous.ended_at, previous.ended_by, previous.moved_to = now, actor, table
            previous.save(update_fields=["ended_at", "ended_by", "moved_to"])
            LiveTable.objects.filter(pk=previous.table_id, seated__gt=0).update(
                seated=F("seated") - 1
            )
            table_changed(previous.table_id, board=True)
    session = RatingSession.objects.create(
        table=table,
        player=player,
        card=card,
        seat=seat,
        gaming_day=gaming_day_of(now),
        started_at=now,
        started_by=actor,
        continued_from=previous,
    )
    live_row.seated += 1
    live_row.save(update_fields=["seated"])
    return session


def rating_session_close(*, live_row: LiveTable, actor, session, chips_taken="") -> RatingSession:
    """The player left the table of ``live_row``: his session ends now, with the chips he
    took away (optional). Refused: no such session at this table (``no_such_session``), a
    session already closed (``session_closed``), chips that are not an amount (the codes
    of ``floor.parsing.amount``)."""
    number = whole_number(session, low=1)
    row = RatingSession.objects.filter(pk=number, table=live_row.table).first() if number else None
    if row is None:
        raise Refused("no_such_session")
    if row.ended_at is not None:
        raise Refused("session_closed", seat=row.seat)
    chips = None
    if chips_taken not in (None, ""):
        try:
            chips = parsing.amount(chips_taken)
        except parsing.Unreadable as error:
            raise Refused(error.code, **error.params) from None
    row.ended_at, row.ended_by, row.chips_taken = timezone.now(), actor, chips
    row.save(update_fields=["ended_at", "ended_by", "chips_taken"])
    live_row.seated = max(live_row.seated - 1, 0)
    live_row.save(update_fields=["seated"])
    return row


@dataclass
class _Delta:
    stakes: int = 0
    hands: int = 0
    boxes: int = 0
    total_bet: Decimal = Decimal(0)
    net: Decimal = Decimal(0)


def round_deltas(state, edge: Decimal) -> dict[tuple[str, str], dict]:
    """What a closed round adds to each rated key — ``("card", card)`` for a share with a
    player card, ``("seat", label)`` for one without — computed from the round's state
    (``game.table.live.TableRound``): pure, no query."""
    payouts = state.share_payouts()
    hands = {box.number: len(box.hands) for box in state.engine.seats}
    out: dict[tuple[str, str], _Delta] = {}
    for number, shares in payouts.items():
        for share in shares:
            card = share["player_card"]
            key = ("card", card) if card else ("seat", share["seat"])
            d = out.setdefault(key, _Delta())
            d.stakes += 1
            d.hands += hands.get(number, 1)
            d.boxes |= 1 << number
            d.total_bet += share["stake"]
            d.net += share["net"]
    return {
        key: {
            "stakes": d.stakes,
            "hands": d.hands,
            "boxes": d.boxes,
            "total_bet": d.total_bet,
            "players_net": d.net,
            "theoretical_win": (d.total_bet * edge).quantize(THEO),
        }
        for key, d in out.items()
    }


def rated_round_record(*, live_row: LiveTable, state, edge: Decimal | None) -> int:
    """Add a closed round to the open sessions of its table: one UPDATE for all of them
    (none when nobody at the table is rated). Returns the sessions updated."""
    if live_row.seated <= 0:
        return 0
    deltas = round_deltas(state, edge or Decimal(0))
    if not deltas:
        return 0
    cards = {k[1]: v for k, v in deltas.items() if k[0] == "card"}
    seats = {k[1]: v for k, v in deltas.items() if k[0] == "seat"}

    def added(field: str, output):
        """The field's delta for a session: its card's part plus its seat label's part."""
        parts = []
        for column, by in (("card", cards), ("seat", seats)):
            if by:
                parts.append(
                    Case(
                        *[
                            When(**{column: key}, then=Value(v[field], output_field=output))
                            for key, v in by.items()
                        ],
                        default=Value(0, output_field=output),
                        output_field=output,
                    )
                )
        total = parts[0]
        for part in parts[1:]:
            total = total + part
        return total

    money = DecimalField(max_digits=18, decimal_places=4)
    number = IntegerField()
    boxes = F("boxes")
    for column, by in (("card", cards), ("seat", seats)):
        if by:
            boxes = boxes.bitor(
                Case(
                    *[When(**{column: k}, then=Value(v["boxes"])) for k, v in by.items()],
                    default=Value(0),
                    output_field=number,
                )
            )
    return RatingSession.objects.filter(
        Q(card__in=list(cards)) | Q(seat__in=list(seats)),
        table_id=live_row.pk,
        ended_at__isnull=True,
    ).update(
        rounds=F("rounds") + 1,
        stakes=F("stakes") + added("stakes", number),
        hands=F("hands") + added("hands", number),
        boxes=boxes,
        total_bet=F("total_bet") + added("total_bet", money),
        players_net=F("players_net") + added("players_net", money),
        theoretical_win=F("theoretical_win") + added("theoretical_win", money),
    )


# -- reads ---------------------------------------------------------------------------------


def seated_players(*, table_id: int) -> list[dict]:
    """The open sessions of a table, for its screens and the inspector's tile (one query)."""
    rows = RatingSession.objects.filter(table_id=table_id, ended_at__isnull=True)
    return _players_view(rows)


def rated_during(*, table_id: int, opened_at, closed_at) -> list[dict]:
    """The sessions of a table that were open at some moment of a round (its replay shows
    who was rated then; one query)."""
    rows = RatingSession.objects.filter(table_id=table_id, started_at__lte=closed_at).filter(
        Q(ended_at__isnull=True) | Q(ended_at__gte=opened_at)
    )
    return _players_view(rows)


def _players_view(rows) -> list[dict]:
    rows = rows.select_related("player").order_by("started_at", "pk")
    return [
        {
            "id": s.pk,
            "seat": s.seat,
            "card": s.card,
            "name": s.player.name if s.player else "",
            "since_iso": s.started_at.isoformat(),
            "started_at": s.started_at,
            "rounds": s.rounds,
            "hands": s.hands,
            "average_bet": average_bet(s.total_bet, s.stakes),
            "house_result": -s.players_net,
            "moved": s.continued_from_id is not None,
        }
        for s in rows
    ]


def average_bet(total: Decimal, stakes: int) -> Decimal | None:
    return (total / stakes).quantize(Decimal("0.01")) if stakes else None


def player_by_card(card) -> Player | None:
    card = str(card or "").strip()[:CARD_MAX_LENGTH]
    return Player.objects.filter(card=card).first() if card else None


def sessions_summary(sessions, *, now=None) -> dict:
    """The totals of some sessions (each with ``cash_ins`` set, see :func:`player_sessions`):
    time played, rounds, boxes played, hands, total and average bet, theoretical win, the
    house's actual result, cash-ins and chips taken."""
    now = now or timezone.now()
    out = {
        "sessions": 0,
        "seconds": 0,
        "rounds": 0,
        "stakes": 0,
        "hands": 0,
        "total_bet": Decimal(0),
        "theoretical_win": Decimal(0),
        "house_result": Decimal(0),
        "cash_ins": Decimal(0),
        "chips_taken": Decimal(0),
    }
    for s in sessions:
        out["sessions"] += 1
        out["seconds"] += int(((s.ended_at or now) - s.started_at).total_seconds())
        out["rounds"] += s.rounds
        out["stakes"] += s.stakes
        out["hands"] += s.hands
        out["total_bet"] += s.total_bet
        out["theoretical_win"] += s.theoretical_win
        out["house_result"] -= s.players_net
        out["cash_ins"] += s.cash_ins
        out["chips_taken"] += s.chips_taken or 0
    out["average_bet"] = average_bet(out["total_bet"], out["stakes"])
    out["theoretical_win"] = out["theoretical_win"].quantize(Decimal("0.01"))
    out["minutes"] = out["seconds"] // 60
    return out


def player_sessions(*, player: Player, since: dt.date, now=None) -> list[RatingSession]:
    """The player's sessions from the gaming day ``since`` on, newest first, each with the
    cash-ins made with his card at that table while he sat there (``cash_ins``): two
    queries."""
    now = now or timezone.now()
    sessions = list(
        RatingSession.objects.filter(player=player, gaming_day__gte=since)
        .select_related("table", "moved_to")
        .order_by("-started_at", "-pk")
    )
    if not sessions:
        return sessions
    start = min(s.started_at for s in sessions)
    cash = list(
        CashIn.objects.filter(player_card=player.card, entered_at__gte=start).values_list(
            "table_id", "entered_at", "amount"
        )
    )
    for s in sessions:
        end = s.ended_at or now
        s.cash_ins = sum(
            (a for t, at, a in cash if t == s.table_id and s.started_at <= at <= end),
            Decimal(0),
        )
        s.minutes = int(((s.ended_at or now) - s.started_at).total_seconds()) // 60
        s.average_bet = average_bet(s.total_bet, s.stakes)
        s.house_result = -s.players_net
    return sessions


def player_page(*, player: Player, now=None) -> dict:
    """A player's page: today (the gaming day), this month, and this month per table."""
    now = now or timezone.now()
    today = gaming_day_of(now)
    month_start = today.replace(day=1)
    sessions = player_sessions(player=player, since=month_start, now=now)
    todays = [s for s in sessions if s.gaming_day == today]
    tables: dict[int, list] = {}
    for s in sessions:
        tables.setdefault(s.table_id, []).append(s)
    per_table = sorted(
        ({"table": rows[0].table, **sessions_summary(rows, now=now)} for rows in tables.values()),
        key=lambda row: str(row["table"]),
    )
    return {
        "player": player,
        "today": today,
        "month_start": month_start,
        "day": sessions_summary(todays, now=now),
        "month": sessions_summary(sessions, now=now),
        "per_table": per_table,
        "sessions": todays,
        "open": next((s for s in sessions if s.ended_at is None), None),
    }


def players_today(*, now=None) -> list[dict]:
    """Every carded player rated this gaming day, with the day's total bet and whether he
    is seated now (one query)."""
    today = gaming_day_of(now or timezone.now())
    rows = (
        RatingSession.objects.filter(gaming_day=today, player__isnull=False)
        .values("player__card", "player__name")
        .annotate(
            total_bet=Sum("total_bet"),
            open=Sum(Case(When(ended_at__isnull=True, then=1), default=0)),
        )
        .order_by("player__card")
    )
    return [
        {
            "card": r["player__card"],
            "name": r["player__name"],
            "total_bet": r["total_bet"],
            "seated": bool(r["open"]),
        }
        for r in rows
    ]
