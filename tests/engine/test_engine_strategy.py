"""Basic strategy as data, and the simulator playing through the same RoundState code."""

import pytest

from game.engine import Card, RoundState, Rules, ShoeState, edge_estimate
from game.engine.simulate import play_round, run
from game.engine.strategy import (
    CALCULATION_MARGIN,
    compute_strategy,
    render_data_module,
    strategy_for,
    theoretical_edge,
)
from game.engine.strategy_data import TABLES

PRESET_NAMES = ["standard", "hole-card", "open-cards"]


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_stored_tables_equal_the_calculation(name):
    assert TABLES[name] == compute_strategy(Rules.preset(name))


def test_stored_module_is_what_the_generator_writes():
    from pathlib import Path

    import game.engine.strategy_data as data

    assert Path(data.__file__).read_text() == render_data_module()


def col(strategy, *codes):
    return strategy.column([Card.parse(c) for c in codes])


def letter(strategy, hand, *dealer, can_split=True):
    cards = [Card.parse(c) for c in hand.split()]
    return strategy.letter(cards, col(strategy, *dealer), can_split)


def test_textbook_decisions_of_the_hole_card_game():
    s = strategy_for(Rules.preset("hole-card"))
    assert letter(s, "T 6", "T") == "H"
    assert letter(s, "T 6", "6") == "S"
    assert letter(s, "T 2", "3") == "H"
    assert letter(s, "6 5", "T") == "D"
    assert letter(s, "A 7", "9") == "H"
    assert letter(s, "8 8", "T") == "P"
    assert letter(s, "A A", "A") == "P"
    assert letter(s, "T T", "6") == "S"
    assert letter(s, "5 5", "9") == "D"


def test_one_card_game_does_not_risk_more_against_a_ten_or_ace():
    # The dealer's Blackjack takes doubles and splits too, so 11 and 8-8 are only hit there.
    s = strategy_for(Rules.preset("standard"))
    assert letter(s, "6 5", "T") == "H" and letter(s, "6 5", "A") == "H"
    assert letter(s, "8 8", "T") == "H" and letter(s, "A A", "A") == "H"
    assert letter(s, "6 5", "9") == "D"


def test_open_cards_strategy_is_keyed_on_the_dealers_whole_hand():
    s = strategy_for(Rules.preset("open-cards"))
    assert s.columns[0] == "h4" and "s17" in s.columns
    # Player 20 against a dealer standing on 20 loses ties: hit.
    assert letter(s, "T T", "T", "Q", can_split=False) == "H"
    assert letter(s, "T 8", "T", "7", can_split=False) == "S"  # 18 v 17: stand
    assert letter(s, "T 6", "T", "6", can_split=False) == "S"  # 16 v dealer 16
    assert letter(s, "T 6", "T", "9", can_split=False) == "H"  # 16 v dealer 19


def test_custom_rules_get_a_computed_strategy():
    rules = Rules.from_json({"preset": "hole-card", "double_on": "10-11"})
    s = strategy_for(rules)
    assert "d" not in "".join(s.soft.values()) and "D" not in "".join(s.soft.values())
    assert letter(s, "5 4", "5") == "H"


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_simulated_rounds_settle_through_the_engine(name):
    rules = Rules.preset(name)
    shoe = ShoeState.shuffled(rules.decks, seed=5)
    strategy = strategy_for(rules)
    for _ in range(300):
        if shoe.cut_card_out:
            shoe.reshuffle()
        r = play_round(rules, shoe, strategy, even_money=False)
        assert isinstance(r, RoundState) and r.finished
        assert RoundState.from_dict(r.to_dict()).net == r.net


def test_simulation_is_reproducible_for_a_seed():
    rules = Rules.preset("standard")
    assert run(rules, 500, "s") == run(rules, 500, "s")
    assert run(rules, 500, "s") != run(rules, 500, "t")


def test_theoretical_edges_move_the_way_the_rules_do():
    std = Rules.preset("standard")
    base = theoretical_edge(std)
    assert 0 < base < 0.01
    worse = {
        "blackjack_pays": "6:5",
        "ties": "dealer",
        "dealer_hits_soft_17": True,
        "double_on": "10-11",
        "three_sevens": False,
    }
    for key, value in worse.items():
        assert theoretical_edge(Rules.from_json({"preset": "standard", key: value})) > base, key
    better = Rules.from_json({"preset": "standard", "dealer_blackjack_takes": "original"})
    assert theoretical_edge(better) < base
    # A peek is worth more to the player than the one-card game's dealer Blackjack rule.
    assert theoretical_edge(Rules.from_json({"preset": "hole-card", "three_sevens": True})) < base


def rules(**overrides):
    return Rules.from_json({"preset": "standard", **overrides})


def test_theoretical_edge_counts_the_new_split_rules_and_resplits():
    hole = Rules.preset("hole-card")
    as_002 = Rules.from_json({"preset": "hole-card", "split_blackjack": "twenty-one"})
    assert theoretical_edge(hole) < theoretical_edge(as_002)  # an instant win helps the player
    # The order of the split hands' second cards changes nothing on an infinite deck.
    in_turn = Rules.from_json({"preset": "hole-card", "split_deal": "in-turn"})
    assert theoretical_edge(in_turn) == pytest.approx(theoretical_edge(hole), abs=1e-12)
    # Resplits are worth something: fewer hands, a higher edge.
    assert theoretical_edge(rules(max_hands=2)) > theoretical_edge(rules(max_hands=3))
    assert theoretical_edge(rules(max_hands=3)) > theoretical_edge(rules(max_hands=4))
    assert theoretical_edge(rules(resplit_aces=False)) > theoretical_edge(rules())
    # A moot resplit_aces changes nothing.
    assert theoretical_edge(rules(max_hands=2)) == theoretical_edge(
        rules(max_hands=2, resplit_aces=False)
    )


def test_edge_estimate_warns_when_the_player_has_or_may_have_the_advantage():
    open_cards = edge_estimate(Rules.preset("open-cards"))
    assert open_cards.house_edge < 0 and open_cards.player_advantage
    assert open_cards.warning == "player_advantage"
    for name in ("standard", "hole-card"):
        estimate = edge_estimate(Rules.preset(name))
        assert estimate.house_edge > CALCULATION_MARGIN and estimate.warning is None, name
    # 004 with two hands at most: a few hundredths of a percent either way on six decks.
    narrow = edge_estimate(Rules.from_json({"preset": "open-cards", "max_hands": 2}))
    assert 0 < narrow.house_edge < CALCULATION_MARGIN
    assert not narrow.player_advantage and narrow.warning == "player_advantage_possible"
    # Doubling on 9-11 only gives the house its edge back.
    assert (
        edge_estimate(Rules.from_json({"preset": "open-cards", "double_on": "9-11"})).warning
        is None
    )
