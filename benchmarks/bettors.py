"""Simulated bettors and a simulated table, for measuring the advantage-play detector.

Written independently of the detector: this module imports the engine and the standard
library only, never ``game.detection`` (a test checks it). A counter here keeps his own
Hi-Lo count the way a player does (decks left estimated to the half deck), not the
detector's exact count; the others never look at the cards at all, or only at their own
results.

A *player-shift* is ``rounds`` rounds of one table (the ``standard`` one-card game, six decks,
the cut card at 70 %): the player under test at box 1 and ``others`` flat basic-strategy
players at boxes 2, 3, ... (they make the table's count move as it does with company). Every
box plays basic strategy. :func:`play_shift` returns the shift as the judge reads it
(``{"decks", "rounds": [{"bet", "cards", "shuffle_before", "insured", "net"}]}``).

Bettors (``BETTORS``), in units of the table minimum:

* ``flat`` — always 1 unit.
* ``random`` — 1 to 8 units at random every round.
* ``martingale`` — doubles after a loss, back to 1 after a win (back to 1 past 64 units).
* ``paroli`` — doubles after a win, three wins at most (1, 2, 4), back to 1 after a loss.
* ``dalembert`` — one unit more after a loss, one less after a win (1 to 20 units).
* ``raise-after-win`` — one unit more after a win (up to 8), back to 1 after a loss.
* ``ahead`` — bets more when ahead: 1 unit plus one for every 5 units won this shift (up to 8).
* ``step`` — 1 unit, then 4 units from a round drawn at random until the end.
* ``coin-dalembert`` — a d'Alembert driven by a private coin, not by the results: the control
  that cannot see the cards.
* ``breaks`` — flat 1 unit, sits out 3-10 rounds at random moments (a smoke, a phone call)
  and may arrive late: the control for joining and leaving.
* ``counter`` — Hi-Lo, 1 unit up to a true count of 2, then 2 / 4 / 6 / 8 units at true counts
  2 / 3 / 4 / 5+; takes insurance at +3 and up.
* ``camouflage`` — the same count and ramp, with simple camouflage: the bet moves at most one
  step of the ramp a round (no jumps), stays up for the first round after a shuffle, a win at
  a neutral count is let ride one time in three (2 units, as a paroli player would), no
  insurance.
* ``wonger`` — back-counts and sits in only from a true count of +1, leaves below 0 or at the
  shuffle; flat 2 units while in.
* ``big-player`` — called in at a true count of +3, bets a flat 8 units, leaves below +1 or at
  the shuffle.
"""

from __future__ import annotations

import math
import random
from decimal import Decimal

from game.engine.actions import CLOSE_BETS, INSURANCE_CLOSED, Bet, Insure, deal
from game.engine.cards import ALL_SUITED, ShoeState
from game.engine.round import RoundState
from game.engine.rules import Rules
from game.engine.strategy import decide, strategy_for

UNIT = Decimal(10)
PENETRATION = 0.70
_DEAL = [deal(c) for c in ALL_SUITED]
_HILO = dict.fromkeys("23456", 1) | dict.fromkeys("789", 0) | dict.fromkeys("TJQKA", -1)


class Bettor:
    """A player's betting: ``bet()`` before each round (units, 0 = sits out); the table tells
    him the cards he saw (``seen``), his box's result (``result``) and a shuffle
    (``shuffled``). The base class is flat and blind."""

    def __init__(self, rng: random.Random, rounds: int):
        self.rng = rng
        self.rounds = rounds
        self.round = 0

    def bet(self) -> int:
        return 1

    def insure(self) -> bool:
        return False

    def seen(self, cards: list[str]) -> None:
        pass

    def result(self, net_units: float) -> None:
        pass

    def shuffled(self) -> None:
        pass


class Flat(Bettor):
    pass


class RandomBettor(Bettor):
    def bet(self) -> int:
        return self.rng.randint(1, 8)


class _Progression(Bettor):
    def __init__(self, rng, rounds):
        super().__init__(rng, rounds)
        self.units = 1

    def bet(self) -> int:
        return self.units


class Martingale(_Progression):
    def result(self, net_units):
        if net_units < 0:
            self.units = self.units * 2 if self.units * 2 <= 64 else 1
        elif net_units > 0:
            self.units = 1


class Paroli(_Progression):
    def result(self, net_units):
        if net_units > 0:
            self.units = self.units * 2 if self.units < 4 else 1
        elif net_units < 0:
            self.units = 1


