"""``python -m game.detection judge``: one verdict line per session on stdin, a clear error
line for a session that cannot be judged; the benchmark's bettors never see the detector;
the judge uses the production settings."""

import json
import subprocess
import sys
from pathlib import Path

from django.conf import settings

from benchmarks import bettors
from game import detection

ROOT = Path(__file__).resolve().parents[2]


def run(args, stdin=""):
    return subprocess.run(
        [sys.executable, *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )


def test_the_judge_prints_one_verdict_per_session_and_an_error_line_for_bad_input():
    counter = bettors.play_shift("counter", rounds=200, seed="cli/counter")
    flat = bettors.play_shift("flat", rounds=50, seed="cli/flat")
    lines = [
        json.dumps({"decks": counter["decks"], "rounds": counter["rounds"]}),
        "",  # a blank line is not a session
        json.dumps(flat),
        '{"decks": 6, "rounds": [{"bet": "25", "cards": ["Th", "Zz"], "shuffle_before": false}]}',
        '{"decks": 6, "rounds": [{"bet": "-5", "cards": []}]}',
        '{"decks": 12, "rounds": []}',
        "{not json",
        '{"decks": 1, "rounds": [{"bet": "10", "cards": ["As", "As"]}]}',
    ]
    done = run(["-m", "game.detection", "judge"], "\n".join(lines) + "\n")
    assert done.returncode == 1  # some lines were bad
    assert "Traceback" not in done.stderr
    out = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(out) == 7
    first, second, *errors = out
    assert first == detection.judge(counter)  # the same verdict as in-process
    assert first["alarm"] is True and 1 <= first["at_round"] <= 200
    assert first["score"] >= 4.605  # ln(1/0.01): the alarm's level
    assert second == {
        "alarm": False,
        "at_round": None,
        "score": 0.0,
        "rounds": 50,
        "played": 50,
        "advantage": second["advantage"],
    }
    messages = [e["error"] for e in errors]
    assert messages[0].startswith("line 4: round 1: Not a card: 'Zz'")
    assert messages[1] == "line 5: round 1: bet must be 0 or a positive amount, not '-5'"
    assert messages[2] == "line 6: decks must be a whole number from 1 to 8, not 12"
    assert messages[3].startswith("line 7: not JSON")
    assert "cannot hold another As" in messages[4]


def test_a_clean_input_exits_zero():
    session = bettors.play_shift("random", rounds=30, seed="cli/random")
    done = run(["-m", "game.detection", "judge"], json.dumps(session) + "\n")
    assert done.returncode == 0, done.stderr
    assert set(json.loads(done.stdout)) >= {"alarm", "at_round", "score"}


def test_the_bettors_never_import_the_detector():
    done = run(
        [
            "-c",
            "import sys, benchmarks.bettors; "
            "print(sorted(m for m in sys.modules if m.startswith('game.detection')))",
        ]
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_the_judge_uses_the_production_settings():
    assert settings.ADVANTAGE_ALPHA == detection.ALPHA
    assert settings.DEVIATION_SIGMAS == detection.SIGMAS
    assert settings.DEVIATION_MIN_ROUNDS == detection.MIN_ROUNDS
