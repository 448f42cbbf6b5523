"""The Hi-Lo count the table knows exactly, and how it moves from round to round.

2-6 count +1, 7-9 count 0, tens and aces count −1. The *running count* is the sum over the
cards out of the shoe; the *true count* is the running count per deck still unseen. Here the
true count is exact — ``52 · running / cards unseen``, no rounding to the half deck — because
in that form it is a martingale: before any card, the expected true count after it equals the
true count now (the unseen cards sum to −running, so the next card's expected value is
−running / unseen). Whatever number of cards a round takes, the true count's change over a
round has mean zero given everything before it. That is what makes the advantage-play test
exact for a bettor who does not look at the cards (docs/detection.md).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from game.engine import Card, ShoeState

HI_LO = {
    "2": 1,
    "3": 1,
    "4": 1,
    "5": 1,
    "6": 1,
    "7": 0,
    "8": 0,
    "9": 0,
    "T": -1,
    "J": -1,
    "Q": -1,
    "K": -1,
    "A": -1,
}
LOW_RANKS = frozenset("23456")
HIGH_RANKS = frozenset("TJQKA")


def running_count(out_ranks: dict[str, int]) -> int:
    """Hi-Lo running count of the cards out of the shoe (``{rank: how many out}``)."""
    return sum(HI_LO.get(rank, 0) * int(n) for rank, n in out_ranks.items())


def true_count(out_ranks: dict[str, int], decks: int) -> float:
    """The exact true count: running count per deck unseen (see :class:`CountState`)."""
    return CountState.from_out_ranks(out_ranks, decks).true_count


@dataclass(frozen=True, slots=True)
class CountState:
    """What is out of a shoe when a round starts (cards seen, and a burnt card if any)."""

    decks: int
    out: int = 0
    running: int = 0
    low: int = 0  # 2-6 out
    high: int = 0  # tens and aces out

    @classmethod
    def from_out_ranks(cls, out_ranks: dict[str, int], decks: int) -> CountState:
        """From a shoe's ``out_ranks`` (``ShoeState.to_dict()``): ``{rank: how many out}``."""
        out = low = high = 0
        for rank, n in out_ranks.items():
            n = int(n)
            out += n
            if rank in LOW_RANKS:
                low += n
            elif rank in HIGH_RANKS:
                high += n
        return cls(decks=int(decks), out=out, running=low - high, low=low, high=high)

    @property
    def unseen(self) -> int:
        return 52 * self.decks - self.out

    @property
    def true_count(self) -> float:
        """52 × running count / cards unseen (0 for an empty shoe)."""
        unseen = self.unseen
        return 52 * self.running / unseen if unseen > 0 else 0.0

    def card_variance(self) -> float:
        """Variance of the true count's change caused by the next card, given this state.

        The next card's Hi-Lo value h has mean −running/unseen and variance
        (low + high unseen)/unseen − mean²; it moves the true count by 52·(h − mean)/(unseen − 1).
        """
        unseen = self.unseen
        if unseen < 2:
            return 0.0
        mean = -self.running / unseen
        lows_highs = 40 * self.decks - self.low - self.high  # 20 low and 20 high per deck
        var = max(lows_highs / unseen - mean * mean, 0.0)
        step = 52 / (unseen - 1)
        return step * step * var


class ShoeCounter:
    """Follows one shoe card by card from its codes (``"Th"``, ``"10h"``, rank-only ``"T"``)
    and refuses a card that is not a card or that the shoe cannot hold (the engine's
    ``CardError``/``ShoeError``, with their messages)."""

    __slots__ = ("_shoe", "out", "running", "low", "high")

    def __init__(self, decks: int):
        self._shoe = ShoeState(decks)  # validates the number of decks and every card taken
        self.out = self.running = self.low = self.high = 0

    @property
    def decks(self) -> int:
        return self._shoe.decks

    def take(self, code) -> None:
        card = Card.parse(code)
        self._shoe.take(card)
        self.out += 1
        h = HI_LO[card.rank]
        self.running += h
        if h > 0:
            self.low += 1
        elif h < 0:
            self.high += 1

    def state(self) -> CountState:
        return CountState(self.decks, self.out, self.running, self.low, self.high)


# N(0, 1) on 21 equally spaced nodes, for the expectation of a function of the count's change
# (ample for the smoothed models of the tests: their steps are wider than the node spacing
# times any standard deviation of interest).
NODES = tuple(-4 + 8 * i / 20 for i in range(21))
_w = [math.exp(-z * z / 2) for z in NODES]
WEIGHTS = tuple(w / sum(_w) for w in _w)
del _w


def worst_expectation(f, tc_before: float, sd: float, allowance: float) -> float:
    """E[f(tc_before + change)] for a change ~ N(μ, sd²), the largest over μ = 0, ±allowance·sd:
    the denominator of a likelihood ratio that a bet revealing up to ``allowance`` standard
    deviations of the change cannot push above 1 on average."""
    shifts = (0.0,) if allowance <= 0 else (-allowance, 0.0, allowance)
    return max(
        sum(w * f(tc_before + sd * (z + mu)) for z, w in zip(NODES, WEIGHTS, strict=True))
        for mu in shifts
    )
