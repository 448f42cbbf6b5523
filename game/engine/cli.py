"""``python3 -m game.engine`` — play a scenario, measure a rule set's edge, benchmark.

python3 -m game.engine play FILE|- [--events]
python3 -m game.engine edge --rules standard --rounds 1000000 --seed 1 [--workers N]
                            [--reshuffle-every-round]
python3 -m game.engine bench [--rounds N]
python3 -m game.engine rules [--rules PRESET|JSON]   every key of a rule set, and its choices
"""

from __future__ import annotations

import argparse
import sys

from . import jsonout
from .errors import EngineError
from .rules import Rules


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python3 -m game.engine",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("play", help="play a scenario (JSON) and print the result")
    p.add_argument("file", help="scenario file, or - for standard input")
    p.add_argument(
        "--events",
        action="store_true",
        help='also print every event of the round, in order, under "events"',
    )
    e = sub.add_parser("edge", help="simulate basic strategy and print the house edge")
    e.add_argument("--rules", default="standard", help="preset name or rules JSON")
    e.add_argument("--rounds", type=int, default=1_000_000)
    e.add_argument("--seed", default="1")
    e.add_argument(
        "--reshuffle-every-round",
        action="store_true",
        help="shuffle before every round (as the rule key shuffle_every_round does)",
    )
    e.add_argument("--workers", type=int, default=None, help="processes (default: all cores)")
    b = sub.add_parser("bench", help="rounds per second per core and microseconds per apply()")
    b.add_argument("--rules", default="standard")
    b.add_argument("--rounds", type=int, default=200_000)
    s = sub.add_parser("strategy", help="print the basic strategy table for a rule set")
    s.add_argument("--rules", default="standard")
    k = sub.add_parser("rules", help="print a rule set with every key, and each key's values")
    k.add_argument("--rules", default="standard", help="preset name or rules JSON")
    args = parser.parse_args(argv)
    if args.command == "play":
        return _play(args)
    if args.command == "edge":
        return _edge(args)
    if args.command == "bench":
        return _bench(args)
    if args.command == "rules":
        return _rules(args)
    return _strategy(args)


def _rules_arg(text: str) -> Rules:
    text = text.strip()
    if text.startswith("{") or text.startswith('"'):
        return Rules.from_json(jsonout.loads(text))
    return Rules.from_json(text)


def _fail(error: dict) -> int:
    print(jsonout.dumps({"error": error}))
    return 2


def _play(args) -> int:
    from .scenario import ScenarioError, play

    try:
        if args.file == "-":
            text = sys.stdin.read()
        else:
            with open(args.file, encoding="utf-8") as f:
                text = f.read()
    except OSError as e:
        return _fail(
            {"code": "bad_scenario", "message": f"Cannot read {args.file}: {e}", "step": None}
        )
    try:
        scenario = jsonout.loads(text)
    except ValueError as e:
        return _fail({"code": "bad_scenario", "message": f"Not JSON: {e}", "step": None})
    events: list[dict] = []
    try:
        r = play(scenario, events)
    except ScenarioError as e:
        error = {"code": e.code, "message": e.message, "step": e.step}
        if args.events:
            out = {"error": error, "events": jsonout.OneLineItems(events)}
            print(jsonout.dumps(out, indent=2))
            return 2
        return _fail(error)
    out = r.result()
    if args.events:
        out["events"] = jsonout.OneLineItems(events)
    print(jsonout.dumps(out, indent=2))
    return 0


def _edge(args) -> int:
    from .simulate import edge

    try:
        rules = _rules_arg(args.rules)
    except (EngineError, ValueError) as e:
        return _fail({"code": getattr(e, "code", "bad_rules"), "message": str(e)})
    out = edge(
        rules,
        args.rounds,
        args.seed,
        reshuffle_every_round=args.reshuffle_every_round,
        workers=args.workers,
    )
    print(jsonout.dumps(out, indent=2))
    return 0


def _bench(args) -> int:
    from .simulate import bench

    print(jsonout.dumps(bench(_rules_arg(args.rules), args.rounds), indent=2))
    return 0


def _strategy(args) -> int:
    from .strategy import strategy_for

    print(jsonout.dumps(strategy_for(_rules_arg(args.rules)).describe(), indent=2))
    return 0


def _rules(args) -> int:
    """The rule set as the engine reads it (every key, a preset's values where not given),
    what it makes moot, and the values each key takes; a refused rule set exits 2."""
    from .rules import BOOLS, CHOICES, KEYS

    try:
        rules = _rules_arg(args.rules)
    except (EngineError, ValueError) as e:
        return _fail({"code": getattr(e, "code", "bad_rules"), "message": str(e)})
    numbers = {"decks": [1, 8], "max_hands": [1, 4], "max_boxes_per_player": [0, 7]}
    values = {
        key: list(CHOICES[key])
        if key in CHOICES
        else [False, True]
        if key in BOOLS
        else numbers[key]
        for key in KEYS
    }
    out = {
        "preset": rules.name,
        "rules": rules.to_json(),
        "moot": list(rules.moot),
        "burns_first_card": rules.burns_first_card,
        "values": values,
    }
    print(jsonout.dumps(out, indent=2))
    return 0
