"""Read paths of the cash desk: live totals, inventories, the win and hold report, the
open exceptions. Aggregates are computed in the database, grouped by table and gaming day;
Python only combines a few thousand grouped rows (docs/cashdesk.md has the formulas)."""

import datetime as dt
import hashlib
import json
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import Count, Max, Min, Prefetch, Q, Sum
from django.db.models.functions import TruncHour
from django.utils import timezone

from cashdesk.gaming import CENT, day_window, gaming_day_of, shift_of
from cashdesk.models import (
    CashIn,
    CashInCorrection,
    DropCount,
    GamingDayClose,
    Resolution,
    RoundResult,
    Slip,
    Tip,
)
from floor.alerts import figure_authors_register
from floor.ledger import content_of
from floor.models import Alert
from floor.parsing import record_id
from tables.models import ChipCount, Table
from tables.selectors import counts_in_force

ZERO = Decimal(0)


def _q(value) -> Decimal:
    """A database sum as money with two decimals (SQLite drops trailing zeros)."""
    return (value or ZERO).quantize(CENT)


def corrected_cash_ins(cash_ins) -> list[dict]:
    """The cash-ins among ``cash_ins`` (a queryset) that have a correction: for each, what
    the sums need — its table, day, shift, hour, destination — and ``delta``, the amount in
    force (its newest confirmed correction) minus the amount entered (0 while none is
    confirmed), and ``pending``: its newest correction awaits a second signature. The
    report's sums add the deltas: a confirmed correction is the figure in force."""
    found: dict[int, dict] = {}
    for c in (
        CashInCorrection.objects.filter(cash_in__in=cash_ins)
        .values(
            "cash_in_id",
            "amount",
            "confirmed_at",
            "cash_in__amount",
            "cash_in__table_id",
            "cash_in__gaming_day",
            "cash_in__shift",
            "cash_in__entered_at",
            "cash_in__destination",
        )
        .order_by("pk")
    ):
        row = found.setdefault(
            c["cash_in_id"],
            {
                "table_id": c["cash_in__table_id"],
                "gaming_day": c["cash_in__gaming_day"],
                "shift": c["cash_in__shift"],
                "entered_at": c["cash_in__entered_at"],
                "destination": c["cash_in__destination"],
                "delta": ZERO,
            },
        )
        row["pending"] = c["confirmed_at"] is None
        if c["confirmed_at"] is not None:
            row["delta"] = c["amount"] - c["cash_in__amount"]
    return list(found.values())


def live_totals(*, gaming_day: dt.date, table_ids=None) -> list[dict]:
    """Per table: cash-ins registered today (to the cash box, to the pit desk), how many
    await the recount, tips. Tables without any record are listed too (zeros). With
    ``table_ids``, only those tables' rows (the duty screen's per-table push)."""
    tables = Table.objects.select_related("pit").order_by("number")
    cash_ins = CashIn.objects.filter(gaming_day=gaming_day)
    tips = Tip.objects.filter(gaming_day=gaming_day)
    if table_ids is not None:
        table_ids = list(table_ids)
        tables = tables.filter(pk__in=table_ids)
        cash_ins = cash_ins.filter(table_id__in=table_ids)
        tips = tips.filter(table_id__in=table_ids)
    rows = {
        t.pk: {
            "table": t,
            "cash_box": ZERO,
            "pit_cash_desk": ZERO,
            "count": 0,
            "awaiting": 0,
            "mismatch": 0,
            "tips": ZERO,
        }
        for t in tables
    }
    agg = cash_ins.values("table_id").annotate(
        box=Sum("amount", filter=Q(destination=CashIn.Destination.CASH_BOX)),
        pit=Sum("amount", filter=Q(destination=CashIn.Destination.PIT_CASH_DESK)),
        n=Count("pk"),
        awaiting=Count("pk", filter=Q(status=CashIn.Status.AWAITING_RECOUNT)),
        mismatch=Count("pk", filter=Q(status=CashIn.Status.MISMATCH)),
    )
    for a in agg:
        row = rows[a["table_id"]]
        row.update(
            cash_box=_q(a["box"]),
            pit_cash_desk=_q(a["pit"]),
            count=a["n"],
            awaiting=a["awaiting"],
            mismatch=a["mismatch"],
        )
    for a in tips.values("table_id").annotate(s=Sum("amount")):
        rows[a["table_id"]]["tips"] = _q(a["s"])
    for c in corrected_cash_ins(cash_ins):  # a confirmed correction is the amount in force
        rows[c["table_id"]][c["destination"]] += c["delta"]
    out = list(rows.values())
    for row in out:
        row["total"] = row["cash_box"] + row["pit_cash_desk"]
    return out


