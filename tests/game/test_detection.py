"""The detection statistics (pure Python): the exact true count is a martingale, each round's
factor of the evidence has expectation 1 when the bet ignores the count, a counter is caught
and blind bettors are not (fixed seeds, short shifts), and the deviation's standard deviation
counts the boxes' correlation."""

import math
import random
from decimal import Decimal

import pytest

from benchmarks import bettors
from game.detection import (
    HI_LO,
    CountState,
    PlayerEvidence,
    ShiftDeviation,
    ShoeCounter,
    judge,
    result_deviation,
    round_variance,
    running_count,
    true_count,
)
from game.detection.advantage import BetModel, Method, mixture_log_evidence
from game.detection.count import NODES, WEIGHTS
from game.detection.ramp import Ramp, RampModel, counter_scale
from game.engine import EngineError

RANKS = "A23456789TJQK"


def test_hi_lo_counts_low_cards_up_and_tens_and_aces_down():
    assert running_count({"2": 3, "6": 1, "8": 5, "K": 2, "A": 1}) == 1
    assert true_count({"5": 26}, decks=6) == pytest.approx(52 * 26 / (312 - 26))
    state = CountState.from_out_ranks({"5": 3, "K": 1, "8": 2}, 6)
    assert (state.out, state.running, state.low, state.high) == (6, 2, 3, 1)


def _exact_next_card(state: CountState, left: dict[str, int]):
    """Every possible next card with its probability and the state after it."""
    unseen = sum(left.values())
    for rank, n in left.items():
        if n:
            h = HI_LO[rank]
            after = CountState(
                state.decks,
                state.out + 1,
                state.running + h,
                state.low + (h > 0),
                state.high + (h < 0),
            )
            yield n / unseen, after


@pytest.mark.parametrize("seed", range(5))
def test_the_exact_true_count_is_a_martingale_and_its_variance_is_known(seed):
    rng = random.Random(seed)
    decks = 2
    left = dict.fromkeys(RANKS, 4 * decks)
    counter = ShoeCounter(decks)
    for _ in range(rng.randint(5, 70)):  # deal some cards at random
        rank = rng.choice([r for r, n in left.items() if n])
        left[rank] -= 1
        counter.take(rank)
    state = counter.state()
    mean = sum(p * s.true_count for p, s in _exact_next_card(state, left))
    var = sum(p * (s.true_count - state.true_count) ** 2 for p, s in _exact_next_card(state, left))
    assert mean == pytest.approx(state.true_count, abs=1e-12)
    assert var == pytest.approx(state.card_variance(), rel=1e-9)


def test_the_shoe_counter_refuses_a_card_that_is_not_one_or_one_too_many():
    counter = ShoeCounter(1)
    counter.take("Th")
    with pytest.raises(EngineError, match="cannot hold another Th"):
        counter.take("Th")
    with pytest.raises(EngineError, match="Not a card"):
        counter.take("1x")
    assert counter.state().out == 1


def _trained_model(seed: int, method: Method) -> BetModel:
    """A model that has seen a counter-like player: high bets at high counts."""
    rng = random.Random(seed)
    model = BetModel(method)
    previous = "shoe"
    for _ in range(150):
        tc = rng.gauss(0, 2)
        bet = 10 if tc < 1 else 40
        model.add(previous, bet, tc)
        previous = bet
    return model


