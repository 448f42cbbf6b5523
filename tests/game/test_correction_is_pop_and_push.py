"""A card correction at the live table is the engine's pop of the last card and a push of
the corrected one (python-chess's ``Board.pop`` / ``push``), not a replay from the opening:
the round it leaves is the round the corrected card would have made, what the wrong card
paid at once is taken back, a refused correction changes nothing, and the last card stays
correctable across the snapshot — also a snapshot stored before the engine kept its stack."""

import json

import pytest

from game.engine import EngineError, Rules, ShoeState
from game.table.live import TableRound


def _opening(decks: int = 6) -> dict:
    return {
        "rules": Rules.preset("standard").to_json() | {"decks": decks},
        "limits": {"min": "10", "max": "1000"},
        "boxes": [1, 2, 3],
        "shoe": ShoeState(decks).to_dict(),
    }


def _commands(*cards: str) -> list[dict]:
    return [
        {"action": "bet", "box": 1, "seat": "A", "stake": "100.00"},
        {"action": "bet", "box": 2, "seat": "B", "stake": "50.00"},
        {"action": "close-bets"},
        *({"action": "card", "card": c} for c in cards),
    ]


def _stored(state: TableRound) -> TableRound:
    """The round as the next command reads it: its snapshot, through JSON."""
    return TableRound.from_dict(json.loads(json.dumps(state.to_dict())))


def test_correcting_the_card_that_made_a_blackjack_takes_the_payment_back():
    # box 1: 7 9, box 2: A K (Blackjack, paid at once against the dealer's 5)
    state = _stored(TableRound.replay(_opening(), _commands("7c", "As", "5d", "9h", "Kh")))
    assert [e["kind"] for e in state.paid_at_once] == ["blackjack_paid"]

    events = state.apply({"action": "correct-card", "card": "9d"})

    assert events == [{"kind": "correction", "old": "Kh", "new": "9d"}]
    assert state.paid_at_once == []
    expected = TableRound.replay(_opening(), _commands("7c", "As", "5d", "9h", "9d"))
    expected.corrections = state.corrections
    assert _stored(state).to_dict() == _stored(expected).to_dict()
    assert state.status == "players" and state.last_card["card"] == "9d"


def test_correcting_to_a_blackjack_pays_it_and_the_round_goes_on():
    state = _stored(TableRound.replay(_opening(), _commands("7c", "As", "5d", "9h", "9d")))
    state.apply({"action": "correct-card", "card": "Kh"})  # the 9d was the Kh
    assert [e["kind"] for e in state.paid_at_once] == ["blackjack_paid"]
    state = _stored(state)
    state.apply({"action": "correct-card", "card": "9d"})  # no: it was the 9d after all
    assert state.paid_at_once == []
    state.apply({"action": "correct-card", "card": "Kh"})
    assert [e["kind"] for e in state.paid_at_once] == ["blackjack_paid"]
    state.apply({"action": "card", "card": "2c"})  # box 1: 7 9 2
    state.apply({"action": "stand"})
    assert state.engine.move_stack[-1].kind == "stand"
    assert state.paid_at_once[0]["box"] == 2 and state.status == "dealer"


def test_a_refused_correction_leaves_the_round_as_it_was():
    state = _stored(TableRound.replay(_opening(decks=1), _commands("As", "7c", "Ah", "Kh")))
    before = state.to_dict()
    with pytest.raises(EngineError) as refused:
        state.apply({"action": "correct-card", "card": "Ah"})  # already out of one deck
    assert refused.value.code == "shoe_cannot_hold"
    assert state.to_dict() == before
    state.apply({"action": "correct-card", "card": "Kd"})
    assert state.engine.seats[0].hands[0].cards[-1].code == "Kd"


def test_a_snapshot_stored_before_the_engine_kept_its_stack_still_corrects():
    state = TableRound.replay(_opening(), _commands("As", "7c", "5d", "Kh"))
    old = json.loads(json.dumps(state.to_dict()))
    del old["engine"]["stack"], old["paid_before_last"]
    stored = TableRound.from_dict(old)
    for round_ in (stored, state):
        round_.apply({"action": "correct-card", "card": "9h"})
    assert stored.to_dict() == state.to_dict()
    assert stored.paid_at_once == []


def test_only_the_last_card_is_kept_for_a_correction_in_the_snapshot():
    state = TableRound.replay(_opening(), _commands("As", "7c", "5d"))
    assert [e["action"] for e in state.to_dict()["engine"]["stack"]] == [
        {"kind": "card", "card": "5d"}
    ]
    state.apply({"action": "cut-card-out"})
    assert "stack" not in state.to_dict()["engine"]
    with pytest.raises(EngineError) as refused:
        _stored(state).apply({"action": "correct-card", "card": "6d"})
    assert refused.value.code == "nothing_to_correct"