class DAlembert(_Progression):
    def result(self, net_units):
        if net_units < 0:
            self.units = min(self.units + 1, 20)
        elif net_units > 0:
            self.units = max(self.units - 1, 1)


class RaiseAfterWin(_Progression):
    def result(self, net_units):
        if net_units > 0:
            self.units = min(self.units + 1, 8)
        elif net_units < 0:
            self.units = 1


class Ahead(Bettor):
    def __init__(self, rng, rounds):
        super().__init__(rng, rounds)
        self.won = 0.0

    def bet(self):
        return min(8, 1 + max(0, int(self.won // 5)))

    def result(self, net_units):
        self.won += net_units


class Step(Bettor):
    def __init__(self, rng, rounds):
        super().__init__(rng, rounds)
        self.at = rng.randint(1, rounds)

    def bet(self):
        self.round += 1
        return 1 if self.round < self.at else 4


class CoinDAlembert(_Progression):
    def bet(self):
        units = self.units
        self.units = min(units + 1, 20) if self.rng.random() < 0.5 else max(units - 1, 1)
        return units


class Breaks(Bettor):
    def __init__(self, rng, rounds):
        super().__init__(rng, rounds)
        self.away = rng.randint(0, rounds // 3) if rng.random() < 0.5 else 0

    def bet(self):
        if self.away > 0:
            self.away -= 1
            return 0
        if self.rng.random() < 0.03:
            self.away = self.rng.randint(3, 10) - 1
            return 0
        return 1


class _Counting(Bettor):
    """Keeps a Hi-Lo running count of every card seen; the true count divides it by the decks
    left, estimated to the half deck as a counter does."""

    decks = 6

    def __init__(self, rng, rounds):
        super().__init__(rng, rounds)
        self.running = 0
        self.seen_cards = 0

    def seen(self, cards):
        for c in cards:
            self.running += _HILO[c[0]]
        self.seen_cards += len(cards)

    def shuffled(self):
        self.running = 0
        self.seen_cards = 0

    def true_count(self) -> float:
        left = self.decks * 52 - self.seen_cards
        decks_left = max(0.5, round(left / 26) / 2)
        return self.running / decks_left


def _ramp(tc: float) -> int:
    t = math.floor(tc)
    if t < 2:
        return 1
    return {2: 2, 3: 4, 4: 6}.get(t, 8)


class Counter(_Counting):
    def bet(self):
        return _ramp(self.true_count())

    def insure(self):
        return self.true_count() >= 3


class Camouflage(_Counting):
    """Simple camouflage that keeps most of the count's money at risk: the bet moves at most
    one step of the ramp a round, stays up for the first round after a shuffle, and at a
    neutral count a win is sometimes let ride (one time in three); no insurance."""

    steps = (1, 2, 4, 6, 8)

    def __init__(self, rng, rounds):
        super().__init__(rng, rounds)
        self.units = 1
        self.won = False
        self.hold = False

    def bet(self):
        if self.hold:  # the round after a shuffle: keep the last bet
            self.hold = False
            return self.units
        target = _ramp(self.true_count())
        i = self.steps.index(self.units) if self.units in self.steps else 0
        j = self.steps.index(target)
        units = self.steps[i + (j > i) - (j < i)]
        if target == 1 and self.won and self.rng.random() < 1 / 3:
            units = 2
        self.units = units
        return units

    def result(self, net_units):
        self.won = net_units > 0

    def shuffled(self):
        super().shuffled()
        self.hold = True


class RandomCamouflage(_Counting):
    """The camouflage of issue 23 item 9: the counter's 1-8 ramp, but in 15 % of rounds a
    random bet of 1 to 3 units whatever the count, and never a raise right after a lost
    round (the bet stays where it was; the raise comes a round later if the count still
    calls for it)."""

    noise = 0.15

    def __init__(self, rng, rounds):
        super().__init__(rng, rounds)
        self.units = 1
        self.lost = False

    def bet(self):
        if self.rng.random() < self.noise:
            self.units = self.rng.randint(1, 3)
            return self.units
        target = _ramp(self.true_count())
        if not (target > self.units and self.lost):
            self.units = target
        return self.units

    def result(self, net_units):
        self.lost = net_units < 0


class Wonger(_Counting):
    enter, leave, units = 1.0, 0.0, 2

    def __init__(self, rng, rounds):
        super().__init__(rng, rounds)
        self.playing = False

    def bet(self):
        tc = self.true_count()
        if self.playing and tc < self.leave:
            self.playing = False
        elif not self.playing and tc >= self.enter:
            self.playing = True
        return self.units if self.playing else 0

    def shuffled(self):
        super().shuffled()
        self.playing = False


class BigPlayer(Wonger):
    enter, leave, units = 3.0, 1.0, 8


BETTORS: dict[str, type[Bettor]] = {
    "flat": Flat,
    "random": RandomBettor,
    "martingale": Martingale,
    "paroli": Paroli,
    "dalembert": DAlembert,
    "raise-after-win": RaiseAfterWin,
    "ahead": Ahead,
    "step": Step,
    "coin-dalembert": CoinDAlembert,
    "breaks": Breaks,
    "counter": Counter,
    "camouflage": Camouflage,
    "random-camouflage": RandomCamouflage,
    "wonger": Wonger,
    "big-player": BigPlayer,
}
#: The bettors whose bet never depends on the count: they must not be flagged.
BLIND = (
    "flat",
    "random",
    "martingale",
    "paroli",
    "dalembert",
    "raise-after-win",
    "ahead",
    "step",
    "coin-dalembert",
    "breaks",
)
#: The advantage players.
COUNTERS = ("counter", "camouflage", "random-camouflage", "wonger", "big-player")


def play_shift(bettor: str, *, rounds: int = 200, seed: str = "0", others: int = 2) -> dict:
    """One player-shift: ``rounds`` rounds with the bettor at box 1 and ``others`` flat
    players beside him. Returns the judge's session form, with the bettor's name and, per
    round, ``"insured"`` and his box's result ``"net"`` (the judge ignores both)."""
    rules = Rules.preset("standard")
    strategy = strategy_for(rules)
    shoe = ShoeState.shuffled(rules.decks, f"shoe/{seed}", PENETRATION)
    shoe.cut = min(shoe.cut, shoe.size - 40)
    player = BETTORS[bettor](random.Random(f"bettor/{bettor}/{seed}"), rounds)
    player.decks = rules.decks
    out = []
    shuffle_before = False
    for _ in range(rounds):
        if shoe.cut_card_out:
            shoe.reshuffle()
            player.shuffled()
            shuffle_before = True
        units = max(0, int(player.bet()))
        boxes = ([1] if units else []) + list(range(2, 2 + others))
        if not boxes:
            boxes = [2]  # nobody else at the table: somebody plays the round he sits out
        r = RoundState(rules, None, tuple(range(1, 9)), shoe)
        for b in boxes:
            r.apply(Bet(b, UNIT * (units if b == 1 else 1)))
        r.apply(CLOSE_BETS)
        cards: list[str] = []
        insured = False
        col = -1
        while r.phase != "settled":
            if r.phase == "players" and r._need == "decision":
                if col < 0:
                    col = strategy.column(r.dealer)
                action = decide(strategy, r, col)
                if action is None:
                    action = _DEAL[shoe.next_card().index]
            elif r.phase == "insurance":
                box = r.box(1)
                if (
                    not insured
                    and box is not None
                    and box.insurance is None
                    and not box.hands[0].blackjack
                ):
                    player.seen(cards)  # he decides on what he has seen so far
                    wants = player.insure()
                    _unsee(player, cards)
                    if wants:
                        r.apply(Insure(1, box.bet / 2))
                        insured = True
                        continue
                action = INSURANCE_CLOSED
            else:
                action = _DEAL[shoe.next_card().index]
            if hasattr(action, "card"):
                cards.append(action.card.code)
            r.apply(action)
        player.seen(cards)
        box = r.box(1)
        if box is not None:
            player.result(float(box.net / UNIT))
        out.append(
            {
                "bet": str(UNIT * units),
                "cards": cards,
                "shuffle_before": shuffle_before,
                "insured": insured,
                "net": "0" if box is None else str(box.net),
            }
        )
        shuffle_before = False
    return {"decks": rules.decks, "bettor": bettor, "rounds": out}


def _unsee(player: Bettor, cards: list[str]) -> None:
    """Take back a peek at the round's first cards (they are told again at the round's end)."""
    if isinstance(player, _Counting):
        for c in cards:
            player.running -= _HILO[c[0]]
        player.seen_cards -= len(cards)