def expected_tray(*, table: Table, at: dt.datetime, since: ChipCount) -> Decimal:
    """The tray's expected value at ``at`` from the count ``since``: plus fills, minus
    credits, minus chips sold for cash, minus the players' recorded results of the rounds
    closed in between."""
    window = {"table": table}
    slips = Slip.objects.filter(
        **window,
        received_at__gt=since.counted_at,
        received_at__lte=at,
        void_confirmed_at__isnull=True,
    ).aggregate(
        fills=Sum("total", filter=Q(kind=Slip.Kind.FILL)),
        credits=Sum("total", filter=Q(kind=Slip.Kind.CREDIT)),
    )
    fills = slips["fills"] or ZERO
    credits = slips["credits"] or ZERO
    sold = (
        CashIn.objects.filter(
            **window, entered_at__gt=since.counted_at, entered_at__lte=at
        ).aggregate(s=Sum("chips_total"))["s"]
        or ZERO
    )
    players = (
        RoundResult.objects.filter(
            **window, closed_at__gt=since.counted_at, closed_at__lte=at
        ).aggregate(s=Sum("players_net"))["s"]
        or ZERO
    )
    return since.total + fills - credits - sold - players


def inventory_checks(*, table: Table, gaming_day: dt.date) -> list[dict]:
    """Every chip count of the table in the gaming day, as it is in force, beside the
    expected tray value (from the previous count of the day, or the opener); ``pending``:
    its newest correction awaiting a second signature, or None."""
    start, end = day_window(gaming_day)
    chains = counts_in_force(
        ChipCount.objects.filter(table=table, counted_at__gte=start, counted_at__lt=end)
        .select_related("counted_by", "confirmed_by")
        .order_by("counted_at", "pk")
    )
    out = []
    previous = None
    for origin, (newest, c) in sorted(chains.items(), key=lambda i: (i[1][1].counted_at, i[0])):
        expected = (
            None
            if previous is None
            else expected_tray(table=table, at=c.counted_at, since=previous)
        )
        out.append(
            {
                "count": c,
                "original": origin,
                "pending": newest if newest is not c else None,
                "expected": expected,
                "difference": None if expected is None else c.total - expected,
            }
        )
        previous = c
    return out


