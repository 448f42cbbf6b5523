"""Measuring the detection on simulated play
(``python -m benchmarks.detection bench|deviation|link|rules``).

``bench`` plays player-shifts with the bettors of :mod:`benchmarks.bettors` (written apart from the
detector: that module never imports it) and judges each exactly as ``judge`` does — after
every round, production settings. ``deviation`` measures how often a fair table's shift
result crosses the deviation threshold when checked after every round. ``rules`` measures,
for a rule set, a box's standard deviation, the correlation between boxes of one round and how
the player's edge moves with the true count. Every figure in docs/detection.md comes from one
of these commands.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import random
import time
from decimal import Decimal

from benchmarks import bettors
from game.detection import deviation as dev
from game.detection.advantage import CountTrack
from game.detection.count import HI_LO, ShoeCounter
from game.detection.judge import judge
from game.engine.actions import CLOSE_BETS, INSURANCE_CLOSED, Bet, deal
from game.engine.cards import ALL_SUITED, ShoeState
from game.engine.round import RoundState
from game.engine.rules import Rules
from game.engine.strategy import decide, strategy_for

# The targets of issue 15 (player-shifts of 200 rounds, checked after every round).
TARGETS = {
    **dict.fromkeys(bettors.BLIND, ("false alarms", 200, "<=", 0.01)),
    "counter": ("caught", 100, ">=", 0.50),
    "camouflage": ("caught", 200, ">=", 0.50),
    "random-camouflage": ("caught", 200, ">=", 0.50),  # issue 23 item 9
    "wonger": ("caught", 200, ">=", 0.80),
}
COUNTER_BY_200 = 0.80  # and the plain counter by round 200


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson score interval of a proportion k/n."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _pool(workers: int | None):
    workers = workers or os.cpu_count() or 1
    return multiprocessing.get_context("fork").Pool(workers), workers


# -- advantage play -------------------------------------------------------------------------


def _judge_shift(job: tuple) -> tuple:
    """One player, ``shifts`` player-shifts in a row: each judged afresh, the log-evidence of
    the shifts before carried on (as a player card's history would be). The round of the
    first alarm counts from his first shift."""
    name, seed, rounds, others, shifts = job
    carried = 0.0
    staked = []
    for k in range(shifts):
        shift_seed = seed if k == 0 else f"{seed}/{k}"
        session = bettors.play_shift(name, rounds=rounds, seed=shift_seed, others=others)
        verdict = judge(session, carried=carried)
        if verdict["advantage"] is not None:
            staked.append(verdict["advantage"])
        if verdict["alarm"]:
            at = k * rounds + verdict["at_round"]
            return name, at, sum(staked) / len(staked)
        carried = verdict["evidence"]
    return name, None, sum(staked) / len(staked) if staked else None


def advantage_bench(
    *,
    sessions: int,
    seed: str = "bench",
    rounds: int = 200,
    others: int = 2,
    shifts: int = 1,
    names: list[str] | None = None,
    workers: int | None = None,
) -> list[dict]:
    """For each bettor, ``sessions`` players of ``shifts`` player-shifts of ``rounds`` rounds
    with ``others`` other players at the table; how many alarmed by round 100 and by the
    end."""
    names = names or list(bettors.BETTORS)
    jobs = [
        (name, f"{seed}/{name}/{i}", rounds, others, shifts)
        for name in names
        for i in range(sessions)
    ]
    pool, _ = _pool(workers)
    with pool:
        results = pool.map(_judge_shift, jobs, chunksize=8)
    rows = []
    for name in names:
        mine = [r for r in results if r[0] == name]
        n = len(mine)
        by_100 = sum(1 for _, at, _ in mine if at is not None and at <= 100)
        by_end = sum(1 for _, at, _ in mine if at is not None)
        edges = [e for _, _, e in mine if e is not None]
        rows.append(
            {
                "bettor": name,
                "sessions": n,
                "by_100": by_100,
                "by_end": by_end,
                "ci_100": wilson(by_100, n),
                "ci_end": wilson(by_end, n),
                "edge": sum(edges) / len(edges) if edges else None,
            }
        )
    return rows


def _target_text(row: dict, rounds: int) -> str:
    target = TARGETS.get(row["bettor"])
    if target is None:
        return "no target"
    if rounds != 200:
        return "(the targets are for single 200-round shifts)"
    what, at, op, level = target
    parts = []
    checks = [(at, level, op)]
    if row["bettor"] == "counter":
        checks.append((200, COUNTER_BY_200, ">="))
    for at, level, op in checks:
        key = "by_100" if at == 100 else "by_end"
        rate = row[key] / row["sessions"]
        ok = rate <= level if op == "<=" else rate >= level
        parts.append(f"{op} {level:.0%} by {at}: {'met' if ok else 'MISSED'}")
    return "; ".join(parts)


def print_advantage(
    rows: list[dict], *, rounds: int, others: int, shifts: int, seed: str, seconds: float
):
    played = f"{shifts} player-shifts in a row (evidence carried) of" if shifts > 1 else ""
    print(
        f"{played or 'player-shifts of'} {rounds} rounds, standard preset, 6 decks, cut at "
        f"70 %, {others} other player(s) at the table, checked after every round; seed "
        f"{seed!r}; {seconds:.0f} s"
    )
    rounds *= shifts
    print(
        f"{'bettor':<16} {'n':>6}  {'alarm by 100':>22}  {'alarm by ' + str(rounds):>22}"
        f"  {'edge':>7}  target"
    )
    for row in rows:
        n = row["sessions"]
        lo1, hi1 = row["ci_100"]
        lo2, hi2 = row["ci_end"]
        edge = "" if row["edge"] is None else f"{row['edge']:+.2%}"
        print(
            f"{row['bettor']:<16} {n:>6}  {row['by_100'] / n:>6.1%} [{lo1:5.1%}-{hi1:5.1%}]"
            f"  {row['by_end'] / n:>6.1%} [{lo2:5.1%}-{hi2:5.1%}]  {edge:>7}  "
            f"{_target_text(row, rounds)}"
        )


# -- how a bet on the player's own result is tied to the count ------------------------------


def _link_part(job: tuple) -> dict:
    seed, rounds, others = job
    session = bettors.play_shift("flat", rounds=rounds, seed=seed, others=others)
    track = CountTrack()
    sums: dict[str, list[float]] = {}
    counter = None
    previous = None
    for r in session["rounds"]:
        if counter is None or r["shuffle_before"]:
            counter = ShoeCounter(session["decks"])
        step = track.step(counter.state(), r["shuffle_before"])
        if step is not None and previous is not None:
            net = Decimal(previous)
            outcome = "win" if net > 0 else "loss" if net < 0 else "push"
            z = step[1] / step[2]
            acc = sums.setdefault(outcome, [0, 0.0, 0.0])
            acc[0] += 1
            acc[1] += z
            acc[2] += z * z
        for code in r["cards"]:
            counter.take(code)
        previous = r["net"]
    return sums


def link_bench(*, sessions: int, others: int, seed: str = "link", workers=None) -> dict:
    """The mean and SD of the count's next change, in its own standard deviations, after the
    player's box won, lost or pushed: what a bet on his own last result reveals of the count."""
    pool, _ = _pool(workers)
    with pool:
        parts = pool.map(_link_part, [(f"{seed}/{i}", 200, others) for i in range(sessions)])
    out = {}
    for outcome in ("win", "loss", "push"):
        n = sum(p[outcome][0] for p in parts if outcome in p)
        s1 = sum(p[outcome][1] for p in parts if outcome in p)
        s2 = sum(p[outcome][2] for p in parts if outcome in p)
        mean = s1 / n
        sd = math.sqrt(s2 / n - mean * mean)
        out[outcome] = {"rounds": n, "mean": mean, "sd": sd, "se": sd / math.sqrt(n)}
    return out


# -- the rule set's figures -----------------------------------------------------------------


_DEAL = [deal(c) for c in ALL_SUITED]


def _play(rules: Rules, strategy, shoe: ShoeState, boxes: int) -> list[float]:
    """One round of ``boxes`` boxes of 1 unit, basic strategy; each box's result in units."""
    r = RoundState(rules, None, tuple(range(1, boxes + 1)), shoe)
    for b in range(1, boxes + 1):
        r.apply(Bet(b, Decimal(10)))
    r.apply(CLOSE_BETS)
    col = -1
    while r.phase != "settled":
        if r.phase == "players" and r._need == "decision":
            if col < 0:
                col = strategy.column(r.dealer)
            action = decide(strategy, r, col) or _DEAL[shoe.next_card().index]
        elif r.phase == "insurance":
            action = INSURANCE_CLOSED
        else:
            action = _DEAL[shoe.next_card().index]
        r.apply(action)
    return [float(b.net) / 10 for b in r.seats]


def _shoe(rules: Rules, seed: str) -> ShoeState:
    shoe = ShoeState.shuffled(rules.decks, seed, bettors.PENETRATION)
    shoe.cut = min(shoe.cut, shoe.size - 40)
    return shoe


def _rules_part(job: tuple) -> tuple:
    preset, rounds, boxes, seed = job
    rules = Rules.preset(preset)
    strategy = strategy_for(rules)
    shoe = _shoe(rules, seed)
    n = s1 = s2 = pairs = cross = 0.0
    tn = tx = ty = txx = txy = 0.0
    for _ in range(rounds):
        if shoe.cut_card_out:
            shoe.reshuffle()
        state = shoe.to_dict()
        out = state.get("out_ranks", {})
        seen = sum(out.values())
        tc = 52 * sum(HI_LO[r] * k for r, k in out.items()) / (shoe.size - seen)
        nets = _play(rules, strategy, shoe, boxes)
        for i, x in enumerate(nets):
            n += 1
            s1 += x
            s2 += x * x
            tn += 1
            tx += tc
            ty += x
            txx += tc * tc
            txy += tc * x
            for y in nets[i + 1 :]:
                pairs += 1
                cross += x * y
    return n, s1, s2, pairs, cross, tn, tx, ty, txx, txy


def rules_figures(
    *, preset: str, rounds: int, boxes: int, seed: str = "rules", workers=None
) -> dict:
    """A box's mean and standard deviation per initial bet, the correlation of two boxes'
    results in one round, and the player's edge against the exact true count (least squares:
    edge ≈ intercept + slope × true count)."""
    pool, workers = _pool(workers)
    chunks = max(workers * 4, 1)
    jobs = [(preset, rounds // chunks, boxes, f"{seed}/{i}") for i in range(chunks)]
    with pool:
        parts = pool.map(_rules_part, jobs)
    n, s1, s2, pairs, cross, tn, tx, ty, txx, txy = (sum(p[i] for p in parts) for i in range(10))
    mean = s1 / n
    var = s2 / n - mean * mean
    rho = (cross / pairs - mean * mean) / var if pairs else None
    slope = (txy / tn - tx / tn * ty / tn) / (txx / tn - (tx / tn) ** 2)
    slope_se = math.sqrt(var / (txx - tx * tx / tn))
    return {
        "preset": preset,
        "boxes": boxes,
        "rounds": int(n // boxes),
        "house_edge": -mean,
        "sd_per_hand": math.sqrt(var),
        "box_correlation": rho,
        "edge_per_true_count": slope,
        "edge_per_true_count_se": slope_se,
        "edge_at_zero": ty / tn - slope * tx / tn,
    }


# -- result deviation -----------------------------------------------------------------------


def _shoes_part(job: tuple) -> list[list[list[float]]]:
    preset, shoes, boxes, seed = job
    rules = Rules.preset(preset)
    strategy = strategy_for(rules)
    shoe = _shoe(rules, seed)
    out = []
    for _ in range(shoes):
        shoe.reshuffle()
        rounds = []
        while not shoe.cut_card_out:
            rounds.append(_play(rules, strategy, shoe, boxes))
        out.append(rounds)
    return out


def deviation_bench(
    *,
    shifts: int,
    lengths: list[int],
    sigmas: list[float],
    boxes: int,
    preset: str = "standard",
    pool_shoes: int = 4000,
    spread: int = 1,
    seed: str = "deviation",
    workers=None,
) -> dict:
    """How often a fair table's shift crosses ``c`` standard deviations at some round from
    ``MIN_ROUNDS`` on, checked after every round, for each shift length and each ``c``.

    Shifts are drawn as whole simulated shoes (a pool of ``pool_shoes`` shoes of ``boxes``
    boxes, basic strategy), so the rounds of a shoe stay together; box bets are 1 to
    ``spread`` units at random. ``new`` uses the standard deviation with the boxes'
    correlation, ``old`` counts each round as one hand of its total bet (the rule before).
    """
    pool, workers = _pool(workers)
    chunks = max(workers * 4, 1)
    jobs = [(preset, pool_shoes // chunks, boxes, f"{seed}/{i}") for i in range(chunks)]
    with pool:
        shoes = [s for part in pool.map(_shoes_part, jobs) for s in part]
    rules = Rules.preset(preset)
    sd = dev.SD_PER_HAND.get(preset, dev.SD_PER_HAND_DEFAULT)
    rho = dev.BOX_CORRELATION.get(preset, dev.BOX_CORRELATION_DEFAULT)
    edge = sum(x for s in shoes for r in s for x in r) / sum(len(r) for s in shoes for r in s)
    edge = -edge  # the pool's own house edge: the test is of the spread, not of the edge
    rng = random.Random(seed)
    longest = max(lengths)
    worst = {"new": {n: [] for n in lengths}, "old": {n: [] for n in lengths}}
    for _ in range(shifts):
        excess = var_new = var_old = 0.0
        top_new = top_old = 0.0
        played = 0
        while played < longest:
            for nets in rng.choice(shoes):
                if played >= longest:
                    break
                played += 1
                bets = [rng.randint(1, spread) for _ in nets]
                total = sum(bets)
                excess += -sum(b * x for b, x in zip(bets, nets, strict=True)) - edge * total
                square = sum(b * b for b in bets)
                var_new += sd * sd * ((1 - rho) * square + rho * total * total)
                var_old += sd * sd * total * total
                if played >= dev.MIN_ROUNDS:
                    top_new = max(top_new, abs(excess) / math.sqrt(var_new))
                    top_old = max(top_old, abs(excess) / math.sqrt(var_old))
                if played in worst["new"]:
                    worst["new"][played].append(top_new)
                    worst["old"][played].append(top_old)
    rates = {
        kind: {n: {c: sum(1 for w in worst[kind][n] if w >= c) for c in sigmas} for n in lengths}
        for kind in worst
    }
    return {
        "preset": rules.name,
        "boxes": boxes,
        "spread": spread,
        "shifts": shifts,
        "pool_shoes": len(shoes),
        "rates": rates,
    }


def print_deviation(result: dict, *, seconds: float) -> None:
    n = result["shifts"]
    print(
        f"{result['preset']}, {result['boxes']} box(es) of 1-{result['spread']} units, "
        f"{n} fair shifts drawn from {result['pool_shoes']} simulated shoes; alarm when "
        f"|z| >= c at any round from {dev.MIN_ROUNDS} on; {seconds:.0f} s"
    )
    for kind, label in (("new", "SD with box correlation"), ("old", "round = one hand (old)")):
        rates = result["rates"][kind]
        sigmas = sorted(next(iter(rates.values())))
        print(f"{label}:")
        print("  rounds  " + "  ".join(f"{c:>5.2f}σ" for c in sigmas))
        for length, row in rates.items():
            print(f"  {length:>6}  " + "  ".join(f"{row[c] / n:>6.2%}" for c in sigmas))


def main_bench(args) -> None:
    started = time.perf_counter()
    rows = advantage_bench(
        sessions=args.sessions,
        seed=args.seed,
        rounds=args.rounds,
        others=args.others,
        shifts=args.shifts,
        names=args.bettors.split(",") if args.bettors else None,
        workers=args.workers,
    )
    print_advantage(
        rows,
        rounds=args.rounds,
        others=args.others,
        shifts=args.shifts,
        seed=args.seed,
        seconds=time.perf_counter() - started,
    )
