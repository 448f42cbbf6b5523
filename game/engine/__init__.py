"""The Blackjack engine: pure Python (standard library only).

The one place in the product where a total, a legal action or a payout is decided. Modules:
``cards`` (cards, hand totals, the shoe), ``rules`` (rule sets and presets), ``actions``
(what a croupier can do), ``round`` (the round state machine), ``strategy`` (basic strategy
as data), ``simulate`` (house edge and speed), ``cli`` (``python3 -m game.engine``).
"""

from .actions import (
    Bet,
    CloseBets,
    Deal,
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
from .cards import Card, Shoe, hand_total
from .errors import ActionError, CardError, EngineError, RulesError, ShoeError
from .round import Box, Hand, Limits, Round
from .rules import PRESETS, Rules

__all__ = [
    "PRESETS",
    "ActionError",
    "Bet",
    "Box",
    "Card",
    "CardError",
    "CloseBets",
    "Deal",
    "Double",
    "EngineError",
    "EvenMoney",
    "Hand",
    "Insure",
    "InsuranceClosed",
    "Limits",
    "Round",
    "Rules",
    "RulesError",
    "Shoe",
    "ShoeError",
    "Split",
    "Stand",
    "action_from_dict",
    "action_to_dict",
    "action_to_token",
    "hand_total",
    "parse_action",
]