@dataclass
class Figures:
    """One line of the cash report (a table, a pit, a shift, a day or a whole period)."""

    label: str = ""
    key: dict = field(default_factory=dict)
    opener: Decimal | None = None
    closer: Decimal | None = None
    fills: Decimal = ZERO
    credits: Decimal = ZERO
    drop: Decimal | None = None
    registered: Decimal = ZERO
    pit_cash: Decimal = ZERO
    tips: Decimal = ZERO
    rounds: int = 0
    hands: int = 0
    hours: int = 0
    total_bet: Decimal = ZERO
    players_net: Decimal = ZERO
    theoretical: Decimal = ZERO
    win: Decimal | None = None
    win_unknown: bool = False  # some part of the line had no computable win
    # Figures of the line with a correction awaiting its second signature (the line shows
    # the figure in force, and says so): "drop", "opener", "closer", "registered".
    pending: set = field(default_factory=set)

    @property
    def drop_difference(self) -> Decimal | None:
        return None if self.drop is None else self.drop - self.registered

    @property
    def hold(self) -> Decimal | None:
        if self.win is None or not self.drop:
            return None
        return (self.win / self.drop * 100).quantize(CENT)

    @property
    def average_bet(self) -> Decimal | None:
        return (self.total_bet / self.hands).quantize(CENT) if self.hands else None

    @property
    def hands_per_hour(self) -> Decimal | None:
        return (Decimal(self.hands) / self.hours).quantize(Decimal("0.1")) if self.hours else None

    @property
    def game_win(self) -> Decimal:
        """The house's result of the settled rounds (minus the players' net)."""
        return -self.players_net

    def add(self, other: "Figures") -> None:
        for name in ("fills", "credits", "registered", "pit_cash", "tips", "total_bet"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for name in ("rounds", "hands", "hours"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.players_net += other.players_net
        self.theoretical += other.theoretical
        self.pending |= other.pending
        incomplete = self.win_unknown or other.win_unknown or other.win is None
        for name in ("opener", "closer", "drop", "win"):
            mine, theirs = getattr(self, name), getattr(other, name)
            if theirs is not None:
                setattr(self, name, (mine or ZERO) + theirs)
        # A line's win (and so its hold) is known only when every table-day in it is known:
        # a partial sum next to the whole drop would understate the hold.
        self.win_unknown = incomplete
        if incomplete:
            self.win = None

    def row(self) -> dict:
        return {
            "label": self.label,
            "opener": self.opener,
            "closer": self.closer,
            "fills": self.fills,
            "credits": self.credits,
            "drop": self.drop,
            "registered": self.registered,
            "drop_difference": self.drop_difference,
            "pit_cash": self.pit_cash,
            "win": self.win,
            "hold": self.hold,
            "rounds": self.rounds,
            "hands": self.hands,
            "hands_per_hour": self.hands_per_hour,
            "average_bet": self.average_bet,
            "theoretical": self.theoretical,
            "game_win": self.game_win,
            "tips": self.tips,
        }


def _add_openers_and_closers(out: dict, first: dt.date, last: dt.date, start, end, day_of) -> None:
    """Each table-day's opener (its first opening count) and closer (its last closing count)
    from the chip counts between ``start`` and ``end``, each on the day ``day_of`` gives it,
    as they are in force (a confirmed correction stands in for the count it corrects; a
    pending one is marked on the line)."""
    rows = (
        ChipCount.objects.filter(counted_at__gte=start, counted_at__lt=end)
        .exclude(kind=ChipCount.Kind.SPOT)
        .only("table_id", "kind", "total", "counted_at", "replaces_id", "confirmed_at")
        .order_by("counted_at", "pk")
    )
    chains = counts_in_force(rows)
    for _origin, (newest, in_force) in sorted(
        chains.items(), key=lambda item: (item[1][1].counted_at, item[0])
    ):
        day = day_of(in_force.counted_at)
        if not first <= day <= last:
            continue
        f = out[in_force.table_id, day]
        if in_force.kind == ChipCount.Kind.OPENER and f.opener is None:
            f.opener = in_force.total
        elif in_force.kind == ChipCount.Kind.CLOSER:
            f.closer = in_force.total
        else:
            continue
        if newest is not in_force:
            f.pending.add(in_force.kind)
        else:
            f.pending.discard(in_force.kind)


def _moments_to_days(first: dt.date, last: dt.date):
    """For records read by their moment (chip counts, slip receipts): the window of moments
    that can belong to ``first``..``last`` and the function giving a moment's gaming day.
    A moment after its gaming day was closed belongs to the next day (as every record made
    then does: ``cashdesk.services._record_day``), so a closed day never changes."""
    start, _ = day_window(first)
    _, end = day_window(last)
    closed_at = dict(
        GamingDayClose.objects.filter(
            gaming_day__gte=first - dt.timedelta(days=1),
            gaming_day__lte=last,
            reopened_at__isnull=True,
        ).values_list("gaming_day", "closed_at")
    )
    before = closed_at.get(first - dt.timedelta(days=1))
    if before is not None:
        start = min(start, before)

    def day_of(moment: dt.datetime) -> dt.date:
        day = gaming_day_of(moment)
        if day in closed_at and moment > closed_at[day]:
            day += dt.timedelta(days=1)
        return day

    return start, end, day_of


def _received_slips(start: dt.datetime, end: dt.datetime):
    """Complete slips (received, not voided) whose receipt is in ``start``..``end``."""
    return (
        Slip.objects.filter(
            received_at__gte=start, received_at__lt=end, void_confirmed_at__isnull=True
        )
        .values("table_id", "kind", "total", "received_at")
        .order_by("received_at", "pk")
    )


def drops_in_force(drops) -> dict[tuple[int, dt.date], tuple[DropCount, DropCount]]:
    """Per (table, gaming day): its newest drop entry and the entry in force — the newest
    that is the first count or a confirmed correction. They differ while a correction
    awaits its second signature. Each entry of a table-day replaces the one before it, so
    the entries in the order they were made are the chain."""
    out: dict[tuple[int, dt.date], tuple[DropCount, DropCount]] = {}
    for d in drops.order_by("pk"):
        key = (d.table_id, d.gaming_day)
        in_force = d if d.in_force else out.get(key, (d, d))[1]
        out[key] = (d, in_force)
    return out


def _add_cash_in_corrections(out: dict, cash_ins) -> None:
    """The cash-ins' confirmed corrections into each table-day's registered cash (to the
    cash box or the pit desk), and a pending one marked on its line."""
    for c in corrected_cash_ins(cash_ins):
        f = out[c["table_id"], c["gaming_day"]]
        box = c["destination"] == CashIn.Destination.CASH_BOX
        if box:
            f.registered += c["delta"]
        else:
            f.pit_cash += c["delta"]
        if c["pending"]:
            f.pending.add("registered" if box else "pit_cash")


def table_day_figures(*, first: dt.date, last: dt.date) -> dict[tuple[int, dt.date], Figures]:
    """Figures per (table, gaming day) for the days ``first``..``last``; win = closer −
    opener + drop + credits − fills when the opener, the closer and the drop are known."""
    start, end, day_of = _moments_to_days(first, last)
    days = {"gaming_day__gte": first, "gaming_day__lte": last}
    out: dict[tuple[int, dt.date], Figures] = defaultdict(Figures)

    for a in (
        CashIn.objects.filter(**days)
        .values("table_id", "gaming_day")
        .annotate(
            box=Sum("amount", filter=Q(destination=CashIn.Destination.CASH_BOX)),
            pit=Sum("amount", filter=Q(destination=CashIn.Destination.PIT_CASH_DESK)),
        )
    ):
        f = out[a["table_id"], a["gaming_day"]]
        f.registered = _q(a["box"])
        f.pit_cash = _q(a["pit"])
    _add_cash_in_corrections(out, CashIn.objects.filter(**days))
    for a in Tip.objects.filter(**days).values("table_id", "gaming_day").annotate(s=Sum("amount")):
        out[a["table_id"], a["gaming_day"]].tips = _q(a["s"])
    # Fills and credits count on the gaming day the chips arrived or left (the receipt's
    # signature), as the tray check counts them: one rule (docs/cashdesk.md).
    for slip in _received_slips(start, end):
        day = day_of(slip["received_at"])
        if first <= day <= last:
            f = out[slip["table_id"], day]
            if slip["kind"] == Slip.Kind.FILL:
                f.fills += slip["total"]
            else:
                f.credits += slip["total"]
    for (table_id, day), (latest, in_force) in drops_in_force(
        DropCount.objects.filter(**days)
    ).items():
        f = out[table_id, day]
        f.drop = in_force.amount
        if latest is not in_force:
            f.pending.add("drop")
    for a in (
        RoundResult.objects.filter(**days)
        .values("table_id", "gaming_day")
        .annotate(
            rounds=Count("pk", filter=Q(voided=False)),
            hands=Sum("hands"),
            bet=Sum("total_bet"),
            net=Sum("players_net"),
            theoretical=Sum("theoretical_win"),
            hours=Count(TruncHour("closed_at"), distinct=True, filter=Q(voided=False)),
        )
    ):
        f = out[a["table_id"], a["gaming_day"]]
        f.rounds, f.hands, f.hours = a["rounds"], a["hands"] or 0, a["hours"]
        f.total_bet, f.players_net = _q(a["bet"]), _q(a["net"])
        f.theoretical = _q(a["theoretical"])
    _add_openers_and_closers(out, first, last, start, end, day_of)

    for f in out.values():
        if f.opener is not None and f.closer is not None and f.drop is not None:
            f.win = f.closer - f.opener + f.drop + f.credits - f.fills
    return dict(out)


def cash_report(*, first: dt.date, last: dt.date, group: str = "table") -> dict:
    """The cash report for the gaming days ``first``..``last`` grouped by ``table``, ``pit``
    or ``day``; each line keeps the filter that drills down to its records."""
    per = table_day_figures(first=first, last=last)
    tables = {t.pk: t for t in Table.objects.select_related("pit")}
    lines: dict = {}
    total = Figures(label="total")
    for (table_id, day), f in sorted(per.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        table = tables[table_id]
        if group == "pit":
            key, label, drill = table.pit_id, table.pit.name, {"pit": table.pit_id}
        elif group == "day":
            key, label, drill = day, day.isoformat(), {"first": day, "last": day}
        else:
            key, label, drill = table_id, str(table), {"table": table_id}
        line = lines.get(key)
        if line is None:
            line = lines[key] = Figures(label=label, key=drill)
        line.add(f)
        total.add(f)
    order = (
        sorted(lines.values(), key=lambda f: f.label) if group == "pit" else list(lines.values())
    )
    if group == "table":
        order.sort(key=lambda f: tables[f.key["table"]].number)
    return {"lines": order, "total": total, "first": first, "last": last, "group": group}


def shift_report(*, gaming_day: dt.date) -> list[dict]:
    """Per shift of a gaming day: cash-ins, tips, completed fills and credits, rounds, hands,
    average bet, the rounds' result and the hold on the registered cash (inventories are
    counted per gaming day, so a shift's win is the settled rounds' result)."""
    shifts: dict[int, dict] = defaultdict(
        lambda: {
            "registered": ZERO,
            "tips": ZERO,
            "fills": ZERO,
            "credits": ZERO,
            "rounds": 0,
            "hands": 0,
            "total_bet": ZERO,
            "game_win": ZERO,
        }
    )
    for a in CashIn.objects.filter(gaming_day=gaming_day).values("shift").annotate(s=Sum("amount")):
        shifts[a["shift"]]["registered"] = a["s"]
    for c in corrected_cash_ins(CashIn.objects.filter(gaming_day=gaming_day)):
        shifts[c["shift"]]["registered"] += c["delta"]
    for a in Tip.objects.filter(gaming_day=gaming_day).values("shift").annotate(s=Sum("amount")):
        shifts[a["shift"]]["tips"] = a["s"]
    for a in (
        RoundResult.objects.filter(gaming_day=gaming_day)
        .values("shift")
        .annotate(
            n=Count("pk", filter=Q(voided=False)),
            h=Sum("hands"),
            b=Sum("total_bet"),
            p=Sum("players_net"),
        )
    ):
        s = shifts[a["shift"]]
        s.update(
            rounds=a["n"], hands=a["h"] or 0, total_bet=a["b"] or ZERO, game_win=-(a["p"] or 0)
        )
    start, end, day_of = _moments_to_days(gaming_day, gaming_day)
    for slip in _received_slips(start, end):
        if day_of(slip["received_at"]) != gaming_day:
            continue
        late = gaming_day_of(slip["received_at"]) != gaming_day  # after the previous close
        s = shifts[1 if late else shift_of(slip["received_at"])]
        s["fills" if slip["kind"] == Slip.Kind.FILL else "credits"] += slip["total"]
    out = []
    for number in sorted(shifts):
        s = shifts[number]
        s["shift"] = number
        s["average_bet"] = (s["total_bet"] / s["hands"]).quantize(CENT) if s["hands"] else None
        s["hold"] = (
            (s["game_win"] / s["registered"] * 100).quantize(CENT) if s["registered"] else None
        )
        out.append(s)
    return out


def hourly(*, gaming_day: dt.date) -> list[dict]:
    """Win (the settled rounds' result) and registered drop per clock hour of a gaming day."""
    start, _ = day_window(gaming_day)
    tz = timezone.get_current_timezone()
    hours = [
        {"hour": timezone.localtime(start + dt.timedelta(hours=i)).hour, "win": ZERO, "drop": ZERO}
        for i in range(24)
    ]
    index = {h["hour"]: h for h in hours}
    for a in (
        RoundResult.objects.filter(gaming_day=gaming_day)
        .annotate(h=TruncHour("closed_at", tzinfo=tz))
        .values("h")
        .annotate(p=Sum("players_net"))
    ):
        index[timezone.localtime(a["h"]).hour]["win"] = -(a["p"] or ZERO)
    box = CashIn.objects.filter(gaming_day=gaming_day, destination=CashIn.Destination.CASH_BOX)
    for a in (
        box.annotate(h=TruncHour("entered_at", tzinfo=tz)).values("h").annotate(s=Sum("amount"))
    ):
        index[timezone.localtime(a["h"]).hour]["drop"] = a["s"] or ZERO
    for c in corrected_cash_ins(box):
        index[timezone.localtime(c["entered_at"]).hour]["drop"] += c["delta"]
    return hours


# -- exceptions -----------------------------------------------------------------------------
#
# An exception is a record in a state a controller must look at. Its ``state`` is what the
# record says now — what was counted, by whom, when (its recorded fields, its later
# signatures) — and a resolution accepts exactly that state (``Resolution.state_hash``):
# any later change of the record is a new state, and the exception is open again. While
# ``waiting`` (a recount not done, a slip not signed by all, a void not confirmed, a
# pit-desk cash-in the inspector has not confirmed) the record is not finished: nothing
# can be resolved yet.

PIT_DESK = CashIn.Destination.PIT_CASH_DESK
CORRECTIONS = Prefetch(
    "corrections", queryset=CashInCorrection.objects.select_related("corrected_by")
)


def _stated(exception: dict, parts: dict) -> dict:
    """``exception`` with its state (canonical JSON of ``parts``) and the state's hash."""
    text = json.dumps(parts, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    exception["state"] = text
    exception["state_hash"] = hashlib.sha256(text.encode()).hexdigest()
    return exception


def _content(row) -> str:
    return content_of(row, (*row.audit_fields, *row.audit_state_fields))


def _cash_in_exception(c: CashIn, corrections: list | None = None) -> dict | None:
    """A cash-in not recounted, mismatched, or going to the pit desk and not confirmed by the
    inspector (docs/sources.md#inspector-registers-cash); with a correction of its amount
    awaiting its second signature, that correction. A confirmed correction settles a
    mismatch: two people other than the dealer and the observer set the amount in force.
    ``corrections``: its corrections (read from ``c.corrections`` when not given)."""
    if corrections is None:
        corrections = list(c.corrections.all())
    corrections = sorted(corrections, key=lambda r: r.pk)
    if corrections and not corrections[-1].in_force:
        return _cash_in_correction_exception(c, corrections)
    registration = c.registration if hasattr(c, "registration") else None
    unregistered = c.destination == PIT_DESK and registration is None
    settled = any(r.in_force for r in corrections)
    if (c.status == CashIn.Status.CONFIRMED or settled) and not unregistered:
        return None
    waiting = None
    if c.status == CashIn.Status.AWAITING_RECOUNT:
        waiting = "recount"
    elif unregistered:
        waiting = "inspector"
    if c.status == CashIn.Status.AWAITING_RECOUNT:
        code = c.status
    elif c.status == CashIn.Status.MISMATCH and not settled:
        code = c.status
    else:
        code = "awaiting_inspector"
    parts = {
        "cash_in": _content(c),
        "registration": registration and content_of(registration, registration.audit_fields),
    }
    if corrections:  # (absent before any: the states resolved before corrections existed hold)
        parts["corrections"] = [_content(r) for r in corrections]
    exception = {"kind": "cash_in", "object": c, "code": code, "table": c.table}
    exception.update(day=c.gaming_day, waiting=waiting)
    return _stated(exception, parts)


def _cash_in_correction_exception(c: CashIn, corrections: list) -> dict:
    newest = corrections[-1]
    in_force = [r for r in corrections if r.in_force]
    exception = {"kind": "cash_in_correction", "object": newest, "table": c.table}
    exception.update(day=c.gaming_day, cash_in=c)
    return _pending_correction(
        exception,
        newest,
        was=in_force[-1].amount if in_force else c.amount,
        now=newest.amount,
        author=newest.corrected_by,
    )


def _chip_count_exceptions(gaming_day: dt.date | None) -> list[dict]:
    """Chip counts whose newest correction awaits its second signature, of ``gaming_day``
    or (None) of every day not closed; a count's day is the one its moment belongs to."""
    pending = list(
        ChipCount.objects.filter(replaces__isnull=False, confirmed_at__isnull=True)
        .filter(replaced_by__isnull=True)
        .select_related("table", "counted_by")
    )
    if not pending:
        return []
    first = min(gaming_day_of(c.counted_at) for c in pending) - dt.timedelta(days=1)
    last = max(gaming_day_of(c.counted_at) for c in pending) + dt.timedelta(days=1)
    _start, _end, day_of = _moments_to_days(first, last)
    closed = set(
        GamingDayClose.objects.filter(reopened_at__isnull=True).values_list("gaming_day", flat=True)
    )
    found = []
    for newest in pending:
        day = day_of(newest.counted_at)
        if (gaming_day is not None and day != gaming_day) or (gaming_day is None and day in closed):
            continue
        in_force = newest.replaces
        while not in_force.in_force:
            in_force = in_force.replaces
        exception = {"kind": "chip_count", "object": newest, "table": newest.table, "day": day}
        found.append(
            _pending_correction(
                exception, newest, was=in_force.total, now=newest.total, author=newest.counted_by
            )
        )
    return found


SLIP_WAITING = {"requested": "signatures", "issued": "signatures", "void_pending": "void"}


def _slip_exception(s: Slip) -> dict | None:
    """A slip not signed by all three, voided, or with a void awaiting its second signature."""
    if s.received_at is not None and s.voided_at is None:
        return None
    exception = {"kind": "slip", "object": s, "code": s.status, "table": s.table}
    exception.update(day=s.gaming_day, waiting=SLIP_WAITING.get(s.status))
    return _stated(exception, {"slip": _content(s)})


def _drop_exception(d: DropCount, registered: Decimal) -> dict | None:
    """The current counted drop of a table-day when it differs from the cash-ins registered
    into its cash box (both are part of the state: a later cash-in reopens it)."""
    registered = _q(registered)
    if registered == d.amount:
        return None
    exception = {"kind": "drop", "object": d, "code": "drop_difference", "table": d.table}
    exception.update(day=d.gaming_day, waiting=None, difference=d.amount - registered)
    return _stated(exception, {"drop": _content(d), "registered": str(registered)})


def _pending_correction(exception: dict, record, *, was: Decimal, now: Decimal, author) -> dict:
    """A correction of a counted figure awaiting its second signature: an open exception
    that waits for the confirmation (nothing to resolve; confirming it closes it). ``was``
    is the figure in force, ``now`` the corrected one, ``author`` who corrected it."""
    exception.update(code="correction_pending", waiting="confirmation", was=was, now=now)
    exception["author"] = author.display_name
    # It waits: no resolution ever accepts it, so its state names the record and what it says.
    return _stated(exception, {exception["kind"]: record.pk, "was": str(was), "now": str(now)})


def _drop_exceptions(latest: DropCount, in_force: DropCount, registered) -> dict | None:
    """A table-day's drop: its correction awaiting confirmation, or — the newest entry in
    force — its difference from the registered cash-ins."""
    if latest is in_force:
        return _drop_exception(latest, registered or ZERO)
    exception = {"kind": "drop", "object": latest, "table": latest.table}
    exception.update(day=latest.gaming_day, difference=None)
    return _pending_correction(
        exception, latest, was=in_force.amount, now=latest.amount, author=latest.counted_by
    )


def _resolved() -> set[tuple[str, int, str]]:
    return set(Resolution.objects.values_list("kind", "object_id", "state_hash"))


def _unresolved(exceptions, resolved) -> list[dict]:
    return [
        e
        for e in exceptions
        if e is not None and (e["kind"], e["object"].pk, e["state_hash"]) not in resolved
    ]


def _registered_box(drops) -> dict:
    """The cash-ins registered into the cash box of each drop's table-day, in force."""
    box = CashIn.objects.filter(
        destination=CashIn.Destination.CASH_BOX,
        gaming_day__in={d.gaming_day for d in drops},
        table_id__in={d.table_id for d in drops},
    )
    out = {
        (a["table_id"], a["gaming_day"]): a["s"]
        for a in box.values("table_id", "gaming_day").annotate(s=Sum("amount"))
    }
    for c in corrected_cash_ins(box):
        key = (c["table_id"], c["gaming_day"])
        out[key] = (out.get(key) or ZERO) + c["delta"]
    return out


def open_exceptions(*, gaming_day: dt.date | None = None) -> list[dict]:
    """Exceptions not resolved in the state they are in now: cash-ins awaiting the recount,
    mismatched or not confirmed by the inspector; slips not fully signed or voided; counted
    drops that differ from the registered cash-ins. Of one gaming day; or, without
    ``gaming_day``, of every day not closed (a closed day is frozen: nothing can be done
    about its records — its report lists what was waived at its close)."""
    if gaming_day is not None:
        days = Q(gaming_day=gaming_day)
    else:
        closed = GamingDayClose.objects.filter(reopened_at__isnull=True).values("gaming_day")
        days = ~Q(gaming_day__in=closed)
    unconfirmed = Q(destination=PIT_DESK, registration__isnull=True)
    corrected = CashInCorrection.objects.filter(confirmed_at__isnull=True).values("cash_in_id")
    cash_ins = (
        CashIn.objects.filter(days)
        .filter(~Q(status=CashIn.Status.CONFIRMED) | unconfirmed | Q(pk__in=corrected))
        .select_related("table", "registration")
    )
    cash_ins, corrections = list(cash_ins), defaultdict(list)
    recounted = [c.pk for c in cash_ins if c.status != CashIn.Status.AWAITING_RECOUNT]
    if recounted:  # a cash-in is corrected only after its recount: none to read otherwise
        for r in CashInCorrection.objects.filter(cash_in_id__in=recounted).select_related(
            "corrected_by"
        ):
            corrections[r.cash_in_id].append(r)
    slips = (
        Slip.objects.filter(days)
        .filter(Q(received_at__isnull=True) | Q(voided_at__isnull=False))
        .select_related("table")
    )
    drops = drops_in_force(DropCount.objects.filter(days).select_related("table", "counted_by"))
    registered = _registered_box([latest for latest, _ in drops.values()])
    found = [_cash_in_exception(c, corrections[c.pk]) for c in cash_ins]
    found += [_slip_exception(s) for s in slips]
    found += [
        _drop_exceptions(latest, in_force, registered.get(key))
        for key, (latest, in_force) in drops.items()
    ]
    found += _chip_count_exceptions(gaming_day)
    return _unresolved(found, _resolved())


def exception_of(*, kind: str, object_id: int) -> dict | None:
    """The open exception of one record — ``kind`` (``cash_in``, ``slip``, ``drop``) and
    its id — as ``open_exceptions`` lists it (with its ``state``), or None: no such record,
    a record that is not an exception (a confirmed cash-in, a fully signed slip, a drop that
    matches, a drop that was corrected since) or one resolved in the state it is in."""
    if kind == "cash_in":
        c = (
            CashIn.objects.filter(pk=object_id)
            .select_related("table", "registration")
            .prefetch_related(CORRECTIONS)
            .first()
        )
        found = c and _cash_in_exception(c)
    elif kind == "slip":
        s = Slip.objects.filter(pk=object_id).select_related("table").first()
        found = s and _slip_exception(s)
    elif kind == "drop":
        d = (
            DropCount.objects.filter(pk=object_id, replaced_by__isnull=True)
            .select_related("table", "counted_by")
            .first()
        )
        if d is not None:
            in_force = drops_in_force(
                DropCount.objects.filter(table_id=d.table_id, gaming_day=d.gaming_day)
            )[d.table_id, d.gaming_day][1]
            registered = _registered_box([d]).get((d.table_id, d.gaming_day))
            found = _drop_exceptions(d, in_force if in_force.pk != d.pk else d, registered)
        else:
            found = None
    else:
        return None
    if not found:
        return None
    resolved = Resolution.objects.filter(
        kind=kind, object_id=object_id, state_hash=found["state_hash"]
    ).exists()
    return None if resolved else found


def figure_authors(exception: dict) -> set[int]:
    """Who entered or corrected the figure of an exception: they never sign off on it (the
    cash-in's dealer and observer, the slip's requester, every entry of a corrected drop)."""
    row = exception["object"]
    if exception["kind"] == "cash_in":
        ids = {row.entered_by_id, row.recounted_by_id}
        ids |= {r.corrected_by_id for r in row.corrections.all()}
    elif exception["kind"] == "cash_in_correction":
        cash_in = row.cash_in
        ids = {cash_in.entered_by_id, cash_in.recounted_by_id}
        ids |= {r.corrected_by_id for r in cash_in.corrections.all()}
    elif exception["kind"] == "slip":
        ids = {row.requested_by_id}
    else:
        ids = set()
        while row is not None:
            ids.add(row.counted_by_id)
            row = row.replaces
    return {i for i in ids if i}


def recount_alert_authors(alert) -> set[int]:
    """The dealer and the observer of the cash-in a ``recount_mismatch`` alert is about
    (``floor.alerts.figure_authors``)."""
    found = CashIn.objects.filter(pk=record_id(alert.params.get("cash_in"))).first()
    return figure_authors({"kind": "cash_in", "object": found}) if found else set()


def day_close_objections(*, gaming_day: dt.date) -> dict:
    """What a controller would refuse a gaming day's close for: the tables that played that
    day (a closed round or a cash-in) and have no counted drop, the day's open exceptions,
    and the critical alerts raised during the day and still open."""
    played = set(
        RoundResult.objects.filter(gaming_day=gaming_day).values_list("table_id", flat=True)
    ) | set(CashIn.objects.filter(gaming_day=gaming_day).values_list("table_id", flat=True))
    counted = set(
        DropCount.objects.filter(gaming_day=gaming_day).values_list("table_id", flat=True)
    )
    start, end = day_window(gaming_day)
    return {
        "no_drop": list(Table.objects.filter(pk__in=played - counted).order_by("number")),
        "exceptions": open_exceptions(gaming_day=gaming_day),
        "alerts": list(
            Alert.objects.filter(
                severity=Alert.Severity.CRITICAL,
                acknowledged_at__isnull=True,
                created_at__gte=start,
                created_at__lt=end,
            ).select_related("table")
        ),
    }


def alert_authors_register() -> None:
    """Who entered or recounted a mismatched cash-in never clears its alert (called once,
    by the app's ``ready``)."""
    figure_authors_register("recount_mismatch", recount_alert_authors)


def records(*, first: dt.date, last: dt.date, table: int | None = None, pit: int | None = None):
    """The records behind a report line (drill-down)."""
    flt = {"gaming_day__gte": first, "gaming_day__lte": last}
    where = {}
    if table:
        where["table_id"] = table
    if pit:
        where["table__pit_id"] = pit
    flt.update(where)
    start, end, _day_of = _moments_to_days(first, last)
    slips_in = Q(gaming_day__gte=first, gaming_day__lte=last) | Q(
        received_at__gte=start, received_at__lt=end
    )
    return {
        "cash_ins": CashIn.objects.filter(**flt).select_related(
            "table", "entered_by", "recounted_by"
        ),
        "tips": Tip.objects.filter(**flt).select_related("table", "recorded_by"),
        # A slip requested or received in the period: the report counts it by receipt.
        "slips": Slip.objects.filter(slips_in)
        .filter(**where)
        .select_related(
            "table", "requested_by", "issued_by", "received_by", "voided_by", "void_confirmed_by"
        ),
        "drops": DropCount.objects.filter(**flt).select_related(
            "table", "counted_by", "confirmed_by", "replaces"
        ),
        "rounds": RoundResult.objects.filter(**flt)
        .values("table_id", "table__number")
        .annotate(
            n=Count("pk", filter=Q(voided=False)),
            bet=Sum("total_bet"),
            net=Sum("players_net"),
            a=Min("closed_at"),
            b=Max("closed_at"),
        )
        .order_by("table__number"),
    }


def table_records(*, table: Table, gaming_day: dt.date) -> dict:
    """The inspector's register for one table and gaming day."""
    return {
        "cash_ins": CashIn.objects.filter(table=table, gaming_day=gaming_day)
        .select_related(
            "entered_by", "recounted_by", "registration__registered_by", "chips_given__given_by"
        )
        .prefetch_related(
            Prefetch(
                "corrections",
                queryset=CashInCorrection.objects.select_related(
                    "corrected_by", "confirmed_by", "replaced_by"
                ),
            )
        ),
        "tips": Tip.objects.filter(table=table, gaming_day=gaming_day).select_related(
            "recorded_by"
        ),
        "slips": Slip.objects.filter(table=table, gaming_day=gaming_day).select_related(
            "requested_by", "issued_by", "received_by", "voided_by", "void_confirmed_by"
        ),
    }


def awaiting_recount(*, table: Table):
    return CashIn.objects.filter(table=table, status=CashIn.Status.AWAITING_RECOUNT).order_by(
        "entered_at"
    )


def slips_to_issue():
    return Slip.objects.filter(issued_at__isnull=True, voided_at__isnull=True).select_related(
        "table", "requested_by"
    )


def table_shift_totals(*, table: Table, gaming_day: dt.date, shift: int) -> dict:
    """One table's cash-ins (count and amount) and tips in one shift: the inspector's tile."""
    cash = CashIn.objects.filter(table=table, gaming_day=gaming_day, shift=shift).aggregate(
        s=Sum("amount"),
        n=Count("pk"),
        # pit-desk cash-ins the inspector has not confirmed yet
        # (docs/sources.md#inspector-registers-cash)
        # every cash-in the inspector has not registered yet
        to_register=Count("pk", filter=Q(registration__isnull=True)),
        to_confirm=Count(
            "pk",
            filter=Q(destination=CashIn.Destination.PIT_CASH_DESK, registration__isnull=True),
        ),
    )
    tips = Tip.objects.filter(table=table, gaming_day=gaming_day, shift=shift).aggregate(
        s=Sum("amount")
    )
    return {
        "cash_ins": _q(cash["s"]),
        "cash_in_count": cash["n"],
        "cash_ins_to_confirm": cash["to_confirm"],
        "cash_ins_to_register": cash["to_register"],
        "tips": _q(tips["s"]),
    }


def recounts_by(*, table: Table, person, gaming_day: dt.date, limit: int = 50):
    """The observer's own signed recounts of the gaming day, newest first: after his blind
    count is signed, he may see the dealer's figure beside his."""
    return (
        CashIn.objects.filter(table=table, gaming_day=gaming_day, recounted_by=person)
        .exclude(status=CashIn.Status.AWAITING_RECOUNT)
        .order_by("-recounted_at", "-pk")[:limit]
    )
