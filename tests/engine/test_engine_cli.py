"""The command line is a contract: ``python3 -m game.engine play|edge|bench``."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def engine(*args, stdin=None):
    proc = subprocess.run(
        [sys.executable, "-m", "game.engine", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    return proc.returncode, proc.stdout, proc.stderr


def play(scenario):
    code, out, err = engine("play", "-", stdin=json.dumps(scenario))
    return code, json.loads(out)


def test_must_hold_dealer_draws_and_busts():
    code, res = play(
        {"rules": "standard", "bets": {"1": 100}, "script": ["Th", "6d", "9c", "stand", "Ks", "Qd"]}
    )
    assert code == 0
    assert res["finished"] is True
    assert res["dealer"]["cards"] == ["6d", "Ks", "Qd"] and res["dealer"]["bust"] is True
    assert res["boxes"][0]["box"] == 1 and res["boxes"][0]["net"] == 100
    hand = res["boxes"][0]["hands"][0]
    assert hand == {
        **hand,
        "cards": ["Th", "9c"],
        "total": 19,
        "soft": False,
        "bet": 100,
        "doubled": False,
        "result": "win",
        "net": 100,
    }
    assert res["boxes"][0]["insurance"] is None
    assert res["net"] == 100


def test_must_hold_blackjack_paid_at_once():
    code, res = play({"rules": "standard", "bets": {"1": 100}, "script": ["As", "5d", "Kh"]})
    assert code == 0 and res["finished"] is True
    assert res["dealer"] == {**res["dealer"], "cards": ["5d"], "blackjack": False, "bust": False}
    assert res["net"] == 150 and res["boxes"][0]["net"] == 150


def test_amounts_are_json_numbers_with_halves():
    code, out, _ = engine(
        "play",
        "-",
        stdin=json.dumps(
            {
                "rules": {"preset": "standard"},
                "limits": {"min": 10, "max": 500},
                "bets": {"1": 15},
                "script": ["As", "5d", "Kh"],
            }
        ),
    )
    assert code == 0
    assert '"net": 22.5' in out and '"bet": 15' in out and "15.0" not in out


def test_unfinished_round_says_what_it_waits_for(tmp_path):
    f = tmp_path / "s.json"
    f.write_text(json.dumps({"rules": "standard", "bets": {"1": 100}, "script": ["Th", "6d"]}))
    code, out, _ = engine("play", str(f))
    res = json.loads(out)
    assert code == 0 and res["finished"] is False and res["awaiting"] == "card:box 1"


@pytest.mark.parametrize(
    ("scenario", "code", "step"),
    [
        ({"rules": "standard", "bets": {"1": 100}, "script": ["Th", "Zz"]}, "bad_card", 1),
        (
            {
                "rules": "standard",
                "limits": {"min": 10, "max": 500},
                "bets": {"1": 1000},
                "script": [],
            },
            "bet_over_maximum",
            None,
        ),
        (
            {"rules": "standard", "bets": {"1": 100}, "script": ["As", "5d", "Kh", "stand"]},
            "round_over",
            3,
        ),
        ({"rules": "nope", "bets": {"1": 100}, "script": []}, "bad_rules", None),
    ],
)
def test_illegal_scenario_exits_2_with_an_error(scenario, code, step):
    rc, res = play(scenario)
    assert rc == 2
    assert res["error"]["code"] == code and res["error"]["step"] == step
    assert res["error"]["message"]


def test_not_json_exits_2():
    rc, out, _ = engine("play", "-", stdin="{nope")
    assert rc == 2 and json.loads(out)["error"]["code"] == "bad_scenario"


def test_edge_prints_an_edge_with_its_standard_error():
    rc, out, _ = engine(
        "edge", "--rules", "hole-card", "--rounds", "3000", "--seed", "7", "--reshuffle-every-round"
    )
    res = json.loads(out)
    assert rc == 0 and res["rounds"] == 3000 and res["rules"] == "hole-card"
    assert -0.2 < res["house_edge"] < 0.2 and 0 < res["stderr"] < 0.05


def test_edge_accepts_rules_json():
    rc, out, _ = engine(
        "edge",
        "--rules",
        '{"preset": "standard", "ties": "dealer"}',
        "--rounds",
        "2000",
        "--seed",
        "1",
    )
    res = json.loads(out)
    assert rc == 0 and res["rules"]["ties"] == "dealer"


def test_play_with_events_prints_every_event_in_order():
    scenario = {"rules": "standard", "bets": {"1": 15}, "script": ["As", "5d", "Kh"]}
    code, out, _ = engine("play", "--events", "-", stdin=json.dumps(scenario))
    assert code == 0
    res = json.loads(out)
    assert res["net"] == 22.5
    assert [e["kind"] for e in res["events"]] == [
        "bet",
        "bets_closed",
        "card",
        "card",
        "card",
        "blackjack_paid",
        "dealer_stops",
        "round_settled",
    ]
    assert res["events"][5] == {"kind": "blackjack_paid", "box": 1, "hand": 1, "net": "22.5"}
    # One event a line, so a log reads (and greps) as a log.
    lines = out.splitlines()
    assert '    {"kind": "blackjack_paid", "box": 1, "hand": 1, "net": "22.5"},' in lines
    # Without the flag: the result alone, as before.
    code, out, _ = engine("play", "-", stdin=json.dumps(scenario))
    assert code == 0 and "events" not in json.loads(out)


def test_play_with_events_shows_the_events_before_a_refused_step():
    scenario = {"rules": "hole-card", "bets": {"1": 100}, "script": ["8h", "6d", "8c", "Kd"]}
    scenario["script"] += ["split", "3c", "stand"]  # both-hands: hand 2's card comes first
    code, out, _ = engine("play", "--events", "-", stdin=json.dumps(scenario))
    assert code == 2
    res = json.loads(out)
    assert res["error"]["code"] == "illegal_action" and res["error"]["step"] == 6
    assert res["events"][-1] == {
        "kind": "card",
        "to": "box",
        "box": 1,
        "hand": 1,
        "card": "3c",
        "total": 11,
        "soft": False,
    }


def test_rules_prints_every_key_with_its_values_and_refuses_a_bad_one():
    rc, out, _ = engine(
        "rules", "--rules", '{"preset": "hole-card", "dealer_cards": "one", "burn_card": "always"}'
    )
    res = json.loads(out)
    assert rc == 0 and res["preset"] is None and res["burns_first_card"] is True
    assert res["rules"]["insurance_amount"] == "up-to-half"
    assert res["values"]["insurance_amount"] == ["up-to-half", "half"]
    assert res["values"]["cut_card"] == ["quarter-third", "near-end", "in-play-200-220"]
    assert res["values"]["shuffle_every_round"] == [False, True]
    rc, out, _ = engine("rules", "--rules", '{"preset": "standard", "insurance_amount": "most"}')
    assert rc == 2 and json.loads(out)["error"]["code"] == "bad_rules"


def test_edge_reads_the_shuffle_every_round_key():
    rc, out, _ = engine(
        "edge",
        "--rules",
        '{"preset": "open-cards", "shuffle_every_round": true}',
        "--rounds",
        "2000",
        "--seed",
        "1",
    )
    res = json.loads(out)
    assert rc == 0 and res["reshuffle_every_round"] is True
