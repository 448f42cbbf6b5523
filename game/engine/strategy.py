"""Basic strategy as data, for each rule family, and the calculator that derives it.

A strategy is three tables keyed by the player's hand and the dealer's hand:

* ``hard[total]`` and ``soft[total]``: one letter per dealer column;
* ``pairs[card value]``: ``P`` to split, otherwise what to do with the pair unsplit.

Letters: ``H`` hit, ``S`` stand, ``D`` double (hit if doubling is not allowed), ``d`` double
(stand if doubling is not allowed), ``P`` split. Columns: for ``one`` and ``hole`` games the
dealer's up card ``2 3 4 5 6 7 8 9 T A``; for ``open`` games the dealer's two-card hand,
``h4``..``h20`` then ``s12``..``s20`` (the dealer's future depends only on his total and
whether it is soft).

The tables are derived by ``compute_strategy`` — an exact infinite-deck expected-value
calculation for the rule set (dealer's Blackjack taking everything in a one-card game, a peek
in a hole-card game, the dealer's full hand in an open game, ties, the three-sevens bonus), with
split hands valued without resplits. The preset tables are kept as data in
``strategy_data.py``; a test checks that they still equal the calculation.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache

from .actions import DOUBLE, SPLIT, STAND, Action
from .rules import Rules

UP_COLUMNS = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "A")
UP_VALUES = (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)
OPEN_COLUMNS = tuple(f"h{t}" for t in range(4, 21)) + tuple(f"s{t}" for t in range(12, 21))
HARD_ROWS = tuple(range(4, 21))
SOFT_ROWS = tuple(range(12, 21))
PAIR_ROWS = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
PAIR_NAMES = {1: "A", 10: "T"}

P = {v: (4 / 13 if v == 10 else 1 / 13) for v in range(1, 11)}
BUST = 22
SEVENS_BONUS = 3 + 2 / 16  # 3:1, or 5:1 when all three are of one suit (1 in 16)


def _total(hard: int, ace: bool) -> tuple[int, bool]:
    if ace and hard <= 11:
        return hard + 10, True
    return hard, False


@cache
def _dealer_final(hard: int, ace: bool, h17: bool) -> tuple[tuple[int, float], ...]:
    """Distribution of the dealer's final total (22 = bust) from a hand he must play out."""
    total, soft = _total(hard, ace)
    if total > 21:
        return ((BUST, 1.0),)
    if total > 17 or (total == 17 and not (soft and h17)):
        return ((total, 1.0),)
    acc: dict[int, float] = {}
    for v, p in P.items():
        for o, q in _dealer_final(hard + v, ace or v == 1, h17):
            acc[o] = acc.get(o, 0.0) + p * q
    return tuple(sorted(acc.items()))


def dealer_outcomes(rules: Rules, column: str) -> tuple[dict[int, float], float]:
    """(absolute probabilities of the dealer's final totals without Blackjack, P(Blackjack))
    for a strategy column, as the player sees it when deciding."""
    h17 = rules.dealer_hits_soft_17
    family = rules.dealer_cards
    if family == "open":
        soft = column[0] == "s"
        total = int(column[1:])
        hard = total - 10 if soft else total
        return dict(_dealer_final(hard, soft, h17)), 0.0
    up = UP_VALUES[UP_COLUMNS.index(column)]
    acc: dict[int, float] = {}
    p_bj = 0.0
    weights = dict(P)
    if family == "hole" and up in (1, 10):
        # He peeked: his hole card is not the one that makes Blackjack.
        del weights[10 if up == 1 else 1]
        norm = sum(weights.values())
        weights = {v: p / norm for v, p in weights.items()}
    for v, p in weights.items():
        if {up, v} == {1, 10}:
            p_bj += p
            continue
        for o, q in _dealer_final(up + v, up == 1 or v == 1, h17):
            acc[o] = acc.get(o, 0.0) + p * q
    return acc, p_bj


