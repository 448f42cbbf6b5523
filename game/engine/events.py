"""The events a round emits, built in one place, and the actions read back from them.

Every event is a JSON-safe dict with a ``kind``; amounts are decimal strings and ``hand``
counts from 1. The first event of every action names the action, so ``actions_from_events``
can rebuild the actions of a logged round (docs/engine.md lists every kind).
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal

from .actions import (
    Action,
    Bet,
    CloseBets,
    Deal,
    DealDown,
    Double,
    EvenMoney,
    InsuranceClosed,
    Insure,
    Split,
    Stand,
)
from .cards import Card


def box_card(box: int, hand_number: int, card: Card, total: int, soft: bool) -> dict:
    """A card dealt to a box's hand (``hand_number`` from 1)."""
    return {
        "kind": "card",
        "to": "box",
        "box": box,
        "hand": hand_number,
        "card": card.code,
        "total": total,
        "soft": soft,
    }


def dealer_card(card: Card, total: int, soft: bool, hole: bool) -> dict:
    """A card dealt to the dealer; ``hole``: his face-down second card (hole-card game)."""
    return {
        "kind": "card",
        "to": "dealer",
        "card": card.code,
        "total": total,
        "soft": soft,
        "hole": hole,
    }


def hand_settled(box: int, hand_number: int, result: str, net: Decimal) -> dict:
    """A hand's result at the end of the round (``win`` / ``lose`` / ``push``)."""
    return {
        "kind": "hand_settled",
        "box": box,
        "hand": hand_number,
        "result": result,
        "net": str(net),
    }


_EVENT_ACTIONS = {
    "bets_closed": lambda e: CloseBets(),
    "card": lambda e: Deal(Card.parse(e["card"])),
    "card_down": lambda e: DealDown(),
    "stand": lambda e: Stand(),
    "double": lambda e: Double(),
    "split": lambda e: Split(),
    "insurance": lambda e: Insure(e["box"], Decimal(e["amount"])),
    "even_money": lambda e: EvenMoney(e["box"]),
    "insurance_closed": lambda e: InsuranceClosed(),
}


def actions_from_events(events: Iterable[dict]) -> list[Action]:
    """The actions that caused a sequence of events (every action's first event names it), so
    a round's event log can be replayed:
    ``RoundState.replay(rules, limits, actions_from_events(log))``. A ``bet`` event of amount 0
    is the removal of a bet."""
    out: list[Action] = []
    for e in events:
        kind = e["kind"]
        if kind == "bet":
            out.append(Bet(e["box"], Decimal(e["amount"])))
        elif kind in _EVENT_ACTIONS:
            out.append(_EVENT_ACTIONS[kind](e))
    return out