@pytest.mark.parametrize("bet", [10, 40])
@pytest.mark.parametrize("tc_before", [-1.0, 0.7, 1.2, 3.0])
def test_a_rounds_factor_has_expectation_one_when_the_bet_ignores_the_count(bet, tc_before):
    """Under the count's own distribution of its change, E[likelihood ratio] = 1 (no allowance),
    and at most 1 with the allowance: the evidence is a test martingale."""
    sd = 0.8
    exact = _trained_model(1, Method(allowance=0.0))
    expected = sum(
        w * exact.likelihood_ratio(10, bet, tc_before, sd * z, sd)
        for z, w in zip(NODES, WEIGHTS, strict=True)
    )
    assert expected == pytest.approx(1.0, abs=1e-9)
    allowing = _trained_model(1, Method(allowance=0.1))
    for mu in (-0.1, 0.0, 0.1):  # a bet that reveals up to 0.1 SD of the change
        expected = sum(
            w * allowing.likelihood_ratio(10, bet, tc_before, sd * (z + mu), sd)
            for z, w in zip(NODES, WEIGHTS, strict=True)
        )
        assert expected <= 1.0 + 1e-9


def test_the_model_sees_a_raise_after_the_count_rose():
    model = _trained_model(2, Method())
    assert model.likelihood_ratio(10, 40, 0.6, +0.8, 0.8) > 2  # raised as the count went up
    assert model.likelihood_ratio(10, 40, 0.6, -0.8, 0.8) < 0.5  # ...not as it went down


def test_the_mixture_evidence_is_the_integral_it_claims():
    total, variance, precision = 3.2, 9.0, 1.0
    steps = 20000
    integral = 0.0
    for i in range(steps):  # half-normal mixture over the drift, by the midpoint rule
        lam = (i + 0.5) * 8 / steps
        density = 2 * math.sqrt(precision / (2 * math.pi)) * math.exp(-precision * lam**2 / 2)
        integral += math.exp(lam * total - lam**2 * variance / 2) * density * 8 / steps
    assert mixture_log_evidence(total, variance, precision) == pytest.approx(math.log(integral))
    assert mixture_log_evidence(0.0, 0.0, precision) == 0.0


def _verdict(name: str, seed: str, rounds: int = 200) -> dict:
    return judge(bettors.play_shift(name, rounds=rounds, seed=seed))


def test_a_flat_bettor_gives_no_evidence_at_all():
    verdict = _verdict("flat", "t-flat")
    assert verdict["score"] == 0.0 and not verdict["alarm"]
    assert verdict["played"] == 200


def test_a_hi_lo_counter_is_caught_and_his_edge_is_above_a_flat_bettors():
    caught = [_verdict("counter", f"t-counter/{i}") for i in range(3)]
    assert all(v["alarm"] and v["at_round"] <= 200 for v in caught)
    flat = _verdict("flat", "t-flat")
    assert all(v["advantage"] > flat["advantage"] for v in caught)


@pytest.mark.parametrize("name", ["random", "martingale", "coin-dalembert", "step", "breaks"])
def test_bettors_blind_to_the_count_are_not_caught(name):
    verdicts = [_verdict(name, f"t-blind/{i}") for i in range(3)]
    assert not any(v["alarm"] for v in verdicts)


def _counter_rounds(evidence: PlayerEvidence, tables: list[str], rounds: int, seed: int):
    """A counter (10 below a true count of 1, 80 from 1 up) at each of ``tables`` in turn,
    each table with its own shuffled shoe of 6 decks (cut after 200 cards, 8 cards a round)."""
    rng = random.Random(seed)
    shoes = {}
    for _ in range(rounds):
        for table in tables:
            if table not in shoes or not shoes[table][1]:
                deck = [r + s for r in RANKS for s in "shdc"] * 6
                rng.shuffle(deck)
                shoes[table] = (ShoeCounter(6), deck[:200])
                new_shoe = True
            else:
                new_shoe = False
            counter, cards = shoes[table]
            state = counter.state()
            bet = Decimal(10 if state.true_count < 1 else 80)
            evidence.observe(table, bet=bet, shoe=state, new_shoe=new_shoe)
            for _ in range(min(8, len(cards))):
                counter.take(cards.pop())


def test_evidence_adds_up_across_tables():
    alone, both = PlayerEvidence(), PlayerEvidence()
    _counter_rounds(alone, ["A"], 200, seed=4)
    _counter_rounds(both, ["A", "B"], 200, seed=4)
    assert alone.alarm and both.alarm
    assert both.rounds == 400
    assert both.log_evidence > alone.log_evidence