class _Calc:
    """Expected values (per unit of the hand's original bet) against one dealer column."""

    def __init__(self, rules: Rules, column: str):
        self.rules = rules
        self.dist, self.p_bj = dealer_outcomes(rules, column)
        self.push = rules.ties == "push"
        original = rules.dealer_blackjack_takes == "original" and rules.dealer_cards == "one"
        # What a dealer Blackjack takes, per unit of the original bet, from a hand that stood,
        # a doubled hand, and each of two split hands (doubled or not).
        self.bj_stand = 1.0
        self.bj_double = 1.0 if original else 2.0
        self.bj_split = 0.5 if original else 1.0
        self.bj_split_double = 0.5 if original else 2.0
        self._best: dict = {}

    def stand_nobj(self, total: int) -> float:
        ev = 0.0
        for o, p in self.dist.items():
            if o == BUST or o < total:
                ev += p
            elif o > total:
                ev -= p
            elif not self.push:
                ev -= p
        return ev

    def stand(self, total: int, bj_loss: float) -> float:
        return self.stand_nobj(total) - bj_loss * self.p_bj

    def best_hs(self, hard: int, ace: bool, bj_loss: float) -> float:
        """Best of hit and stand (no double) for a hand; at 21 the hand stands."""
        key = (hard, ace, bj_loss)
        if key in self._best:
            return self._best[key]
        total, _ = _total(hard, ace)
        ev = self.stand(total, bj_loss)
        if total < 21:
            ev = max(ev, self.hit(hard, ace, bj_loss))
        self._best[key] = ev
        return ev

    def hit(self, hard: int, ace: bool, bj_loss: float, sevens: bool = False) -> float:
        ev = 0.0
        for v, p in P.items():
            if sevens and v == 7:
                ev += p * SEVENS_BONUS
            elif hard + v > 21:
                ev -= p
            else:
                ev += p * self.best_hs(hard + v, ace or v == 1, bj_loss)
        return ev

    def double(self, hard: int, ace: bool, bj_loss: float, sevens: bool = False) -> float:
        ev = 0.0
        for v, p in P.items():
            if sevens and v == 7:
                ev += p * 2 * SEVENS_BONUS
            elif hard + v > 21:
                ev -= 2 * p
            else:
                total, _ = _total(hard + v, ace or v == 1)
                ev += p * (2 * self.stand_nobj(total) - bj_loss * self.p_bj)
        return ev

    def can_double(self, hard: int, ace: bool, after_split: bool) -> bool:
        rules = self.rules
        if after_split and not rules.double_after_split:
            return False
        totals = rules.double_totals
        total, soft = _total(hard, ace)
        return totals is None or (not soft and total in totals)

    def two_card(self, hard: int, ace: bool, sevens: bool = False, split: bool = False) -> dict:
        """EVs of stand / hit / double for a two-card hand."""
        bj = self.bj_split if split else self.bj_stand
        total, _ = _total(hard, ace)
        evs = {"S": self.stand(total, bj)}
        if total < 21:
            evs["H"] = self.hit(hard, ace, bj, sevens)
            if self.can_double(hard, ace, split):
                dbj = self.bj_split_double if split else self.bj_double
                evs["D"] = self.double(hard, ace, dbj, sevens)
        return evs

    def split_hand(self, v: int, c: int) -> float:
        """EV of one split hand that started with ``v`` and received ``c`` (not split again)."""
        rules = self.rules
        hard, ace = v + c, v == 1 or c == 1
        if ace and hard == 11 and rules.split_blackjack == "instant-win":
            # won at once, before the dealer's hand is known (docs/sources.md#split-twenty-one)
            return 1.0
        if v == 1 and not rules.hit_split_aces:
            total, _ = _total(hard, ace)
            return self.stand(total, self.bj_split)
        three = rules.three_sevens and v == 7 and c == 7
        return max(self.two_card(hard, ace, sevens=three, split=True).values())

    def split(self, v: int, resplits: bool = True) -> float:
        """EV of splitting a pair of value ``v``: two hands, and with ``resplits`` a hand that
        receives another ``v`` split again while ``max_hands`` (and ``resplit_aces``) allow it
        and it pays. On an infinite deck the hands are independent, so the value follows from
        ``V(p, h)``: the EV of ``p`` one-card hands still to play on a box of ``h`` hands."""
        rules = self.rules
        one = {c: self.split_hand(v, c) for c in P}
        cap = rules.max_hands if resplits and (v != 1 or rules.resplit_aces) else 2
        memo: dict[tuple[int, int], float] = {}

        def value(p: int, h: int) -> float:
            if p == 0:
                return 0.0
            key = (p, h)
            if key not in memo:
                ev = 0.0
                for c, pc in P.items():
                    best = one[c] + value(p - 1, h)
                    if c == v and h < cap:
                        best = max(best, value(p + 1, h + 1))
                    ev += pc * best
                memo[key] = ev
            return memo[key]

        return value(2, 2)


def _letter(evs: dict) -> str:
    best = max(evs, key=evs.get)
    if best == "D":
        return "D" if evs["H"] >= evs["S"] else "d"
    return best


