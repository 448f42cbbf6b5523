"""The ramp test: does the player's stake follow a betting ramp keyed to the count as a counter
reckons it? The fourth of the tests :class:`~game.detection.advantage.PlayerEvidence` averages
(issue 23 item 9, docs/detection.md "The ramp test").

**What it assumes of a counter, and nothing more.** A card counter's stake is a step function
of *his* true count that does not go down as the count goes up: a stake of at least ``v`` from
some true count on, for each stake ``v`` he uses. His true count is the running count divided
by the decks left *estimated to the half deck* (what a counter can see of the discard tray), and
his ramp steps at whole true counts (+1, +2, ...). Neither the thresholds nor the stakes are
told: for each stake the player has used, above his smallest, the test keeps a Bayesian mixture
over "from true count θ on" for θ = −1 ... +7 and over "the stake ignores the count", learned
from his own earlier rounds; a few rounds that break the ramp cost a lapse, not the model.

**The evidence** is the same kind as the other tests': each round's factor is the likelihood
ratio of the exact count's latest change given the stake he then placed, against the change's
own distribution, from a model fixed before that change — a test martingale for any bettor who
does not look at the cards. As in :class:`~game.detection.advantage.SettledModel` the round is
scored once the next stake is known, so that a stake undone at once (a *blip*) is neither scored
nor learned from, and a stake left where it was (a raise held back a round) is allowed for by a
share of "he kept his last stake" (``hold``). The counter's estimate of the decks left for the
count after the change is predicted before it (the cards out before the round plus the table's
average a round), so nothing about the change is used to score it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .count import worst_expectation

_SQRT2 = math.sqrt(2)


@dataclass(frozen=True)
class Ramp:
    """The ramp test's constants (chosen on the development shifts of docs/detection.md;
    none of them affects the false-alarm guarantee except ``allowance``)."""

    thresholds: tuple[float, ...] = tuple(float(t) for t in range(-1, 8))  # whole true counts
    width: float = 0.1  # how sharp a step is, in true counts (a probit)
    lapse: float = 0.05  # a stake on the wrong side of a step, at any count
    ignores: float = 0.5  # prior share of "this stake ignores the count", per stake
    hold: float = 0.2  # share of "he kept his last stake" whatever the count
    mixing: float = 0.97  # each round's factor is 1 - mixing + mixing × likelihood ratio
    cap: float = 30.0  # a likelihood ratio above this counts as this
    allowance: float = 0.1  # standard deviations of the count's change a bet may reveal


RAMP = Ramp()


def counter_scale(unseen: float) -> float:
    """How a counter's true count relates to the exact one with ``unseen`` cards left: he
    divides the running count by the decks left estimated to the half deck (at least half a
    deck), the exact count divides it by ``unseen / 52``."""
    decks_left = max(0.5, round(unseen / 26) / 2)
    return unseen / 52 / decks_left if unseen > 0 else 1.0


def _step_probability(tc: float, threshold: float, ramp: Ramp) -> float:
    lapse = ramp.lapse
    return lapse + (1 - 2 * lapse) * 0.5 * math.erfc(-(tc - threshold) / (ramp.width * _SQRT2))


class _Stake:
    """P(stake ≥ v | the counter's true count) for one stake ``v``: a mixture over the step's
    threshold and "ignores the count" (a Beta(½, ½)-Bernoulli), weighted by how well each
    explained the rounds so far."""

    __slots__ = ("ramp", "logs", "ignore_log", "above", "n", "_posterior")

    def __init__(self, ramp: Ramp, history, value):
        self.ramp = ramp
        self.logs = [math.log((1 - ramp.ignores) / len(ramp.thresholds))] * len(ramp.thresholds)
        self.ignore_log = math.log(ramp.ignores)
        self.above = 0
        self.n = 0
        self._posterior = None
        for stake, tc in history:
            self.add(stake >= value, tc)

    def add(self, above: bool, tc: float) -> None:
        ramp = self.ramp
        for i, threshold in enumerate(ramp.thresholds):
            p = _step_probability(tc, threshold, ramp)
            self.logs[i] += math.log(p if above else 1 - p)
        p = (self.above + 0.5) / (self.n + 1)
        self.ignore_log += math.log(p if above else 1 - p)
        self.above += above
        self.n += 1
        self._posterior = None

    def _weights(self):
        if self._posterior is None:
            top = max(max(self.logs), self.ignore_log)
            weights = [math.exp(x - top) for x in self.logs]
            ignore = math.exp(self.ignore_log - top)
            total = sum(weights) + ignore
            steps = tuple(
                (t, w / total)
                for t, w in zip(self.ramp.thresholds, weights, strict=True)
                if w / total > 1e-6
            )
            base = ignore / total * (self.above + 0.5) / (self.n + 1)
            self._posterior = (steps, base)
        return self._posterior

    def probability(self, tc: float) -> float:
        steps, base = self._weights()
        ramp = self.ramp
        reach = 9 * ramp.width  # beyond 9 widths a step is 0 or 1 to a double's precision
        p = base
        for t, w in steps:
            if tc - t > reach:
                p += w * (1 - ramp.lapse)
            elif t - tc > reach:
                p += w * ramp.lapse
            else:
                p += w * _step_probability(tc, t, ramp)
        return p


class RampModel:
    """The ramp test's evidence for one player (``log``), fed round by round with
    :meth:`observe`, every table he was at in the order played."""

    def __init__(self, ramp: Ramp = RAMP):
        self.ramp = ramp
        self.log = 0.0
        self._history: list = []  # (stake, the counter's true count) of the rounds learned
        self._values: set = set()  # every stake learned
        self._stakes: dict = {}  # stake value -> _Stake, every value above the smallest
        self._held: dict = {}  # table -> the round waiting for the next stake there
        self._state: dict = {}  # table -> the last stake there that was not a blip

    def observe(self, table, bet, step, tc: float, scale: float, scale_ahead: float) -> None:
        """Round t+1 at ``table``: settle round t, then hold this one. ``step`` is the exact
        count's change since the table's previous round ``(tc before, change, sd)`` (None at a
        new shoe), ``tc`` the exact true count as this round starts, ``scale`` the counter's
        scale of it now and ``scale_ahead`` the scale predicted for this round before its
        cards were known (:func:`counter_scale`)."""
        held = self._held.get(table)
        if held is not None:
            self._settle(table, *held, following=None if step is None else bet)
        if step is None:
            self._state.pop(table, None)
        self._held[table] = (step, scale_ahead, bet, tc * scale, self._state.get(table))

    def _settle(self, table, step, scale, bet, counted, state, *, following) -> None:
        if state is not None and bet != state and following == state:
            return  # a blip: undone at once
        if step is not None and step[2] > 0 and self._stakes:
            ratio = self.likelihood_ratio(bet, state, step, scale)
            ramp = self.ramp
            self.log += math.log(1 - ramp.mixing + ramp.mixing * min(ratio, ramp.cap))
        self.learn(bet, counted)
        self._state[table] = bet

    def _pattern(self, bet, tc: float) -> float:
        """How likely the model finds this stake at this (counter's) count: for every stake
        level, above it or not."""
        p = 1.0
        for value, stake in self._stakes.items():
            q = stake.probability(tc)
            p *= q if bet >= value else 1 - q
        return p

    def likelihood_ratio(self, bet, state, step, scale: float) -> float:
        """How much likelier the count's change ``step[1]`` is given the stake, against the
        change's own distribution N(0, sd²) — the worst case over a mean shift of ±allowance·sd.
        ``state``: his last stake at the table (the "kept it" share applies when equal)."""
        ramp = self.ramp
        tc_before, change, sd = step
        kept = ramp.hold if bet == state else 0.0

        def score(exact_tc: float) -> float:
            return (1 - ramp.hold) * self._pattern(bet, exact_tc * scale) + kept

        expected = worst_expectation(score, tc_before, sd, ramp.allowance)
        return score(tc_before + change) / expected if expected > 0 else 1.0

    def learn(self, bet, counted: float) -> None:
        """Learn one settled round: his stake at the true count as he reckons it."""
        if bet not in self._values:
            self._values.add(bet)
            smallest = min(self._values)
            self._stakes = {
                v: self._stakes.get(v) or _Stake(self.ramp, self._history, v)
                for v in sorted(self._values)
                if v != smallest
            }
        self._history.append((bet, counted))
        for value, stake in self._stakes.items():
            stake.add(bet >= value, counted)
