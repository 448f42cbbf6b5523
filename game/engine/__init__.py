"""The Blackjack engine: pure Python (standard library only).

The one place in the product where a total, a legal action or a payout is decided. This module
is the public API; the modules behind it: ``cards`` (cards, hand totals, ``ShoeState``),
``rules`` (rule sets and presets), ``actions`` (what a croupier can do), ``moves`` (legal moves
as values), ``hands`` (limits, boxes, hands), ``round`` (``RoundState``, the state machine),
``settlement`` (every payout), ``events`` (the event dicts), ``strategy`` (basic strategy as
data, the calculated house edge), ``simulate`` (house edge and speed), ``cli``
(``python3 -m game.engine``).

``RoundState`` and ``ShoeState`` are named so that they never collide with the Django models
``game.models.Round`` and ``game.models.Shoe`` that store them.
"""

from .actions import (
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
    action_from_dict,
    action_to_dict,
    action_to_token,
    parse_action,
)
from .cards import Card, ShoeState, hand_total
from .errors import ActionError, CardError, EngineError, RulesError, ShoeError
from .events import actions_from_events
from .hands import Box, Hand, Limits
from .moves import Move
from .round import RoundState
from .rules import PRESETS, Rules
from .strategy import EdgeEstimate, edge_estimate, theoretical_edge

__all__ = [
    "PRESETS",
    "ActionError",
    "Bet",
    "Box",
    "Card",
    "CardError",
    "CloseBets",
    "Deal",
    "DealDown",
    "Double",
    "EdgeEstimate",
    "EngineError",
    "EvenMoney",
    "Hand",
    "Insure",
    "InsuranceClosed",
    "Limits",
    "Move",
    "RoundState",
    "Rules",
    "RulesError",
    "ShoeError",
    "ShoeState",
    "Split",
    "Stand",
    "action_from_dict",
    "action_to_dict",
    "action_to_token",
    "actions_from_events",
    "edge_estimate",
    "hand_total",
    "parse_action",
    "theoretical_edge",
]
