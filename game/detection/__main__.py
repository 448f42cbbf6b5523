"""``python -m game.detection judge`` (docs/detection.md); the measurements are
``python -m benchmarks.detection bench|deviation|link|rules``."""

from __future__ import annotations

import argparse
import sys

from .judge import judge_lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m game.detection",
        description="Advantage-play and result-deviation detection (docs/detection.md).",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser(
        "judge",
        help="read sessions as JSON lines on stdin, print one verdict line per session",
        description='Each line: {"decks": 6, "rounds": [{"bet": "25", "cards": ["Th", ...], '
        '"shuffle_before": false}, ...]}. Prints {"alarm", "at_round", "score", ...} per line, '
        'or {"error": ...} for a line that cannot be judged (exit status 1 if any).',
    )
    parser.parse_args(argv)
    return 1 if judge_lines(sys.stdin, sys.stdout) else 0


if __name__ == "__main__":
    sys.exit(main())