def compute_strategy(rules: Rules) -> Strategy:
    """Derive basic strategy for a rule set (infinite-deck expected values)."""
    columns = OPEN_COLUMNS if rules.dealer_cards == "open" else UP_COLUMNS
    hard: dict[int, str] = dict.fromkeys(HARD_ROWS, "")
    soft: dict[int, str] = dict.fromkeys(SOFT_ROWS, "")
    pairs: dict[int, str] = dict.fromkeys(PAIR_ROWS, "")
    for col in columns:
        calc = _Calc(rules, col)
        for t in HARD_ROWS:
            # A hard two-card total; 4 only as 2-2, but the row is there for 3+ card hands.
            hard[t] += _letter(calc.two_card(t, False))
        for t in SOFT_ROWS:
            soft[t] += _letter(calc.two_card(t - 10, True))
        for v in PAIR_ROWS:
            evs = calc.two_card(2 * v, v == 1, sevens=rules.three_sevens and v == 7)
            if rules.max_hands >= 2 and calc.split(v) > max(evs.values()):
                pairs[v] += "P"
            else:
                pairs[v] += _letter(evs)
    return Strategy(rules.dealer_cards, columns, hard, soft, pairs)


@dataclass(frozen=True)
class Strategy:
    """Basic strategy tables for one rule family (see the module docstring)."""

    family: str
    columns: tuple[str, ...]
    hard: dict[int, str]
    soft: dict[int, str]
    pairs: dict[int, str]

    def column(self, dealer_cards) -> int:
        """Column index for the dealer's cards (up card, or his two-card hand when open)."""
        if self.family == "open":
            hard = dealer_cards[0].value + dealer_cards[1].value
            ace = dealer_cards[0].value == 1 or dealer_cards[1].value == 1
            total, soft = _total(hard, ace)
            return self.columns.index(f"{'s' if soft else 'h'}{total}")
        v = dealer_cards[0].value
        return 9 if v == 1 else v - 2

    def letter(self, cards, col: int, can_split: bool) -> str:
        """The table letter for a player's hand (a list of cards) in a dealer column."""
        if can_split and len(cards) == 2 and cards[0].value == cards[1].value:
            return self.pairs[cards[0].value][col]
        hard = 0
        ace = False
        for c in cards:
            hard += c.value
            if c.value == 1:
                ace = True
        if ace and hard <= 11:
            return self.soft[hard + 10][col] if hard + 10 <= 20 else "S"
        if hard >= 21:
            return "S"
        return self.hard[max(hard, 4)][col]

    def describe(self) -> dict:
        """JSON form: columns and rows as letter strings."""
        return {
            "family": self.family,
            "columns": list(self.columns),
            "hard": {str(k): v for k, v in self.hard.items()},
            "soft": {f"A{k - 11}" if k > 12 else "AA": v for k, v in self.soft.items()},
            "pairs": {PAIR_NAMES.get(k, str(k)) * 2: v for k, v in self.pairs.items()},
        }


def decide(strategy: Strategy, round_, col: int) -> Action | None:
    """The basic-strategy action for the hand whose turn it is; ``None`` means hit (deal a
    card). ``round_`` is a ``RoundState`` in the players phase awaiting a decision."""
    hand = round_.current_hand()
    legal = round_.legal_actions()
    letter = strategy.letter(hand.cards, col, "split" in legal)
    if letter == "P":
        return SPLIT
    if letter in ("D", "d") and "double" in legal:
        return DOUBLE
    if letter == "H" or letter == "D":
        return None if "card" in legal else STAND
    return STAND


def strategy_for(rules: Rules) -> Strategy:
    """The strategy for a rule set: the stored table of a preset, else a fresh calculation."""
    from .strategy_data import TABLES

    name = rules.name
    if name in TABLES:
        return TABLES[name]
    return _cached(rules)


@lru_cache(maxsize=32)
def _cached(rules: Rules) -> Strategy:
    return compute_strategy(rules)


def take_even_money(rules: Rules) -> bool:
    """Basic strategy on even money: take it when a Blackjack's expected payment against a
    dealer ace (no Blackjack 9 times in 13) is under 1."""
    return float(rules.bj_ratio) * 9 / 13 < 1


def render_data_module() -> str:
    """Source of ``strategy_data.py`` (the preset tables as data), from ``compute_strategy``."""
    from .rules import PRESETS

    lines = [
        '"""Basic strategy tables of the presets, as data.',
        "",
        "Generated by ``strategy.render_data_module()`` from ``compute_strategy``; a test checks",
        "that they still match. Letters and columns: see ``strategy.py``.",
        '"""',
        "",
        "from .strategy import OPEN_COLUMNS, UP_COLUMNS, Strategy",
        "",
        "TABLES = {",
    ]
    for name, rules in PRESETS.items():
        s = compute_strategy(rules)
        cols = "OPEN_COLUMNS" if s.family == "open" else "UP_COLUMNS"
        lines.append(f'    "{name}": Strategy(')
        lines.append(f'        family="{s.family}",')
        lines.append(f"        columns={cols},")
        for section in ("hard", "soft", "pairs"):
            lines.append(f"        {section}={{")
            for k, v in getattr(s, section).items():
                lines.append(f'            {k}: "{v}",')
            lines.append("        },")
        lines.append("    ),")
    lines.append("}")
    return "\n".join(lines) + "\n"