def test_a_shoe_that_goes_back_is_taken_as_a_new_shoe_not_as_a_count_change():
    counter = ShoeCounter(6)
    for code in ["2h", "3h", "4h", "5h", "6h"] * 4:
        counter.take(code)
    evidence = PlayerEvidence()
    evidence.observe("A", bet=Decimal(10), shoe=counter.state())
    evidence.observe("A", bet=Decimal(80), shoe=ShoeCounter(6).state())  # reshuffled, unsaid
    assert evidence.log_evidence == 0.0  # the drop from +20 to 0 is not scored
    reported = PlayerEvidence(method=Method(allowance=0.0))
    reported.observe("A", bet=Decimal(10), shoe=counter.state())
    later = ShoeCounter(6)
    for code in ["2h", "3h", "4h", "5h", "6h"] * 4 + ["Kd"]:
        later.take(code)
    reported.observe("A", bet=Decimal(80), shoe=later.state())
    assert reported.log_evidence != 0.0  # one card later in the same shoe: scored


# -- result deviation -----------------------------------------------------------------------


def test_the_rounds_standard_deviation_counts_the_boxes_correlation():
    seven = [Decimal(10)] * 7
    correlated = round_variance(seven, 1.0, 0.37)
    assert correlated == pytest.approx(100 * (0.63 * 7 + 0.37 * 49))
    assert round_variance(seven, 1.0, 1.0) == pytest.approx(100 * 49)  # one hand of the total
    assert math.sqrt(round_variance(seven, 1.0, 1.0) / correlated) == pytest.approx(1.47, abs=0.01)
    d = result_deviation(
        house_net=Decimal(-300), rounds=[[Decimal(10)]] * 30, house_edge=0.0, sd_per_hand=1.0
    )
    assert d["sd"] == pytest.approx(10 * 30**0.5)
    assert d["z"] == pytest.approx(-300 / (10 * 30**0.5))


def test_the_shift_deviation_is_checked_from_the_minimum_rounds_on():
    check = ShiftDeviation(house_edge=0.0, sd_per_hand=1.0, sigmas=3.9, min_rounds=30)
    for _ in range(29):
        check.observe(house_net=Decimal(-10), box_bets=[Decimal(10)])
    assert check.z < -3.9 and check.at_round is None  # far out, but too early to judge
    check.observe(house_net=Decimal(-10), box_bets=[Decimal(10)])
    assert check.at_round == 30
    assert check.crossing["result"] == Decimal(-300)
    for _ in range(100):
        check.observe(house_net=Decimal(10), box_bets=[Decimal(10)])
    assert check.at_round == 30 and check.z > 0  # the crossing stays on record


def _feed(evidence: PlayerEvidence, session: dict) -> PlayerEvidence:
    counter = None
    for r in session["rounds"]:
        if counter is None or r["shuffle_before"]:
            counter = ShoeCounter(session["decks"])
        evidence.observe("T", bet=Decimal(r["bet"]), shoe=counter.state(), new_shoe=False)
        for code in r["cards"]:
            counter.take(code)
    return evidence


def test_evidence_carried_from_earlier_sessions_adds_on():
    session = bettors.play_shift("counter", rounds=200, seed="t-carry")
    fresh = _feed(PlayerEvidence(), session)
    carried = _feed(PlayerEvidence(carried=3.0), session)
    assert carried.log_evidence == pytest.approx(fresh.log_evidence + 3.0)
    assert fresh.alarm and carried.at_round < fresh.at_round
    assert fresh.verdict() == judge(session)  # the judge feeds the rounds the same way


# -- the settled bet model (issue 23 item 9) -----------------------------------------------


