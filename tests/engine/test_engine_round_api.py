"""The RoundState API the live table builds on: phases, awaiting, legal actions, errors that change
nothing, events, serialisation and replay."""

import json
from decimal import Decimal

import pytest

from game.engine import (
    Bet,
    Card,
    CloseBets,
    Deal,
    Double,
    EngineError,
    EvenMoney,
    InsuranceClosed,
    Insure,
    Limits,
    RoundState,
    Rules,
    ShoeState,
    Split,
    Stand,
    action_from_dict,
    action_to_dict,
    action_to_token,
    parse_action,
)
from game.engine.round import actions_from_events


def deal(r, *codes):
    events = []
    for c in codes:
        events += r.apply(Deal(c))
    return events


def started(rules="standard", bets=None, limits=None, shoe=None):
    r = RoundState(rules, limits, shoe=shoe)
    for b, amount in (bets or {1: 100}).items():
        r.apply(Bet(b, Decimal(amount)))
    r.apply(CloseBets())
    return r


def test_phases_awaiting_and_turns_through_a_round():
    r = RoundState("standard", Limits(10, 500))
    assert (r.phase, r.awaiting(), r.legal_actions()) == ("betting", "bet", {"bet"})
    r.apply(Bet(3, Decimal(100)))
    assert r.legal_actions() == {"bet", "close-bets"}
    r.apply(CloseBets())
    assert (r.phase, r.awaiting(), r.turn) == ("dealing", "card:box 3", (3, 0))
    deal(r, "8h")
    assert (r.awaiting(), r.turn) == ("card:dealer", "dealer")
    deal(r, "6d", "8c")
    assert (r.phase, r.awaiting(), r.turn) == ("players", "decision:box 3 hand 1", (3, 0))
    assert r.legal_actions() == {"card", "stand", "double", "split"}
    assert r.dealer_must_draw() is None
    r.apply(Split())
    assert r.awaiting() == "card:box 3 hand 1" and r.legal_actions() == {"card"}
    deal(r, "3d")
    assert r.legal_actions() == {"card", "stand", "double"}
    r.apply(Stand())
    assert (r.awaiting(), r.turn) == ("card:box 3 hand 2", (3, 1))
    deal(r, "9s")
    r.apply(Stand())
    assert (r.phase, r.awaiting(), r.dealer_must_draw()) == ("dealer", "card:dealer", True)
    deal(r, "Th")
    assert r.dealer_must_draw() is True  # 16
    deal(r, "Kc")
    assert r.phase == "settled" and r.awaiting() is None and r.dealer_must_draw() is False
    assert r.legal_actions() == set()


def test_insurance_phase_legal_actions():
    r = started(bets={1: 100, 2: 100})
    deal(r, "As", "Th", "Ad", "Kh", "9c")
    assert r.phase == "insurance"
    assert r.legal_actions() == {"insure", "even-money", "insurance-closed"}


ILLEGAL = [
    ("stand_while_betting", lambda: RoundState("standard"), Stand(), "illegal_action"),
    ("card_while_betting", lambda: RoundState("standard"), Deal("Th"), "illegal_action"),
    (
        "bet_over_maximum",
        lambda: RoundState("standard", Limits(10, 500)),
        Bet(1, Decimal(501)),
        "bet_over_maximum",
    ),
    ("bet_as_float", lambda: RoundState("standard"), Bet(1, 10.5), "bad_amount"),
    ("close_without_bets", lambda: RoundState("standard"), CloseBets(), "no_bets"),
    ("bet_after_close", lambda: started(), Bet(1, Decimal(5)), "bets_closed"),
    ("shoe_cannot_hold", lambda: _one_deck_with("As"), Deal("As"), "shoe_cannot_hold"),
    (
        "double_on_three_cards",
        lambda: _after("2h", "6d", "3c", "4s"),
        Double(),
        "double_not_allowed",
    ),
    ("split_unequal", lambda: _after("8h", "6d", "9c"), Split(), "split_not_allowed"),
    (
        "insurance_over_half",
        lambda: _after("Th", "Ad", "9c"),
        Insure(1, Decimal(51)),
        "insurance_over_half",
    ),
    (
        "even_money_without_blackjack",
        lambda: _after("Th", "Ad", "9c"),
        EvenMoney(1),
        "even_money_not_allowed",
    ),
    (
        "hit_on_split_aces",
        lambda: _after("Ah", "6d", "Ac", "split", "As"),
        Deal("5c"),
        "hit_not_allowed",
    ),
    ("after_the_round", lambda: _after("As", "5d", "Kh"), Deal("5c"), "round_over"),
    ("remove_a_bet_never_placed", lambda: RoundState("standard"), Bet(2, 0), "no_bet_on_box"),
    (
        "bet_in_a_fraction_of_a_cent",
        lambda: RoundState("standard"),
        Bet(1, Decimal("10.005")),
        "bad_amount",
    ),
    (
        "insurance_in_a_fraction_of_a_cent",
        lambda: _after("Th", "Ad", "9c"),
        Insure(1, Decimal("0.001")),
        "bad_amount",
    ),
    (
        "insure_a_blackjack_box_when_even_money_is_offered",
        lambda: _after("As", "Ad", "Kh"),
        Insure(1, Decimal(50)),
        "insurance_not_allowed",
    ),
    (
        "card_to_a_both_hands_split_before_the_decision",
        lambda: _hole_after("8h", "6d", "8c", "Kd", "split", "3d"),
        Stand(),
        "illegal_action",
    ),
]


