"""The advantage-play statistic (pure Python): a counter is flagged, a flat or a random
bettor is not, and too few rounds are never judged."""

from decimal import Decimal

import pytest

from game.detection import (
    bet_count_correlation,
    result_deviation,
    running_count,
    simulate_box,
    spearman,
    true_count,
)

RULE = {"min_rounds": 30, "threshold": 0.3, "min_z": 3.0}


def test_hi_lo_counts_low_cards_up_and_tens_and_aces_down():
    assert running_count({"2": 3, "6": 1, "8": 5, "K": 2, "A": 1}) == 1
    assert true_count({"5": 26}, decks=6) == pytest.approx(26 / 5.5)


def test_spearman_handles_ties_and_constant_series():
    assert spearman([1, 2, 3, 4], [10, 20, 30, 40]) == pytest.approx(1)
    assert spearman([1, 2, 3, 4], [40, 30, 20, 10]) == pytest.approx(-1)
    assert spearman([1, 2, 3], [5, 5, 5]) is None
    assert 0 < spearman([1, 2, 3, 4], [1, 1, 2, 2]) < 1


def test_a_counter_is_flagged():
    play = simulate_box(bettor="counter", rounds=400, seed="test-counter")
    verdict = bet_count_correlation(play, **RULE)
    assert verdict["flagged"] and verdict["rho"] > 0.3


@pytest.mark.parametrize("bettor", ["flat", "random"])
def test_a_bettor_blind_to_the_count_is_not_flagged(bettor):
    play = simulate_box(bettor=bettor, rounds=400, seed=f"test-{bettor}")
    assert not bet_count_correlation(play, **RULE)["flagged"]


def test_fewer_rounds_than_the_minimum_are_never_flagged():
    perfect = [(float(i), float(10 * i)) for i in range(29)]
    verdict = bet_count_correlation(perfect, **RULE)
    assert verdict["rho"] == pytest.approx(1) and not verdict["flagged"]
    assert bet_count_correlation([*perfect, (29.0, 290.0)], **RULE)["flagged"]


def test_result_deviation_in_standard_deviations():
    d = result_deviation(
        house_net=Decimal(-3000), bets=[Decimal(100)] * 30, house_edge=0.0, sd_per_hand=1.0
    )
    assert d["sd"] == pytest.approx(100 * 30**0.5)
    assert d["z"] == pytest.approx(-3000 / (100 * 30**0.5))
