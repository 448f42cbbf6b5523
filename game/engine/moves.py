"""Legal moves as values, python-chess style: what may be done now, where, and for how much.

``RoundState.legal_moves()`` returns a list of ``Move``; every one of them is accepted by
``apply(move.to_action(...))`` with any amount from ``low`` to ``high`` (whole cents), and
nothing outside them is.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from .actions import (
    CLOSE_BETS,
    DEAL_DOWN,
    DOUBLE,
    INSURANCE_CLOSED,
    SPLIT,
    STAND,
    Action,
    Bet,
    EvenMoney,
    Insure,
    deal,
)
from .cards import Card
from .errors import ActionError


@dataclass(frozen=True, slots=True)
class Move:
    """One legal move.

    ``action``: the action kind, as ``legal_actions()`` names it (``bet``, ``close-bets``,
    ``card``, ``card-down``, ``stand``, ``double``, ``split``, ``insure``, ``even-money``,
    ``insurance-closed``). ``box``: the box it concerns (``None`` for the dealer's card and the
    moves of the whole table). ``hand``: the hand's index in the box **from 0** (as
    ``RoundState.turn``; the event and ``awaiting()`` strings count from 1), ``None`` where no
    hand is meant (bets, insurance, the dealer's cards). ``low`` / ``high``: the
    inclusive range of amounts accepted, in whole cents, for ``bet`` and ``insure``;
    ``high`` is ``None`` for a bet at a table without limits.

    ``card`` moves: during the initial deal ``box`` is the box that receives it and ``hand`` 0,
    or ``box=None`` for the dealer; in the players' turn ``box``/``hand`` is the hand that
    receives it (a hit, a double's card, a split hand's second card); in the dealer's turn
    ``box=None``. ``card-down`` (``player_cards: face-down``): the initial deal's card that
    goes face down to ``box``, hand 0. Removing a bet is ``Move("bet", box, low=0, high=0)``,
    offered for a box that has a bet.
    """

    action: str
    box: int | None = None
    hand: int | None = None
    low: Decimal | None = None
    high: Decimal | None = None

    def accepts(self, amount: Decimal) -> bool:
        """Whether ``amount`` lies within this move's bounds (for ``bet`` and ``insure``)."""
        if self.low is not None and amount < self.low:
            return False
        return self.high is None or amount <= self.high

    def to_action(self, amount: Decimal | None = None, card: Card | str | None = None) -> Action:
        """The engine action that makes this move: ``amount`` for ``bet`` / ``insure``,
        ``card`` for ``card``. Raises ``ActionError`` (``bad_action``) when one is missing."""
        kind = self.action
        if kind in ("bet", "insure"):
            if amount is None:
                raise ActionError(f"A {kind} move needs an amount", code="bad_action")
            return Bet(self.box, amount) if kind == "bet" else Insure(self.box, amount)
        if kind == "card":
            if card is None:
                raise ActionError("A card move needs the card", code="bad_action")
            return deal(card)
        if kind == "even-money":
            return EvenMoney(self.box)
        return _SIMPLE[kind]


_SIMPLE = {
    "close-bets": CLOSE_BETS,
    "stand": STAND,
    "double": DOUBLE,
    "split": SPLIT,
    "insurance-closed": INSURANCE_CLOSED,
    "card-down": DEAL_DOWN,
}