def _hole_after(*script):
    r = started("hole-card")
    for item in script:
        r.apply(parse_action(item))
    return r


def _one_deck_with(code):
    r = started({"preset": "standard", "decks": 1})
    deal(r, code)
    return r


def _after(*script):
    r = started()
    for item in script:
        r.apply(parse_action(item))
    return r


@pytest.mark.parametrize(
    ("make", "action", "code"), [pytest.param(*c[1:], id=c[0]) for c in ILLEGAL]
)
def test_illegal_action_raises_a_typed_error_and_changes_nothing(make, action, code):
    r = make()
    before = json.dumps(r.to_dict(), sort_keys=True)
    with pytest.raises(EngineError) as info:
        r.apply(action)
    assert info.value.code == code
    assert info.value.message
    assert json.dumps(r.to_dict(), sort_keys=True) == before


def test_a_bet_can_be_replaced_and_removed():
    r = RoundState("standard")
    r.apply(Bet(1, Decimal(100)))
    r.apply(Bet(1, Decimal(50)))
    r.apply(Bet(2, Decimal(20)))
    r.apply(Bet(2, Decimal(0)))
    assert r.bets == {1: Decimal(50)}


def test_events_are_json_and_name_what_happened():
    r = started()
    events = deal(r, "As", "5d", "Kh")
    json.dumps(events)
    kinds = [e["kind"] for e in events]
    assert kinds == ["card", "card", "card", "blackjack_paid", "dealer_stops", "round_settled"]
    assert events[3] == {"kind": "blackjack_paid", "box": 1, "hand": 1, "net": "150.0"}
    assert events[-1]["net"] == "150.0"


def test_snapshot_round_trips_and_replay_equals_it():
    rules = Rules.preset("standard")
    actions = [Bet(1, Decimal(100)), Bet(4, Decimal("25.5")), CloseBets()] + [
        parse_action(a)
        for a in [
            "8h",
            "Td",
            "Ad",
            "8c",
            "As",
            "insure 1 50",
            "even-money 4",
            "insurance-closed",
            "split",
            "3d",
            "double",
            "Tc",
            "2s",
            "stand",
        ]
    ]
    r = RoundState(rules, Limits(10, 500))
    log = []
    for i, a in enumerate(actions):
        log += r.apply(a)
        snap = json.loads(json.dumps(r.to_dict()))
        assert RoundState.from_dict(snap) == r, f"after action {i}"
    assert RoundState.replay(rules, Limits(10, 500), actions) == r
    assert RoundState.replay(rules, Limits(10, 500), actions_from_events(log)) == r
    # A restored snapshot carries on exactly like the original.
    copy = RoundState.from_dict(r.to_dict())
    for x in (r, copy):
        x.apply(Deal("7h"))
    assert copy == r and r.finished
    assert r.result()["net"] == copy.result()["net"]


def test_actions_round_trip_through_dicts_and_words():
    actions = [
        Bet(2, Decimal("12.5")),
        CloseBets(),
        Deal("Th"),
        Stand(),
        Double(),
        Split(),
        Insure(3, Decimal(25)),
        EvenMoney(4),
        InsuranceClosed(),
    ]
    for a in actions:
        assert action_from_dict(json.loads(json.dumps(action_to_dict(a)))) == a
        assert parse_action(action_to_token(a)) == a


def test_round_uses_the_shoe_it_is_given():
    shoe = ShoeState(1)
    r = started({"preset": "standard", "decks": 1}, shoe=shoe)
    deal(r, "As", "5d", "Kh")
    assert shoe.dealt == 3 and not shoe.can_hold(Card.parse("As"))
    r2 = started({"preset": "standard", "decks": 1}, shoe=shoe)
    with pytest.raises(EngineError) as info:
        r2.apply(Deal("As"))
    assert info.value.code == "shoe_cannot_hold"


def test_result_shape_matches_the_cli_contract():
    r = _after("Th", "Ad", "9c", "insure 1 50", "insurance-closed", "stand", "7c")
    res = r.result()
    assert res["finished"] is True and "awaiting" not in res
    assert set(res["dealer"]) >= {"cards", "total", "blackjack", "bust"}
    b = res["boxes"][0]
    assert set(b) >= {"box", "bet", "insurance", "hands", "net"}
    assert b["insurance"] == {"bet": Decimal(50), "net": Decimal(-50)}
    assert set(b["hands"][0]) >= {"cards", "total", "soft", "bet", "doubled", "result", "net"}
    assert res["net"] == 50
