"""Hypothesis properties: totals, every legal sequence settles, money is conserved, replay
rebuilds the state, and illegal actions change nothing."""

import json
from decimal import Decimal

from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from game.engine import (
    PRESETS,
    Bet,
    Card,
    CloseBets,
    Deal,
    DealDown,
    Double,
    EngineError,
    EvenMoney,
    InsuranceClosed,
    Insure,
    RoundState,
    Rules,
    RulesError,
    Split,
    Stand,
    hand_total,
)
from game.engine.cards import ALL_SUITED, RANKS
from game.engine.round import actions_from_events

ALL_CARDS = list(ALL_SUITED) + [Card.parse(r) for r in RANKS]
SETTINGS = settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


@given(st.lists(st.sampled_from(ALL_CARDS), min_size=1, max_size=12))
@settings(max_examples=300, deadline=None)
def test_total_is_the_best_count_not_over_21(cards):
    aces = sum(c.value == 1 for c in cards)
    base = sum(c.value for c in cards)
    counts = {base + 10 * k for k in range(aces + 1)}  # any number of aces counted 11
    under = [t for t in counts if t <= 21]
    total, soft = hand_total(cards)
    assert total == (max(under) if under else min(counts))
    assert soft == (total != base)


RULE_OVERRIDES = st.fixed_dictionaries(
    {},
    optional={
        "decks": st.integers(1, 8),
        "dealer_hits_soft_17": st.booleans(),
        "blackjack_pays": st.sampled_from(["3:2", "6:5", "1:1"]),
        "ties": st.sampled_from(["push", "dealer"]),
        "double_on": st.sampled_from(["any", "9-11", "10-11"]),
        "double_after_split": st.booleans(),
        "max_hands": st.integers(1, 4),
        "resplit_aces": st.booleans(),
        "hit_split_aces": st.booleans(),
        "three_sevens": st.booleans(),
        "dealer_blackjack_takes": st.sampled_from(["all", "original"]),
        "even_money": st.booleans(),
        "insurance": st.booleans(),
        "split_blackjack": st.sampled_from(["twenty-one", "instant-win"]),
        "split_deal": st.sampled_from(["in-turn", "both-hands"]),
        "double_card": st.sampled_from(["face-up", "face-down"]),
        "player_cards": st.sampled_from(["face-up", "face-down"]),
        "insurance_amount": st.sampled_from(["up-to-half", "half"]),
    },
)
AMOUNTS = st.sampled_from(
    [Decimal(x) for x in ("1", "5", "10", "15", "25", "33", "100", "12.5", "0.5", "499")]
)


@st.composite
def played_rounds(draw):
    """A round driven by random legal actions, with a snapshot taken at a random step."""
    try:
        rules = Rules.from_json(
            {"preset": draw(st.sampled_from(list(PRESETS))), **draw(RULE_OVERRIDES)}
        )
    except RulesError:
        reject()
    r = RoundState(rules)
    actions, events = [], []
    boxes = draw(st.lists(st.integers(1, 7), min_size=1, max_size=4, unique=True))
    for b in boxes:
        actions.append(Bet(b, draw(AMOUNTS)))
    actions.append(CloseBets())
    for a in actions:
        events += r.apply(a)
    snapshot_at = draw(st.integers(0, 40))
    snapshot = None
    refused = []
    for step in range(400):
        if step == snapshot_at:
            snapshot = (json.loads(json.dumps(r.to_dict())), len(actions))
        legal = r.legal_actions()
        if not legal:
            break
        # Now and then, try something illegal: it must be refused and change nothing.
        illegal = sorted(
            {"card", "card-down", "stand", "double", "split", "insurance-closed"} - legal
        )
        if illegal and draw(st.integers(0, 4)) == 0:
            before = r.to_dict()
            kind = draw(st.sampled_from(illegal))
            try:
                r.apply(_simple(kind))
            except EngineError as e:
                refused.append(e.code)
            else:
                raise AssertionError(f"{kind} was applied although not legal ({legal})")
            assert r.to_dict() == before
        kind = draw(st.sampled_from(sorted(legal)))
        if kind == "card":
            holdable = [c for c in ALL_CARDS if r.shoe.can_hold(c)]
            # Lean on aces, sevens, eights and tens: pairs, Blackjacks, insurance, 7-7-7.
            lean = [c for c in holdable if c.rank in "A78T"]
            pool = lean if lean and draw(st.booleans()) else holdable
            action = Deal(draw(st.sampled_from(pool)))
        elif kind == "insure":
            move = draw(st.sampled_from([m for m in r.legal_moves() if m.action == kind]))
            action = Insure(move.box, draw(st.sampled_from([move.low, move.high])))
        elif kind == "even-money":
            move = draw(st.sampled_from([m for m in r.legal_moves() if m.action == kind]))
            action = EvenMoney(move.box)
        else:
            action = _simple(kind)
        actions.append(action)
        events += r.apply(action)
    return rules, r, actions, events, snapshot


def _simple(kind):
    return {
        "card": Deal("Th"),
        "stand": Stand(),
        "double": Double(),
        "split": Split(),
        "insurance-closed": InsuranceClosed(),
        "card-down": DealDown(),
    }[kind]


SETTLING = {
    "bust",
    "blackjack_paid",
    "split_blackjack_paid",
    "even_money",
    "three_sevens",
    "hand_settled",
    "insurance_settled",
}


@given(played_rounds())
@SETTINGS
def test_every_random_legal_sequence_ends_in_a_settled_round(played):
    _, r, _, events, _ = played
    assert r.phase == "settled" and r.finished
    assert events[-1]["kind"] == "round_settled"
    assert all(h.settled for b in r.seats for h in b.hands)
    assert len(r.dealer) >= 1


@given(played_rounds())
@SETTINGS
def test_player_and_house_results_sum_to_zero(played):
    _, r, _, events, _ = played
    # The house's result, counted from the chips it moved (each event that settles money).
    house = -sum(Decimal(e["net"]) for e in events if e["kind"] in SETTLING)
    player = r.net
    assert player + house == 0
    assert player == sum(b.net for b in r.seats)
    res = r.result()
    assert res["net"] == sum(b["net"] for b in res["boxes"])
    for b in res["boxes"]:
        ins = b["insurance"]["net"] if b["insurance"] else 0
        assert b["net"] == sum(h["net"] for h in b["hands"]) + ins
        for h in b["hands"]:
            sign = {"win": 1, "lose": -1, "push": 0}[h["result"]]
            assert (h["net"] > 0) - (h["net"] < 0) == sign
            assert -h["bet"] <= h["net"] <= 5 * h["bet"]


@given(played_rounds())
@SETTINGS
def test_replaying_actions_or_events_rebuilds_the_state(played):
    rules, r, actions, events, snapshot = played
    assert RoundState.replay(rules, None, actions) == r
    assert RoundState.replay(rules, None, actions_from_events(events)) == r
    assert RoundState.from_dict(json.loads(json.dumps(r.to_dict()))) == r
    if snapshot is not None:
        state, done = snapshot
        restored = RoundState.from_dict(state)
        for a in actions[done:]:
            restored.apply(a)
        assert restored == r