def test_the_settled_model_catches_a_camouflaged_counter_the_other_two_tests_miss():
    """The counter who bets 1-3 units at random in 15 % of rounds and never raises right after
    a loss: on this shift the bet moves and the bet model alone never reach the alarm."""
    session = bettors.play_shift("random-camouflage", rounds=200, seed="t-rc/8")
    both = _feed(PlayerEvidence(method=Method(weights=(0.5, 0.5, 0.0, 0.0))), session)
    three = _feed(PlayerEvidence(method=Method(weights=(1 / 3, 1 / 3, 1 / 3, 0.0))), session)
    assert not both.alarm
    assert three.alarm and three.at_round <= 200


def _counter_bets(blip: int | None) -> list[tuple[int, CountState, bool]]:
    """A counter's rounds over one shoe (10 below a true count of 1, 80 from 1 up), with his
    bet in round 21 replaced by ``blip`` (undone in round 22, where he bets as before)."""
    rng = random.Random(10)
    deck = [r + s for r in RANKS for s in "shdc"] * 6
    rng.shuffle(deck)
    counter, rounds = ShoeCounter(6), []
    for n in range(60):
        state = counter.state()
        bet = 10 if state.true_count < 1 else 80
        rounds.append((blip if n == 20 and blip is not None else bet, state, n == 0))
        for _ in range(5):
            counter.take(deck.pop())
    assert rounds[19][0] == rounds[21][0] == rounds[22][0] != rounds[20][0] or blip is None
    return rounds


def test_a_bet_undone_at_once_is_neither_scored_nor_learned_by_the_settled_model():
    settled_only = Method(weights=(0.0, 0.0, 1.0, 0.0))
    logs = []
    for blip in (30, 80, 200):
        evidence = PlayerEvidence(method=settled_only)
        for bet, state, new_shoe in _counter_bets(blip):
            evidence.observe("A", bet=Decimal(bet), shoe=state, new_shoe=new_shoe)
        logs.append(evidence.log_evidence)
    assert logs[0] == logs[1] == logs[2] != 0.0  # whatever the blip was, the same evidence


def _evidence_after(rounds, k: int, shifted: bool, method: Method) -> tuple[float, float]:
    """One test's evidence after round k and after round k+1, round k's count moved one low
    card further when ``shifted``."""
    evidence = PlayerEvidence(method=method)
    out = []
    for n, (bet, state, new_shoe) in enumerate(rounds[: k + 2]):
        if n == k and shifted:
            state = CountState(6, state.out + 1, state.running + 1, state.low + 1, state.high)
        evidence.observe("A", bet=Decimal(bet), shoe=state, new_shoe=new_shoe)
        out.append(evidence.log_evidence)
    return out[k], out[k + 1]


@pytest.mark.parametrize(
    "only", [(0.0, 0.0, 1.0, 0.0), (0.0, 0.0, 0.0, 1.0)], ids=["settled model", "ramp test"]
)
def test_a_late_test_scores_a_rounds_count_change_once_the_next_bet_is_known(only):
    rounds = _counter_bets(None)
    later = []
    for k in range(1, 58):
        plain = _evidence_after(rounds, k, False, Method(weights=only))
        shifted = _evidence_after(rounds, k, True, Method(weights=only))
        assert plain[0] == pytest.approx(shifted[0], abs=1e-12)  # not scored in round k...
        later.append(abs(plain[1] - shifted[1]) > 1e-6)
    assert any(later)  # ...but in round k+1


@pytest.mark.parametrize("weights", [(0.5, 0.5, 0.0), (0.5, 0.5, 0.5, 0.5), (1.2, -0.2, 0.0, 0.0)])
def test_the_tests_shares_must_be_four_adding_up_to_one(weights):
    with pytest.raises(ValueError, match="four shares adding up to 1"):
        PlayerEvidence(method=Method(weights=weights))


# -- the ramp test (issue 23 item 9) ---------------------------------------------------------


