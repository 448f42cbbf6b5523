"""Advantage-play and result-deviation statistics: pure Python (standard library and the
engine only, no Django), so they are tested and measured without a database.

* **The true count** (Hi-Lo): 2-6 count +1, 7-9 count 0, tens and aces count −1; the running
  count of the cards already out of the shoe divided by the decks still in it is the true
  count before a round. The table knows every card out (the shoe's ``out_ranks``), so it
  knows the count exactly.
* **Bet-count correlation**: a counter bets more when the true count is high. For one box,
  the statistic is Spearman's rank correlation ρ between the box's bet and the true count
  before the round, over the box's rounds; a box is flagged when it has at least
  ``min_rounds`` rounds with a varying bet and ρ ≥ ``threshold``. Measured false-alarm and
  detection rates: docs/detection.md (``python -m game.detection``).
* **Result deviation**: the house's result against its theoretical result (house edge × total
  bet) in standard deviations of the rule set's per-hand result.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from decimal import Decimal

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

# Standard deviation of the house's result per hand, in initial bets: measured with the
# engine's simulator (docs/engine.md, "Measured house edges", 20,000,000 rounds per preset).
SD_PER_HAND = {"standard": 1.134, "hole-card": 1.154, "open-cards": 1.294}
SD_PER_HAND_DEFAULT = 1.15


def running_count(out_ranks: dict[str, int]) -> int:
    """Hi-Lo running count of the cards out of the shoe (``{rank: how many out}``)."""
    return sum(HI_LO.get(rank, 0) * int(n) for rank, n in out_ranks.items())


def true_count(out_ranks: dict[str, int], decks: int) -> float:
    """Running count per deck still in the shoe (at least half a deck, as a counter reckons)."""
    out = sum(int(n) for n in out_ranks.values())
    decks_left = max((decks * 52 - out) / 52, 0.5)
    return running_count(out_ranks) / decks_left


def _ranks(values: Sequence[float]) -> list[float]:
    """Ranks 1..n, ties sharing their average rank."""
    order = sorted(range(len(values)), key=values.__getitem__)
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        average = (i + j) / 2 + 1
        for k in range(i, j + 1):
            ranks[order[k]] = average
        i = j + 1
    return ranks


def pearson(xs: Sequence[float], ys: Sequence[float]) -> float | None:
    """Pearson's correlation, or None when either series is constant (or too short)."""
    n = len(xs)
    if n < 2 or n != len(ys):
        return None
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    if sxx <= 0 or syy <= 0:
        return None
    return sxy / math.sqrt(sxx * syy)


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float | None:
    """Spearman's rank correlation (Pearson's on average ranks), None if undefined."""
    if len(xs) != len(ys):
        return None
    return pearson(_ranks(list(xs)), _ranks(list(ys)))


def bet_count_correlation(
    rounds: Iterable[tuple[float, float]],
    *,
    min_rounds: int,
    threshold: float,
    min_z: float = 0.0,
) -> dict:
    """Judge one box from ``(true count, bet)`` pairs, one per round it played.

    Returns ``{"rounds": n, "rho": ρ or None, "z": z or None, "flagged": bool}``: flagged
    when at least ``min_rounds`` rounds are known, the bet varied, ρ ≥ ``threshold`` and
    z = ρ·√(n−1) ≥ ``min_z`` (under independence z is about standard normal, so ``min_z``
    bounds the false alarms whatever n). A flat bettor is never flagged (ρ is undefined for
    a constant bet).
    """
    pairs = list(rounds)
    counts = [float(c) for c, _ in pairs]
    bets = [float(b) for _, b in pairs]
    rho = spearman(counts, bets) if len(pairs) >= 2 else None
    z = None if rho is None else rho * math.sqrt(len(pairs) - 1)
    flagged = rho is not None and len(pairs) >= min_rounds and rho >= threshold and z >= min_z
    return {"rounds": len(pairs), "rho": rho, "z": z, "flagged": flagged}


def result_deviation(
    *, house_net: Decimal, bets: Iterable[Decimal], house_edge: float, sd_per_hand: float
) -> dict:
    """How far the house's result is from its theoretical result, in standard deviations.

    ``bets``: the total bet of each round. The theoretical result is edge × Σ bets; the
    standard deviation sd × √Σ bet², treating a round's boxes as one hand of their total bet
    (boxes share the dealer's hand, so their results are positively correlated: this is the
    cautious, wider figure). Returns ``{"theoretical", "sd", "z"}`` (z None with no bets).
    """
    bets = [float(b) for b in bets]
    theoretical = house_edge * sum(bets)
    sd = sd_per_hand * math.sqrt(sum(b * b for b in bets))
    z = (float(house_net) - theoretical) / sd if sd > 0 else None
    return {"theoretical": theoretical, "sd": sd, "z": z}


