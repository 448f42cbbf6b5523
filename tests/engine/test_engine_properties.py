"""Hypothesis properties: totals, every legal sequence settles, money is conserved, replay
rebuilds the state, illegal actions change nothing, and the move stack (python-chess's
``Board.push`` / ``pop``): pushing an action and popping it leaves the round — and its shared
shoe — exactly as it was, for random legal sequences under random rule sets and for the
simulator's rounds out of a seeded virtual shoe."""

import json
from decimal import Decimal

import pytest
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
    ShoeState,
    Split,
    Stand,
    hand_total,
)
from game.engine.cards import ALL_SUITED, RANKS
from game.engine.round import actions_from_events
from game.engine.simulate import play_round
from game.engine.strategy import strategy_for

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


# -- the move stack: push / pop ---------------------------------------------------------


@given(played_rounds(), st.integers(0, 400))
@SETTINGS
def test_push_then_pop_restores_every_position_of_a_random_round(played, back):
    rules, r, actions, _, _ = played
    pushed = RoundState(rules)
    before = []
    for action in actions:
        before.append(pushed.to_dict())
        pushed.push(action)
    assert pushed == r
    assert pushed.move_stack == actions
    back = min(back, len(actions))
    for i in range(len(actions) - 1, len(actions) - 1 - back, -1):
        assert pushed.pop() == actions[i]
        assert pushed.to_dict() == before[i]
    for action in actions[len(actions) - back :]:  # pushed again: the same round
        pushed.push(action)
    assert pushed == r


@given(played_rounds(), st.integers(1, 6))
@SETTINGS
def test_the_stack_kept_in_a_snapshot_pops_as_the_live_one(played, depth):
    rules, r, actions, _, _ = played
    pushed = RoundState.replay(rules, None, [])
    for action in actions:
        pushed.push(action)
    stored = RoundState.from_dict(json.loads(json.dumps(pushed.to_dict(undo=depth))))
    assert stored == pushed
    assert stored.move_stack == actions[-depth:]
    for _ in range(min(depth, len(actions))):
        assert stored.pop() == pushed.pop()
        assert stored == pushed
        assert stored.shoe == pushed.shoe


@given(
    st.sampled_from(["standard", "hole-card", "open-cards"]),
    st.integers(0, 10_000),
    st.booleans(),
    st.integers(1, 6),
)
@settings(max_examples=60, deadline=None)
def test_push_pop_on_the_simulators_rounds_out_of_a_virtual_shoe(preset, seed, drawn, rounds):
    """The simulator plays rounds out of a seeded shoe; the same rounds pushed onto a round
    sharing a twin shoe (each card drawn first, or entered by hand out of the shoe's order)
    pop back card by card to the exact shoe and round, the order and the generator too."""
    rules = Rules.preset(preset)
    strategy = strategy_for(rules)
    shoe = ShoeState.shuffled(rules.decks, seed)
    twin = ShoeState.shuffled(rules.decks, seed)
    for _ in range(rounds):
        trace = []
        played = play_round(rules, shoe, strategy, False, trace)
        r = RoundState(rules, None, (1,), twin)
        positions = []
        for action in trace:
            if drawn and isinstance(action, Deal):
                assert twin.next_card() is action.card
            positions.append((r.to_dict(), twin.to_dict()))
            r.push(action)
        assert r.result() == played.result()
        for i in range(len(trace) - 1, -1, -1):
            assert r.pop() == trace[i]
            assert (r.to_dict(), twin.to_dict()) == positions[i]
        for action in trace:  # dealt again: the twin shoe is where the simulator's is
            if drawn and isinstance(action, Deal):
                twin.next_card()
            r.push(action)
        if drawn:
            assert twin == shoe


def test_an_illegal_action_is_not_pushed_and_an_empty_stack_does_not_pop():
    r = RoundState("standard")
    with pytest.raises(EngineError) as refused:
        r.pop()
    assert refused.value.code == "nothing_to_undo"
    r.push(Bet(1, 100))
    before = r.to_dict()
    with pytest.raises(EngineError):
        r.push(Stand())
    assert r.to_dict() == before and r.move_stack == [Bet(1, 100)]
    assert r.peek() == Bet(1, 100)
    r.push(CloseBets())
    r.push(Deal("Th"))
    assert r.pop() == Deal("Th") and r.shoe.dealt == 0
    assert r.pop() == CloseBets() and r.phase == "betting"
    assert r.pop() == Bet(1, 100) and r.bets == {}
    assert r.peek() is None
