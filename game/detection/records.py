"""What the floor watch reads for the detectors: a shift's closed rounds as plain records —
who staked what (by player card, or by seat label at the table), the box bets, the shoe when
the round opened — and each player's evidence (``game.detection``, docs/detection.md).

A player is his player card when his stake carries one (the card follows him across boxes
and tables), else his seat label at that table. His stake in a round is the sum of his
shares on every box; a round he did not play counts as a stake of 0 at that table, so that
sitting out and joining are seen as the wonger's tell they may be.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal

from game.detection import CountState, PlayerEvidence
from game.models import Round


@dataclass
class RoundRecord:
    table_id: int
    number: int
    shoe_id: int
    opened_at: dt.datetime
    shoe: CountState
    box_bets: list[Decimal]
    players_net: Decimal
    stakes: dict[str, Decimal] = field(default_factory=dict)  # player key -> total stake
    labels: dict[str, str] = field(default_factory=dict)  # player key -> how to name him


def player_key(table_id: int, seat: str, card: str) -> str:
    return f"card:{card}" if card else f"seat:{table_id}:{seat}"


def shift_records(start: dt.datetime, *, table_ids=None) -> list[RoundRecord]:
    """The closed rounds since ``start`` (of the given tables, or all), in the order they
    were opened."""
    rows = Round.objects.filter(status=Round.Status.CLOSED, closed_at__gte=start)
    if table_ids is not None:
        rows = rows.filter(table_id__in=list(table_ids))
    out = []
    for table_id, number, shoe_id, opened_at, shoe, bets, shares, net in rows.order_by(
        "opened_at", "table_id", "number"
    ).values_list(
        "table_id",
        "number",
        "shoe_id",
        "opened_at",
        "snapshot__opening__shoe",
        "snapshot__engine__bets",
        "snapshot__shares",
        "players_net",
    ):
        shoe = shoe or {}
        record = RoundRecord(
            table_id=table_id,
            number=number,
            shoe_id=shoe_id,
            opened_at=opened_at,
            shoe=CountState.from_out_ranks(
                shoe.get("out_ranks") or {}, int(shoe.get("decks") or 6)
            ),
            box_bets=[Decimal(v) for _, v in sorted((bets or {}).items())],
            players_net=net or Decimal(0),
        )
        if shares:
            for box_shares in shares.values():
                for s in box_shares:
                    key = player_key(table_id, s.get("seat", ""), s.get("player_card", ""))
                    record.stakes[key] = record.stakes.get(key, Decimal(0)) + Decimal(s["stake"])
                    card = s.get("player_card", "")
                    record.labels[key] = (
                        f"{s.get('seat', '')} / {card}" if card else s.get("seat", "")
                    )
        else:  # a round recorded without shares: each box is its own player
            for box, v in (bets or {}).items():
                key = f"box:{table_id}:{box}"
                record.stakes[key] = Decimal(v)
                record.labels[key] = f"box {box}"
        out.append(record)
    return out


def player_evidence(
    records: list[RoundRecord], key: str, *, alpha: float, house_edge: float
) -> PlayerEvidence:
    """The player's evidence over every round of every table he staked at in ``records``
    (a stake of 0 in that table's rounds he did not play), checked after every round."""
    tables = {r.table_id for r in records if key in r.stakes}
    evidence = PlayerEvidence(alpha=alpha, house_edge=house_edge)
    last_shoe: dict[int, int] = {}
    for r in records:
        if r.table_id not in tables:
            continue
        new_shoe = last_shoe.get(r.table_id) != r.shoe_id
        last_shoe[r.table_id] = r.shoe_id
        evidence.observe(
            r.table_id, bet=r.stakes.get(key, Decimal(0)), shoe=r.shoe, new_shoe=new_shoe
        )
    return evidence