def test_a_counter_reckons_the_decks_left_to_the_half_deck():
    assert counter_scale(156) == pytest.approx(1.0)  # three decks left, exactly
    # 143 cards are 2.75 decks; he sees about three: running 6 is +2.0 to him, +2.18 exact
    state = CountState(6, 312 - 143, 6, 6, 0)
    assert state.true_count == pytest.approx(2.1818, abs=1e-4)
    assert state.true_count * counter_scale(state.unseen) == pytest.approx(2.0)
    assert counter_scale(10) == pytest.approx(10 / 52 / 0.5)  # never under half a deck


def _trained_ramp(seed: int, ramp: Ramp) -> RampModel:
    """A ramp model that has seen a counter: 10 below +2, 20 from +2, 40 from +3."""
    rng = random.Random(seed)
    model = RampModel(ramp)
    for _ in range(150):
        tc = rng.gauss(0, 2)
        model.learn(10 if tc < 2 else 20 if tc < 3 else 40, tc)
    return model


@pytest.mark.parametrize("bet, state", [(10, 10), (20, 10), (40, 20), (40, 40)])
@pytest.mark.parametrize("tc_before", [-1.0, 1.7, 2.6, 4.0])
def test_a_ramp_rounds_factor_has_expectation_one_when_the_bet_ignores_the_count(
    bet, state, tc_before
):
    sd = 0.6
    exact = _trained_ramp(1, Ramp(allowance=0.0))
    expected = sum(
        w * exact.likelihood_ratio(bet, state, (tc_before, sd * z, sd), 1.1)
        for z, w in zip(NODES, WEIGHTS, strict=True)
    )
    assert expected == pytest.approx(1.0, abs=1e-9)
    allowing = _trained_ramp(1, Ramp(allowance=0.1))
    for mu in (-0.1, 0.0, 0.1):
        expected = sum(
            w * allowing.likelihood_ratio(bet, state, (tc_before, sd * (z + mu), sd), 1.1)
            for z, w in zip(NODES, WEIGHTS, strict=True)
        )
        assert expected <= 1.0 + 1e-9


def test_the_ramp_model_finds_the_steps_it_was_not_told():
    model = _trained_ramp(2, Ramp())
    assert model.likelihood_ratio(20, 10, (1.7, +0.6, 0.6), 1.0) > 2  # stepped up past +2
    assert model.likelihood_ratio(20, 10, (1.7, -0.6, 0.6), 1.0) < 0.3  # ...not below it
    assert model.likelihood_ratio(10, 20, (2.3, -0.6, 0.6), 1.0) > 2  # stepped down
    far = model.likelihood_ratio(10, 10, (-3.0, 0.6, 0.6), 1.0)
    assert far == pytest.approx(1.0, abs=0.05)  # far below every step: tells nothing


def test_the_ramp_test_catches_a_camouflaged_counter_the_other_three_miss():
    """Issue 23 item 9: the counter who bets 1-3 units at random in 15 % of rounds and never
    raises right after a loss; on this shift only the ramp test reaches the alarm."""
    session = bettors.play_shift("random-camouflage", rounds=200, seed="t-rc/4")
    three = _feed(PlayerEvidence(method=Method(weights=(1 / 3, 1 / 3, 1 / 3, 0.0))), session)
    four = _feed(PlayerEvidence(), session)
    assert not three.alarm
    assert four.alarm and four.at_round <= 200
    assert four.verdict() == judge(session)


def test_a_bet_undone_at_once_is_neither_scored_nor_learned_by_the_ramp_test():
    ramp_only = Method(weights=(0.0, 0.0, 0.0, 1.0))
    logs = []
    for blip in (30, 80, 200):
        evidence = PlayerEvidence(method=ramp_only)
        for bet, state, new_shoe in _counter_bets(blip):
            evidence.observe("A", bet=Decimal(bet), shoe=state, new_shoe=new_shoe)
        logs.append(evidence.log_evidence)
    assert logs[0] == logs[1] == logs[2] > 0.0
