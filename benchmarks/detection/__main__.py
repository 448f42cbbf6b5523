"""``python -m benchmarks.detection bench|deviation|link|rules``: the detector measured on
simulated play (docs/detection.md); the detector itself is ``game.detection``."""

from __future__ import annotations

import argparse
import json
import sys
import time

from . import bench


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.detection",
        description="The detection measured on simulated play (docs/detection.md).",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("bench", help="false-alarm and detection rates on simulated bettors")
    b.add_argument("--sessions", type=int, default=200, help="player-shifts per bettor")
    b.add_argument("--seed", default="bench")
    b.add_argument("--rounds", type=int, default=200, help="rounds per player-shift")
    b.add_argument("--others", type=int, default=2, help="other players at the table")
    b.add_argument(
        "--shifts", type=int, default=1, help="player-shifts per player, evidence carried on"
    )
    b.add_argument("--bettors", default="", help="comma-separated names (default: all)")
    b.add_argument("--workers", type=int, default=None)
    d = sub.add_parser("deviation", help="how often a fair shift crosses the deviation alarm")
    d.add_argument("--shifts", type=int, default=2000)
    d.add_argument("--lengths", default="60,200,400,600")
    d.add_argument("--sigmas", default="3.0,3.5,3.7,3.8,3.9,4.0")
    d.add_argument("--boxes", type=int, default=7)
    d.add_argument("--spread", type=int, default=1, help="box bets of 1 to N units")
    d.add_argument("--preset", default="standard")
    d.add_argument("--pool-shoes", type=int, default=4000)
    d.add_argument("--seed", default="deviation")
    d.add_argument("--workers", type=int, default=None)
    k = sub.add_parser(
        "link", help="what a player's own last result reveals of the count's next change"
    )
    k.add_argument("--sessions", type=int, default=500, help="flat player-shifts of 200 rounds")
    k.add_argument("--others", type=int, default=0)
    k.add_argument("--seed", default="link")
    k.add_argument("--workers", type=int, default=None)
    r = sub.add_parser("rules", help="a rule set's SD per hand, box correlation, edge per count")
    r.add_argument("--preset", default="standard")
    r.add_argument("--rounds", type=int, default=200_000)
    r.add_argument("--boxes", type=int, default=7)
    r.add_argument("--seed", default="rules")
    r.add_argument("--workers", type=int, default=None)
    args = parser.parse_args(argv)

    if args.command == "bench":
        bench.main_bench(args)
    elif args.command == "link":
        result = bench.link_bench(
            sessions=args.sessions, others=args.others, seed=args.seed, workers=args.workers
        )
        for outcome, f in result.items():
            print(
                f"after a {outcome:<4}: {f['rounds']:>7} rounds, count's next change "
                f"{f['mean']:+.3f} ± {f['se']:.3f} SD (spread {f['sd']:.3f})"
            )
    elif args.command == "deviation":
        started = time.perf_counter()
        result = bench.deviation_bench(
            shifts=args.shifts,
            lengths=[int(n) for n in args.lengths.split(",")],
            sigmas=[float(c) for c in args.sigmas.split(",")],
            boxes=args.boxes,
            preset=args.preset,
            pool_shoes=args.pool_shoes,
            spread=args.spread,
            seed=args.seed,
            workers=args.workers,
        )
        bench.print_deviation(result, seconds=time.perf_counter() - started)
    else:
        figures = bench.rules_figures(
            preset=args.preset,
            rounds=args.rounds,
            boxes=args.boxes,
            seed=args.seed,
            workers=args.workers,
        )
        print(
            json.dumps({k: round(v, 6) if isinstance(v, float) else v for k, v in figures.items()})
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