# -- measuring the statistic on simulated play ---------------------------------------------


def counter_units(tc: float, spread: int = 8) -> int:
    """A counter's bet in units: 1 up to a true count of 1, then ramping to ``spread``."""
    table = {2: 2, 3: 4, 4: 6}
    t = math.floor(tc)
    if t < 2:
        return 1
    return min(spread, table.get(t, spread))


def simulate_box(
    *, bettor: str, rounds: int, seed: str, preset: str = "standard", spread: int = 8
) -> list[tuple[float, float]]:
    """Play ``rounds`` rounds of one box with basic strategy on a seeded six-deck virtual shoe
    (cut card at 70%, as the engine's simulator) and return ``(true count, bet)`` per round.

    ``bettor``: ``flat`` (always 1 unit), ``random`` (1-``spread`` units at random, blind to
    the count: a recreational bettor, the false-alarm case) or ``counter`` (Hi-Lo,
    :func:`counter_units`).
    """
    from game.engine.actions import CLOSE_BETS, INSURANCE_CLOSED, Bet, deal
    from game.engine.cards import ALL_SUITED
    from game.engine.round import RoundState
    from game.engine.rules import Rules
    from game.engine.simulate import _new_shoe
    from game.engine.strategy import decide, strategy_for

    rules = Rules.from_json({"preset": preset})
    shoe = _new_shoe(rules, seed)
    strategy = strategy_for(rules)
    deals = [deal(c) for c in ALL_SUITED]
    rng = random.Random(f"bets/{seed}")
    unit = Decimal(10)
    out = []
    for _ in range(rounds):
        if shoe.cut_card_out:
            shoe.reshuffle()
        state = shoe.to_dict()
        tc = true_count(state.get("out_ranks", {}), shoe.decks)
        if bettor == "counter":
            units = counter_units(tc, spread)
        elif bettor == "random":
            units = rng.randint(1, spread)
        else:
            units = 1
        stake = unit * units
        out.append((tc, float(stake)))
        r = RoundState(rules, None, (1,), shoe)
        r.apply(Bet(1, stake))
        r.apply(CLOSE_BETS)
        col = -1
        while r.phase != "settled":
            if r.phase == "players" and r._need == "decision":
                if col < 0:
                    col = strategy.column(r.dealer)
                action = decide(strategy, r, col) or deals[shoe.next_card().index]
            elif r.phase == "insurance":
                action = INSURANCE_CLOSED
            else:
                action = deals[shoe.next_card().index]
            r.apply(action)
    return out


def measure(
    *,
    sessions: int = 200,
    rounds: Sequence[int] = (30, 50, 100),
    threshold: float = 0.3,
    min_z: float = 3.0,
    seed: str = "detection",
) -> list[dict]:
    """Flag rates of :func:`bet_count_correlation` per bettor and per number of rounds
    observed (each session: one box, its first N rounds, ``min_rounds`` = N)."""
    longest = max(rounds)
    rows = []
    for bettor in ("flat", "random", "counter"):
        plays = [
            simulate_box(bettor=bettor, rounds=longest, seed=f"{seed}/{bettor}/{i}")
            for i in range(sessions)
        ]
        for n in rounds:
            flagged = sum(
                bet_count_correlation(p[:n], min_rounds=n, threshold=threshold, min_z=min_z)[
                    "flagged"
                ]
                for p in plays
            )
            rows.append(
                {
                    "bettor": bettor,
                    "rounds": n,
                    "sessions": sessions,
                    "flagged": flagged,
                    "rate": flagged / sessions,
                }
            )
    return rows


def main(argv: list[str] | None = None) -> None:
    import argparse

    parser = argparse.ArgumentParser(description="Measure the bet-count correlation alarm.")
    parser.add_argument("--sessions", type=int, default=200)
    parser.add_argument("--rounds", default="30,50,100,200,400")
    parser.add_argument("--threshold", type=float, default=0.3)
    parser.add_argument("--min-z", type=float, default=3.0)
    parser.add_argument("--seed", default="detection")
    args = parser.parse_args(argv)
    rows = measure(
        sessions=args.sessions,
        rounds=[int(n) for n in args.rounds.split(",")],
        threshold=args.threshold,
        min_z=args.min_z,
        seed=args.seed,
    )
    print(
        f"flag: rho >= {args.threshold} and rho*sqrt(n-1) >= {args.min_z}; "
        f"{args.sessions} sessions per bettor"
    )
    print("bettor   rounds  flagged  rate")
    for row in rows:
        print(f"{row['bettor']:<8} {row['rounds']:>6} {row['flagged']:>8}  {row['rate']:.1%}")


if __name__ == "__main__":
    main()
