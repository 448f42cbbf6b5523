"""Advantage play: does a player's bet follow the count? A sequential test that may be checked
after every round without its false-alarm rate growing (docs/detection.md).

**The idea.** Between two rounds of a shoe the true count changes by the cards of the round
just played; given everything before, that change has mean zero (``count.py``). A player who
does not use the count places his next bet without regard to that change; a counter's bet
*reveals* it — he raises when the count went up and drops when it went down. So the test asks,
round after round: how well does the bet just placed predict the count's latest change? Only
the latest change is scored, never the count's level: a persistent bettor (a d'Alembert, a
player who raised his stake at some point) and a persistent count coincide by chance for a
whole shoe, and a test on levels mistakes the one for the other.

**The evidence** is a test martingale (an e-value): a product of per-round factors, each with
expectation at most 1 when the bet does not depend on the count. By Ville's inequality the
chance that it *ever* reaches 1/α is at most α — however often it is checked, for a shift or a
player's whole history. Its natural logarithm is the player's evidence in log-odds: it adds
across tables, boxes and days. Four tests are averaged (each an e-process, so is the average):

* **bet moves** — each raise scores the count's change (+1 × its change in standard deviations),
  each cut scores it with the sign turned; a normal-mixture martingale over the sum.
* **bet model** — a model of the player's bets learned from his own past rounds (which bets he
  places at which true counts, and after which bet), smoothed in the count; each round scores the
  likelihood ratio of the count's change given the bet he then placed. It finds the thresholds
  of a ramp, a wonger's entry and exit, a bet that creeps up, without being told any of them.
* **settled bet model** — the same model scored a round late, once the next bet is known: a bet
  undone at once (a blip: 10, 30, 10) is neither scored nor learned from, so a counter who
  camouflages with random small bets does not teach it noise (:class:`SettledModel`).
* **ramp** — a stake that steps up with the count as a counter reckons it (decks left to the
  half deck, steps at whole true counts), the steps learned from his own rounds; scored a
  round late like the settled model, with most of the weight (``ramp.py``).

All allow for a bet that depends on the player's own last result, which is tied to the cards he
has just seen (a lost round leaves slightly more low cards out): the measured tie is under 0.1
standard deviations of the count's change, and each test gives that much away (``allowance``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal

from .count import CountState, worst_expectation
from .ramp import RAMP, Ramp, RampModel, counter_scale

#: The per-player false-alarm budget: the chance that a player who ignores the count is ever
#: flagged (settings.ADVANTAGE_ALPHA, the production value).
ALPHA = 0.01
#: The player's edge gains this much per (exact) true count with basic strategy: measured for
#: the ``standard`` preset (``python -m benchmarks.detection rules``, docs/detection.md).
EDGE_PER_TRUE_COUNT = 0.0044
#: The house edge of the ``standard`` preset (docs/engine.md, "Measured house edges").
HOUSE_EDGE = 0.00431


@dataclass(frozen=True)
class Method:
    """The test's constants (chosen on simulated play, docs/detection.md; the figures there
    were measured with them). None of them affects the false-alarm guarantee except
    ``allowance`` (how far a bet may depend on the player's own result)."""

    bandwidth: float = 0.3  # smoothing of the bet model in the true count
    prior: float = 2.0  # pseudo-rounds pulling the model to "the bet ignores the count"
    transition_prior: float = 2.0  # pseudo-rounds pulling "after bet b" to the plain model
    mixing: float = 0.9  # each round's factor is 1 - mixing + mixing × likelihood ratio
    cap: float = 6.0  # a likelihood ratio above this counts as this (keeps one round small)
    allowance: float = 0.1  # standard deviations of the count's change a bet may reveal
    moves_prior: float = 1.0  # precision of the normal mixture of the bet-moves test
    cards_per_round: float = 8.0  # until the table's own average is known
    #: the four tests' shares of the evidence (bet moves, bet model, settled bet model, ramp);
    #: any shares that add up to 1 keep the average a test martingale
    weights: tuple[float, float, float, float] = (0.1, 0.1, 0.1, 0.7)
    ramp: Ramp = RAMP  # the ramp test's own constants (game/detection/ramp.py)


METHOD = Method()

_BIN = 0.1  # true-count bins of the model
_LO = -25.0
_NBINS = 500
_SHOE = "shoe"  # the "previous bet" of a shoe's first round


def _bin(tc: float) -> int:
    i = int((tc - _LO) / _BIN)
    return 0 if i < 0 else _NBINS - 1 if i >= _NBINS else i


class _Smoothed:
    """Kernel-smoothed counts of each bet over the true count."""

    __slots__ = ("kernel", "span", "by_bet", "total", "n", "n_bet")

    def __init__(self, kernel: list[float], span: int):
        self.kernel = kernel
        self.span = span
        self.by_bet: dict = {}
        self.total = [0.0] * _NBINS
        self.n = 0
        self.n_bet: dict = {}

    def add(self, bet, i: int) -> None:
        arr = self.by_bet.get(bet)
        if arr is None:
            arr = self.by_bet[bet] = [0.0] * _NBINS
        total, kernel, span = self.total, self.kernel, self.span
        for j in range(max(0, i - span), min(_NBINS, i + span + 1)):
            k = kernel[j - i + span]
            arr[j] += k
            total[j] += k
        self.n += 1
        self.n_bet[bet] = self.n_bet.get(bet, 0) + 1


class BetModel:
    """P(bet | true count, previous bet), learned from the rounds seen so far: the smoothed
    share of each bet at each count, after the same previous bet, shrunk towards the share at
    that count whatever the previous bet, itself shrunk towards the player's overall share of
    that bet (the prior: the bet ignores the count)."""

    def __init__(self, method: Method = METHOD):
        self.method = method
        span = int(3 * method.bandwidth / _BIN) + 1
        kernel = [
            math.exp(-0.5 * (k * _BIN / method.bandwidth) ** 2) for k in range(-span, span + 1)
        ]
        self._kernel, self._span = kernel, span
        self.plain = _Smoothed(kernel, span)
        self.after: dict = {}

    def add(self, previous, bet, tc: float) -> None:
        i = _bin(tc)
        self.plain.add(bet, i)
        after = self.after.get(previous)
        if after is None:
            after = self.after[previous] = _Smoothed(self._kernel, self._span)
        after.add(bet, i)

    def _probability(self, previous, bet):
        """A function of a count bin, or None when the bet was never seen."""
        plain = self.plain
        arr = plain.by_bet.get(bet)
        if arr is None:
            return None
        a, a2 = self.method.prior, self.method.transition_prior
        base = a * plain.n_bet[bet] / plain.n
        total = plain.total
        after = self.after.get(previous)
        if after is None:
            return lambda j: (arr[j] + base) / (total[j] + a)
        t_arr = after.by_bet.get(bet)
        t_total = after.total
        if t_arr is None:
            return lambda j: a2 * (arr[j] + base) / (total[j] + a) / (t_total[j] + a2)
        return lambda j: (t_arr[j] + a2 * (arr[j] + base) / (total[j] + a)) / (t_total[j] + a2)

    def likelihood_ratio(self, previous, bet, tc_before: float, change: float, sd: float):
        """How much likelier the count's change is given the bet, against the change's own
        distribution N(0, sd²) — the worst case over a mean shift of ±allowance·sd."""
        p = self._probability(previous, bet)
        if p is None or sd <= 0:
            return 1.0
        expected = worst_expectation(lambda tc: p(_bin(tc)), tc_before, sd, self.method.allowance)
        return p(_bin(tc_before + change)) / expected if expected > 0 else 1.0


def _log_normal_cdf(z: float) -> float:
    if z > -30:
        return math.log(0.5 * math.erfc(-z / math.sqrt(2)))
    return -z * z / 2 - math.log(-z) - 0.5 * math.log(2 * math.pi)


def mixture_log_evidence(total: float, variance: float, precision: float) -> float:
    """ln of the one-sided normal-mixture martingale for a sum ``total`` of increments with
    summed variance ``variance`` (mixing density: half-normal of ``precision`` on the drift)."""
    if variance <= 0:
        return 0.0
    spread = precision + variance
    z = total / math.sqrt(spread)
    return math.log(2) + 0.5 * math.log(precision / spread) + z * z / 2 + _log_normal_cdf(z)


class CountTrack:
    """One table's count from round to round: :meth:`step` with the shoe as each round starts
    gives the count's change since the table's previous round and its predicted standard
    deviation (the cards a round takes, on the table's average so far, times the next card's
    variance) — or None at a new shoe, where there is no change to score."""

    __slots__ = (
        "tc",
        "out",
        "variance",
        "cards",
        "intervals",
        "cards_per_round",
        "scale",
        "predicted_scale",
        "_next_scale",
    )

    def __init__(self, cards_per_round: float = METHOD.cards_per_round):
        self.tc: float | None = None
        self.out = 0
        self.variance = 0.0  # predicted variance of the count's change to the next round
        self.cards = 0  # cards dealt between consecutive rounds of a shoe, summed
        self.intervals = 0
        self.cards_per_round = cards_per_round
        self.scale = 1.0  # a counter's true count over the exact one, as this round starts
        self.predicted_scale = 1.0  # the same, predicted before this round's cards were known
        self._next_scale = 1.0

    def step(self, shoe: CountState, new_shoe: bool = False) -> tuple[float, float, float] | None:
        """``(true count before, change, standard deviation)``, or None at a new shoe (also
        when fewer cards are out than before: the shoe was shuffled without our being told)."""
        tc = shoe.true_count
        fresh = new_shoe or self.tc is None or shoe.out < self.out
        result = None
        if not fresh:
            self.cards += shoe.out - self.out
            self.intervals += 1
            result = (self.tc, tc - self.tc, math.sqrt(self.variance))
        cards = (self.cards_per_round + self.cards) / (1 + self.intervals)
        self.tc, self.out = tc, shoe.out
        self.variance = cards * shoe.card_variance()
        self.scale = counter_scale(shoe.unseen)
        self.predicted_scale = self.scale if fresh else self._next_scale
        self._next_scale = counter_scale(shoe.unseen - cards)
        return result


class SettledModel:
    """The bet model scored a round late, so that a *blip* — a bet that differs from the one
    before and is undone the very next round at that table (10, 30, 10) — can be set aside: a
    blip is neither scored nor learned from, and the model's "previous bet" is the last bet
    that was not one. The count's change before round t is scored when round t+1's bet is
    known; for a bettor who ignores the count every bet, the next one included, is independent
    of that change, so each factor still has expectation at most 1 (the model is built from
    rounds settled earlier only) and the product is a test martingale."""

    def __init__(self, method: Method = METHOD):
        self.method = method
        self.model = BetModel(method)
        self.log = 0.0
        self._held: dict = {}  # table -> the round waiting for the next bet there
        self._state: dict = {}  # table -> the last bet there that was not a blip

    def observe(self, table, previous, bet, step, tc: float) -> None:
        """Round t+1 at ``table``: settle round t, then hold this one. ``previous`` is the bet
        of the table's previous round (``_SHOE`` at a new shoe), ``step`` the count's change
        (None at a new shoe), ``tc`` the true count as the round starts."""
        held = self._held.get(table)
        if held is not None:
            self._settle(table, *held, following=None if step is None else bet)
        if step is None:
            self._state[table] = _SHOE
        self._held[table] = (step, previous, bet, tc, self._state.get(table, _SHOE))

    def _settle(self, table, step, previous, bet, tc, state, *, following) -> None:
        if previous != _SHOE and bet != previous and following == previous:
            return  # a blip
        if step is not None and step[2] > 0:
            m = self.method
            ratio = self.model.likelihood_ratio(state, bet, *step)
            self.log += math.log(1 - m.mixing + m.mixing * min(ratio, m.cap))
        self.model.add(state, bet, tc)
        self._state[table] = bet


class PlayerEvidence:
    """The evidence that one player bets with the count, round by round.

    Feed every round of every table he was at, in the order they were played, with
    :meth:`observe` — his total initial stake that round (0 when he sat out) and what was out
    of the shoe when the round started. Read :attr:`log_evidence` (ln of the e-value),
    :attr:`alarm` / :attr:`at_round` (the first round at which it reached ln(1/α)) and
    :attr:`advantage` (his estimated edge on the money he bet).

    ``carried``: the log-evidence of his earlier sessions (other days), added on: the product
    of the sessions' e-values is still an e-value, so the α bound then holds for his whole
    history together (a negative carry makes a player who never counted slower to flag;
    carrying only positive values turns the bound into α per session).
    """

    def __init__(
        self,
        *,
        alpha: float = ALPHA,
        house_edge: float = HOUSE_EDGE,
        method: Method = METHOD,
        carried: float = 0.0,
    ):
        if not 0 < alpha < 1:
            raise ValueError(f"alpha must be between 0 and 1, not {alpha!r}")
        self.alpha = alpha
        self.threshold = math.log(1 / alpha)
        self.house_edge = house_edge
        self.method = method
        if (
            len(method.weights) != 4
            or min(method.weights) < 0
            or abs(sum(method.weights) - 1) > 1e-9
        ):
            raise ValueError(f"weights must be four shares adding up to 1, not {method.weights!r}")
        self.model = BetModel(method)
        self.settled = SettledModel(method)
        self.ramp = RampModel(method.ramp)
        self._tables: dict = {}  # table -> CountTrack
        self._bets: dict = {}  # table -> his bet in the table's previous round
        self._log_model = 0.0
        self._moves_total = 0.0
        self._moves_variance = 0.0
        self.carried = carried
        self.log_evidence = carried
        self.peak = carried
        self.rounds = 0
        self.played = 0
        self.at_round: int | None = None
        self._staked = 0.0
        self._staked_edge = 0.0

    @property
    def alarm(self) -> bool:
        return self.at_round is not None

    @property
    def advantage(self) -> float | None:
        """Σ bet × edge(true count) / Σ bet: the player's expected edge on his money (the house
        edge plus ``EDGE_PER_TRUE_COUNT`` per true count); None before he bets."""
        return self._staked_edge / self._staked if self._staked > 0 else None

    def observe(self, table, *, bet: Decimal, shoe: CountState, new_shoe: bool = False) -> None:
        """One round at ``table`` (any key): the player's total initial stake (0 if he sat
        out) and the shoe when the round started; ``new_shoe`` if it was shuffled since the
        table's previous round."""
        self.rounds += 1
        track = self._tables.get(table)
        if track is None:
            track = self._tables[table] = CountTrack(self.method.cards_per_round)
            self._bets[table] = _SHOE
        step = track.step(shoe, new_shoe)
        previous = _SHOE if step is None else self._bets[table]
        if step is not None:
            self._score(previous, bet, *step)
        self.settled.observe(table, previous, bet, step, track.tc)
        self.ramp.observe(table, bet, step, track.tc, track.scale, track.predicted_scale)
        self._combine()
        self.model.add(previous, bet, track.tc)
        self._bets[table] = bet
        if bet > 0:
            self.played += 1
            stake = float(bet)
            edge = EDGE_PER_TRUE_COUNT * max(-10.0, min(10.0, track.tc)) - self.house_edge
            self._staked += stake
            self._staked_edge += stake * edge

    def _score(self, previous, bet, tc_before: float, change: float, sd: float) -> None:
        if sd <= 0:
            return
        m = self.method
        ratio = self.model.likelihood_ratio(previous, bet, tc_before, change, sd)
        self._log_model += math.log(1 - m.mixing + m.mixing * min(ratio, m.cap))
        if bet != previous:
            sign = 1.0 if bet > previous else -1.0
            self._moves_total += sign * change / sd - m.allowance
            self._moves_variance += 1.0

    def _combine(self) -> None:
        """The evidence: the weighted average of the four tests' e-values."""
        m = self.method
        moves = mixture_log_evidence(self._moves_total, self._moves_variance, m.moves_prior)
        logs = (moves, self._log_model, self.settled.log, self.ramp.log)
        shares = [(w, x) for w, x in zip(m.weights, logs, strict=True) if w > 0]
        top = max(x for _, x in shares)
        average = sum(w * math.exp(x - top) for w, x in shares)
        self.log_evidence = self.carried + top + math.log(average)
        if self.log_evidence > self.peak:
            self.peak = self.log_evidence
        if self.at_round is None and self.log_evidence >= self.threshold:
            self.at_round = self.rounds

    def verdict(self) -> dict:
        """``{"alarm", "at_round", "score", "rounds", "played", "advantage"}``: ``score`` is the
        highest log-evidence reached (the alarm is score ≥ ln(1/α)), ``advantage`` the
        estimated edge on his money (a fraction; None if he never bet)."""
        advantage = self.advantage
        return {
            "alarm": self.alarm,
            "at_round": self.at_round,
            "score": round(self.peak, 3),
            "rounds": self.rounds,
            "played": self.played,
            "advantage": None if advantage is None else round(advantage, 5),
        }