@lru_cache(maxsize=128)
def theoretical_edge(rules: Rules) -> float:
    """The house edge of basic strategy by exact calculation on an infinite deck (splits with
    resplits up to ``max_hands``, never insurance; even money per ``take_even_money``), as a
    fraction of the initial bet; negative means the player has the advantage.

    Cheap (milliseconds, cached per rule set) and exact for the infinite deck; a six-deck shoe
    with a cut card comes out a little lower (docs/engine.md, "Measured house edges"), which
    ``edge_estimate`` allows for."""
    ratio = float(rules.bj_ratio)
    vs_bj = (
        ratio if rules.blackjack_beats_dealer_blackjack else 0.0 if rules.ties == "push" else -1.0
    )
    pbj_player = 2 * P[1] * P[10]
    if rules.dealer_cards == "open":
        return -_open_edge(rules, ratio, vs_bj, pbj_player)
    even = rules.even_money and take_even_money(rules)
    ev = 0.0
    for col, up in zip(UP_COLUMNS, UP_VALUES, strict=True):
        pu = P[up]
        p_dbj = P[10] if up == 1 else P[1] if up == 10 else 0.0
        if rules.dealer_cards == "hole" and p_dbj:
            # Peek: a dealer Blackjack ends the round before anyone acts.
            ev += pu * p_dbj * (pbj_player * (1.0 if even else vs_bj) - (1 - pbj_player))
            ev += pu * (1 - p_dbj) * _hands_ev(rules, col, 1.0 if (even and up == 1) else ratio)
        else:
            bj = ratio * (1 - p_dbj) + vs_bj * p_dbj
            if even and up == 1:
                bj = 1.0
            ev += pu * _hands_ev(rules, col, bj)
    return -ev


def _open_edge(rules: Rules, ratio: float, vs_bj: float, pbj_player: float) -> float:
    """The player's EV when both dealer cards are open: by the dealer's two-card column."""
    ev = 0.0
    weights: dict[str, float] = {}
    for d1, p1 in P.items():
        for d2, p2 in P.items():
            pd = p1 * p2
            if {d1, d2} == {1, 10}:
                ev += pd * (pbj_player * vs_bj - (1 - pbj_player))
                continue
            total, soft = _total(d1 + d2, d1 == 1 or d2 == 1)
            col = f"{'s' if soft else 'h'}{total}"
            weights[col] = weights.get(col, 0.0) + pd
    for col, weight in weights.items():
        ev += weight * _hands_ev(rules, col, ratio)
    return ev


# How far the infinite-deck calculation has run above the six-deck simulation (house side)
# across the presets and the variants measured in docs/engine.md: a calculated edge under this
# may still be a player advantage on a real shoe.
CALCULATION_MARGIN = 0.003


@dataclass(frozen=True)
class EdgeEstimate:
    """The house edge of a rule set as a configuration screen shows it.

    ``house_edge``: ``theoretical_edge(rules)`` (fraction of the initial bet, negative = the
    player's advantage). ``warning``: ``"player_advantage"`` when it is negative (the table
    loses money to basic strategy: show "negative house edge: the player has the advantage"
    and ask for an explicit confirmation), ``"player_advantage_possible"`` when it is positive
    but under ``CALCULATION_MARGIN`` (a six-deck shoe may still favour the player), else
    ``None``.
    """

    house_edge: float
    margin: float = CALCULATION_MARGIN

    @property
    def player_advantage(self) -> bool:
        return self.house_edge < 0

    @property
    def warning(self) -> str | None:
        if self.house_edge < 0:
            return "player_advantage"
        if self.house_edge < self.margin:
            return "player_advantage_possible"
        return None


def edge_estimate(rules: Rules) -> EdgeEstimate:
    """The house edge of a rule set and whether to warn about it (see ``EdgeEstimate``)."""
    return EdgeEstimate(theoretical_edge(rules))


def _hands_ev(rules: Rules, column: str, blackjack_ev: float) -> float:
    """Expected result of the player's first two cards against one dealer column."""
    calc = _Calc(rules, column)
    ev = 0.0
    for a, pa in P.items():
        for b, pb in P.items():
            p = pa * pb
            if {a, b} == {1, 10}:
                ev += p * blackjack_ev
                continue
            evs = calc.two_card(a + b, a == 1 or b == 1, sevens=rules.three_sevens and a == b == 7)
            best = max(evs.values())
            if a == b and rules.max_hands >= 2:
                best = max(best, calc.split(a))
            ev += p * best
    return ev
