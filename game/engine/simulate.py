"""The house-edge simulator and the benchmark.

Both play through ``RoundState.apply`` — the same code the live table uses — with basic strategy
(``strategy.py``) making the player's decisions, one box, a flat bet, a seeded virtual shoe.
"""

from __future__ import annotations

import math
import os
import time
from decimal import Decimal

from .actions import CLOSE_BETS, DEAL_DOWN, INSURANCE_CLOSED, Bet, EvenMoney, deal
from .cards import ALL_SUITED, ShoeState
from .round import RoundState
from .rules import Rules
from .strategy import decide, strategy_for, take_even_money, theoretical_edge

BET = Decimal(10)  # every payout of every rule set is a whole number of units on 10
PENETRATION = 0.70  # docs/sources.md#cut-card-position: 1/4 to 1/3 behind it
_DEAL = [deal(c) for c in ALL_SUITED]  # by Card.index (a virtual shoe deals suited cards)
_BOXES = (1,)


def play_round(
    rules: Rules, shoe: ShoeState, strategy, even_money: bool, trace: list | None = None
):
    """Play one single-box round with basic strategy; return the settled ``RoundState``."""
    r = RoundState(rules, None, _BOXES, shoe)
    apply = r.apply
    if trace is None:
        apply(_BET1)
        apply(CLOSE_BETS)
    else:
        trace.append(_BET1)
        trace.append(CLOSE_BETS)
        apply(_BET1)
        apply(CLOSE_BETS)
    col = -1
    deals = _DEAL
    next_card = shoe.next_card
    while True:
        phase = r.phase
        if phase == "settled":
            return r
        if phase == "players" and r._need == "decision":
            if col < 0:
                col = strategy.column(r.dealer)
            action = decide(strategy, r, col)
            if action is None:
                action = deals[next_card().index]
        elif phase == "dealing" and r.card_down_due():
            action = DEAL_DOWN  # player_cards: face-down: the card comes when it is turned
        elif phase == "insurance":
            if even_money and r.seats[0].hands[0].blackjack and not r.seats[0].even_money:
                action = _EVEN1
            else:
                action = INSURANCE_CLOSED
        else:
            action = deals[next_card().index]
        if trace is not None:
            trace.append(action)
        apply(action)


_BET1 = Bet(1, BET)
_EVEN1 = EvenMoney(1)


def _new_shoe(rules: Rules, seed) -> ShoeState:
    shoe = ShoeState.shuffled(rules.decks, seed, PENETRATION)
    shoe.cut = min(shoe.cut, shoe.size - 26)  # a round never runs a small shoe dry
    return shoe


def run(rules: Rules, rounds: int, seed, reshuffle_every_round: bool = False) -> dict:
    """Play ``rounds`` rounds in this process; return sums for the statistics."""
    shoe = _new_shoe(rules, seed)
    strategy = strategy_for(rules)
    even_money = rules.even_money and take_even_money(rules)
    total = Decimal(0)
    sq = 0.0
    # docs/sources.md#shuffle-when: a rule set may shuffle before every round (004).
    reshuffle_every_round = reshuffle_every_round or rules.shuffle_every_round
    for _ in range(rounds):
        if reshuffle_every_round or shoe.cut_card_out:
            shoe.reshuffle()
        net = play_round(rules, shoe, strategy, even_money).net
        total += net
        x = float(net)
        sq += x * x
    return {"rounds": rounds, "sum": total, "sumsq": sq}


def _run_star(args):
    return run(*args)


def edge(
    rules: Rules,
    rounds: int,
    seed="1",
    reshuffle_every_round: bool = False,
    workers: int | None = None,
) -> dict:
    """Simulate and return ``{"rules", "rounds", "house_edge", "stderr", ...}``.

    The house edge is the house's mean result per round as a fraction of the initial bet;
    ``stderr`` is its standard error. Long runs are split across processes, each with its own
    seed derived from ``seed``. A rule set with ``shuffle_every_round`` reshuffles before
    every round, as ``reshuffle_every_round`` does.
    """
    reshuffle_every_round = reshuffle_every_round or rules.shuffle_every_round
    workers = workers or os.cpu_count() or 1
    if rounds < 20_000:
        workers = 1
    started = time.perf_counter()
    if workers == 1:
        parts = [run(rules, rounds, f"{seed}/0", reshuffle_every_round)]
    else:
        import multiprocessing

        # Many chunks per worker so the cores stay busy to the end.
        chunks = max(workers * 8, rounds // 2_000_000)
        sizes = [rounds // chunks + (1 if i < rounds % chunks else 0) for i in range(chunks)]
        jobs = [(rules, n, f"{seed}/{i}", reshuffle_every_round) for i, n in enumerate(sizes)]
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            parts = pool.map(_run_star, jobs, chunksize=1)
    elapsed = time.perf_counter() - started
    n = sum(p["rounds"] for p in parts)
    total = sum((p["sum"] for p in parts), Decimal(0))
    sq = sum(p["sumsq"] for p in parts)
    bet = float(BET)
    mean = float(total) / n / bet
    var = sq / n / (bet * bet) - mean * mean
    return {
        "rules": rules.name or rules.to_json(),
        "rounds": n,
        "house_edge": round(-mean, 6),
        "stderr": round(math.sqrt(var / n), 6),
        "infinite_deck_edge": round(theoretical_edge(rules), 6),
        "sd_per_round": round(math.sqrt(var), 4),
        "seed": seed,
        "reshuffle_every_round": reshuffle_every_round,
        "workers": workers,
        "seconds": round(elapsed, 1),
    }


def bench(rules: Rules, rounds: int = 200_000) -> dict:
    """Simulated rounds per second on one core, and microseconds per ``apply()``."""
    strategy = strategy_for(rules)
    even_money = rules.even_money and take_even_money(rules)
    shoe = _new_shoe(rules, "bench")
    # Best of three runs: the figure is the engine's speed, not the machine's other load.
    per_run = max(rounds // 3, 1)
    best = math.inf
    for _ in range(3):
        started = time.perf_counter()
        for _ in range(per_run):
            if shoe.cut_card_out:
                shoe.reshuffle()
            play_round(rules, shoe, strategy, even_money)
        best = min(best, time.perf_counter() - started)
    # apply() alone: replay recorded rounds through fresh Rounds.
    traces: list[list] = []
    shoe = _new_shoe(rules, "bench-trace")
    for _ in range(min(rounds, 50_000)):
        if shoe.cut_card_out:
            shoe.reshuffle()
        t: list = []
        play_round(rules, shoe, strategy, even_money, t)
        traces.append(t)
    applies = sum(len(t) for t in traces)
    replay = math.inf
    for _ in range(3):
        started = time.perf_counter()
        for t in traces:
            r = RoundState(rules, None, _BOXES, ShoeState(rules.decks))
            apply = r.apply
            for a in t:
                apply(a)
        replay = min(replay, time.perf_counter() - started)
    return {
        "rules": rules.name or rules.to_json(),
        "rounds": rounds,
        "rounds_per_second_per_core": round(per_run / best),
        "cores": os.cpu_count(),
        "applies_per_round": round(applies / len(traces), 2),
        "microseconds_per_apply": round(replay / applies * 1e6, 2),
        "note": "best of 3 runs; apply() timed by replaying recorded rounds (fresh RoundState and "
        "ShoeState each)",
    }
