"""Result deviation: is a table's result this shift plausible for a fair game?

The house's result over the shift's rounds against its theoretical result (the rule set's
house edge × the total initial bet), in standard deviations of that result:

* one box's result has the rule set's standard deviation per initial bet (``SD_PER_HAND``,
  measured with the engine's simulator);
* the boxes of one round share the dealer's hand, so their results are correlated
  (``BOX_CORRELATION``, measured): a round with box bets b₁…bₖ has variance
  sd² × ((1 − ρ)·Σbᵢ² + ρ·(Σbᵢ)²). Counting the round as one hand of its total bet (ρ = 1)
  overstates the standard deviation of a full table by about 1.47×.

The alarm is checked after every round of the shift, so its threshold is not the one-check
3σ: ``SIGMAS`` is measured so that a fair table crosses it at some round of a shift (from
``MIN_ROUNDS`` to 600 rounds) in at most 0.3 % of shifts (docs/detection.md).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from decimal import Decimal

# Standard deviation of one box's result per initial bet: docs/engine.md, "Measured house
# edges" (20,000,000 rounds per preset).
SD_PER_HAND = {"standard": 1.134, "hole-card": 1.154, "open-cards": 1.294}
SD_PER_HAND_DEFAULT = 1.15
# Correlation between two boxes' results in the same round: ``python -m benchmarks.detection rules
# --preset <preset> --rounds 300000 --boxes 7`` (docs/detection.md). With both dealer cards
# open and ties lost, the boxes move together more.
BOX_CORRELATION = {"standard": 0.369, "hole-card": 0.365, "open-cards": 0.529}
BOX_CORRELATION_DEFAULT = 0.369
#: Production defaults (settings.DEVIATION_SIGMAS, settings.DEVIATION_MIN_ROUNDS).
SIGMAS = 3.9
MIN_ROUNDS = 30


def round_variance(box_bets: Iterable, sd_per_hand: float, box_correlation: float) -> float:
    """Variance of the house's result in a round with these box bets."""
    total = square = 0.0
    for b in box_bets:
        b = float(b)
        total += b
        square += b * b
    return sd_per_hand**2 * ((1 - box_correlation) * square + box_correlation * total * total)


def result_deviation(
    *,
    house_net: Decimal,
    rounds: Sequence[Sequence[Decimal]],
    house_edge: float,
    sd_per_hand: float,
    box_correlation: float = BOX_CORRELATION_DEFAULT,
) -> dict:
    """The house's result against theory over ``rounds`` (each the box bets of one round).

    Returns ``{"rounds", "theoretical", "sd", "z"}``: theoretical = edge × Σ bets, sd the
    standard deviation of the result (with the boxes' correlation), z = (result −
    theoretical) / sd (None with no bets).
    """
    theoretical = house_edge * sum(float(b) for r in rounds for b in r)
    variance = sum(round_variance(r, sd_per_hand, box_correlation) for r in rounds)
    sd = math.sqrt(variance)
    z = (float(house_net) - theoretical) / sd if sd > 0 else None
    return {"rounds": len(rounds), "theoretical": theoretical, "sd": sd, "z": z}


class ShiftDeviation:
    """The deviation checked after every round: :meth:`observe` each round in order. ``z`` is
    the figure after the last round; ``at_round`` the first round (from ``min_rounds`` on) at
    which |z| reached ``sigmas``, and ``crossing`` the figures then (``rounds``, ``result``,
    ``theoretical``, ``z``)."""

    def __init__(
        self,
        *,
        house_edge: float,
        sd_per_hand: float,
        box_correlation: float = BOX_CORRELATION_DEFAULT,
        sigmas: float = SIGMAS,
        min_rounds: int = MIN_ROUNDS,
    ):
        self.house_edge = house_edge
        self.sd_per_hand = sd_per_hand
        self.box_correlation = box_correlation
        self.sigmas = sigmas
        self.min_rounds = min_rounds
        self.rounds = 0
        self.result = Decimal(0)  # the house's result
        self.theoretical = 0.0
        self.variance = 0.0
        self.z: float | None = None
        self.at_round: int | None = None
        self.crossing: dict | None = None

    def observe(self, *, house_net: Decimal, box_bets: Sequence) -> None:
        """One round: the house's result in it (−the players' net) and its box bets."""
        self.rounds += 1
        self.result += Decimal(house_net)
        self.theoretical += self.house_edge * sum(float(b) for b in box_bets)
        self.variance += round_variance(box_bets, self.sd_per_hand, self.box_correlation)
        if self.variance > 0:
            self.z = (float(self.result) - self.theoretical) / math.sqrt(self.variance)
        if (
            self.at_round is None
            and self.z is not None
            and self.rounds >= self.min_rounds
            and abs(self.z) >= self.sigmas
        ):
            self.at_round = self.rounds
            self.crossing = {
                "rounds": self.rounds,
                "result": self.result,
                "theoretical": self.theoretical,
                "z": self.z,
            }
