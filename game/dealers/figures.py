"""The dealer's own figures (issue 23 item 10): per dealing croupier and shift, what a pit's
table-management system gives a pit boss — rounds and hands per hour, the time from the last
card to the player's decision, corrections, voids, the observer's flags and the result of his
tables. Read from the rounds and their event log (docs/cashdesk.md, "The dealer's figures").

* **His rounds** are the rounds he opened (the dealing croupier opens every round; a
  replacement takes over at a round boundary). A round counts in the gaming day and shift of
  its opening (``floor.gaming``).
* **Rounds** are his closed rounds; **voids** his voided ones. **Hands**: the boxes in play
  when bets closed plus one per split.
* **Time at the tables**: per table and shift, from his first round's opening to his last
  round's end; rounds and hands per hour divide by it.
* **Last card → decision**: each decision of a player's hand (stand, double, split, or a hit —
  a card to a hand that already had two and was not doubled) timed from the card before it
  (or its correction); the average in seconds.
* **Corrections**: "correct the last card" in his rounds; **flags**: the observer's notes
  raised while one of his rounds was the table's round.
* **Result**: the house's (− the players' result) of his closed and voided rounds (a voided
  round's is what was paid at once and stays paid).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import Count

from floor.gaming import day_window, shift_window
from game.models import ErrorFlag, Round, RoundEvent

DECISIONS = ("stand", "double", "split")
ZERO = Decimal(0)


@dataclass
class DealerLine:
    """One dealer's figures for one gaming day and shift (or, with ``day`` None, a period)."""

    dealer: str
    username: str
    day: dt.date | None = None
    shift: int | None = None
    tables: set = field(default_factory=set)
    rounds: int = 0
    hands: int = 0
    voids: int = 0
    corrections: int = 0
    flags: int = 0
    decisions: int = 0
    decision_seconds: float = 0.0
    seconds: float = 0.0
    result: Decimal = ZERO

    def add(self, other: DealerLine) -> None:
        self.tables |= other.tables
        for name in ("rounds", "hands", "voids", "corrections", "flags", "decisions"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.decision_seconds += other.decision_seconds
        self.seconds += other.seconds
        self.result += other.result

    @property
    def hours(self) -> float:
        return self.seconds / 3600

    @property
    def rounds_per_hour(self) -> float | None:
        return self.rounds / self.hours if self.seconds >= 60 else None

    @property
    def hands_per_hour(self) -> float | None:
        return self.hands / self.hours if self.seconds >= 60 else None

    @property
    def decision_average(self) -> float | None:
        """Seconds from the last card to a decision, on average (None: no decision)."""
        return self.decision_seconds / self.decisions if self.decisions else None

    @property
    def table_names(self) -> str:
        return ", ".join(sorted(self.tables))

    def row(self) -> dict:
        """The figures by column key (cashdesk.columns.DEALER_COLUMNS); None: no figure."""
        return {
            "rounds": self.rounds,
            "hands": self.hands,
            "hours": self.hours,
            "rounds_per_hour": self.rounds_per_hour,
            "hands_per_hour": self.hands_per_hour,
            "decisions": self.decisions,
            "decision_average": self.decision_average,
            "corrections": self.corrections,
            "voids": self.voids,
            "flags": self.flags,
            "result": self.result,
        }


def dealer_figures(*, first: dt.date, last: dt.date) -> dict:
    """Every dealer's figures per gaming day and shift from ``first`` to ``last`` (gaming
    days, inclusive), and his totals over the period: ``{"first", "last", "lines",
    "dealers", "total"}``; lines sorted by day, shift and name, dealers by name."""
    start, end = day_window(first)[0], day_window(last)[1]
    his = Round.objects.filter(
        opened_at__gte=start,
        opened_at__lt=end,
        status__in=(Round.Status.CLOSED, Round.Status.VOIDED),
    )
    rounds = list(his.select_related("table", "opened_by").order_by("opened_at"))
    per_round = _event_figures(his)
    flags = _flags(his)
    lines: dict[tuple, DealerLine] = {}
    spans: dict[tuple, list] = {}
    for r in rounds:
        day, shift, _start = shift_window(r.opened_at)
        person = r.opened_by
        key = (day, shift, person.pk)
        line = lines.get(key)
        if line is None:
            name = person.get_full_name() or person.username
            line = lines[key] = DealerLine(name, person.username, day, shift)
        line.tables.add(str(r.table))
        figures = per_round.get(r.pk, _RoundFigures())
        if r.status == Round.Status.VOIDED:
            line.voids += 1
        else:
            line.rounds += 1
        line.hands += figures.hands
        line.corrections += figures.corrections
        line.decisions += figures.decisions
        line.decision_seconds += figures.decision_seconds
        line.flags += flags.get(r.pk, 0)
        line.result -= r.players_net or ZERO
        span = spans.setdefault((*key, r.table_id), [r.opened_at, r.opened_at])
        span[1] = max(span[1], r.closed_at or r.opened_at)
    for (day, shift, person, _table), (began, ended) in spans.items():
        lines[(day, shift, person)].seconds += (ended - began).total_seconds()
    ordered = sorted(lines.values(), key=lambda x: (x.day, x.shift, x.dealer, x.username))
    return {"first": first, "last": last, "lines": ordered, **_totals(ordered)}


def _totals(lines: list[DealerLine]) -> dict:
    dealers: dict[str, DealerLine] = {}
    total = DealerLine("", "")
    for line in lines:
        dealers.setdefault(line.username, DealerLine(line.dealer, line.username)).add(line)
        total.add(line)
    return {
        "dealers": sorted(dealers.values(), key=lambda x: (x.dealer, x.username)),
        "total": total,
    }


@dataclass
class _RoundFigures:
    hands: int = 0
    corrections: int = 0
    decisions: int = 0
    decision_seconds: float = 0.0


def _event_figures(rounds) -> dict[int, _RoundFigures]:
    """Hands, corrections and decision times of each round, from its event log (one query;
    only the events that tell them)."""
    events = (
        RoundEvent.objects.filter(
            round__in=rounds,
            type__in=("close-bets", "card", "correct-card", *DECISIONS),
        )
        .order_by("round_id", "seq")
        .values_list("round_id", "type", "created_at", "payload")
    )
    out: dict[int, _RoundFigures] = {}
    current, hands, last_card_at = None, {}, None
    for round_id, kind, at, payload in events.iterator(chunk_size=2000):
        if round_id != current:
            current, hands, last_card_at = round_id, {}, None
        figures = out.setdefault(round_id, _RoundFigures())
        engine = payload.get("events") or []
        decided = kind in DECISIONS or (kind == "card" and _is_hit(engine, hands))
        if decided and last_card_at is not None:
            figures.decisions += 1
            figures.decision_seconds += max((at - last_card_at).total_seconds(), 0.0)
        if kind == "correct-card":
            figures.corrections += 1
        _follow_hands(engine, hands, figures)
        if kind in ("card", "correct-card"):
            last_card_at = at
    return out


def _is_hit(engine: list[dict], hands: dict) -> bool:
    """A card to a hand that already holds two cards and was not doubled: the player's
    decision to take it (a double's card and a split hand's second card are not)."""
    for event in engine:
        if event.get("kind") == "card" and event.get("to") == "box":
            counts = hands.get(event["box"], [])
            index = event["hand"] - 1
            return index < len(counts) and counts[index][0] >= 2 and not counts[index][1]
    return False


def _follow_hands(engine: list[dict], hands: dict, figures: _RoundFigures) -> None:
    """Keep each box's hands as [cards, doubled] as the events deal, double and split."""
    for event in engine:
        kind = event.get("kind")
        if kind == "bets_closed":
            figures.hands += len(event.get("boxes") or ())
        elif kind == "card" and event.get("to") == "box":
            counts = hands.setdefault(event["box"], [])
            while len(counts) < event["hand"]:
                counts.append([0, False])
            counts[event["hand"] - 1][0] += 1
        elif kind == "double":
            counts = hands.get(event["box"], [])
            if event["hand"] <= len(counts):
                counts[event["hand"] - 1][1] = True
        elif kind == "split":
            figures.hands += 1
            counts = hands.setdefault(event["box"], [])
            index = event["hand"] - 1
            if index < len(counts):
                counts[index] = [1, False]
                counts.insert(index + 1, [1, False])


def _flags(rounds) -> dict[int, int]:
    return dict(
        ErrorFlag.objects.filter(round__in=rounds)
        .values_list("round_id")
        .annotate(n=Count("pk"))
        .values_list("round_id", "n")
    )
