"""Card notation, hand totals, the shoe, and rule sets."""

import json
from decimal import Decimal

import pytest

from game.engine import (
    PRESETS,
    Card,
    CardError,
    Rules,
    RulesError,
    ShoeError,
    ShoeState,
    hand_total,
)
from game.engine.jsonout import dumps


def cards(text):
    return [Card.parse(c) for c in text.split()]


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("Th", "T", "h"),
        ("10h", "T", "h"),
        ("th", "T", "h"),
        ("T", "T", None),
        ("10", "T", None),
        ("As", "A", "s"),
        ("qD", "Q", "d"),
        ("7", "7", None),
    ],
)
def test_card_notation_is_read(text, rank, suit):
    card = Card.parse(text)
    assert (card.rank, card.suit) == (rank, suit)
    assert card.code == rank + (suit or "")


@pytest.mark.parametrize("text", ["", "X", "1h", "Tx", "Thh", "11", "A s", None, 7])
def test_bad_card_codes_are_refused(text):
    with pytest.raises(CardError) as info:
        Card.parse(text)
    assert info.value.code == "bad_card"


def test_card_values_and_interning():
    assert [c.value for c in cards("A 2 9 T J Q K")] == [1, 2, 9, 10, 10, 10, 10]
    assert Card.parse("10h") is Card.parse("Th")


@pytest.mark.parametrize(
    ("hand", "total", "soft"),
    [
        ("A A A 6", 19, True),
        ("5 A A 5", 12, False),
        ("A 6", 17, True),
        ("A 6 T", 17, False),
        ("A K", 21, True),
        ("A A", 12, True),
        ("A A 4 6", 12, False),
        ("T 6 8", 24, False),
        ("3 A A", 15, True),
        ("A A A A A A A A A A A", 21, True),
        ("A 9 A", 21, True),
    ],
)
def test_hand_totals(hand, total, soft):
    assert hand_total(cards(hand)) == (total, soft)


def test_shoe_refuses_more_copies_than_its_decks_hold():
    shoe = ShoeState(1)
    shoe.take(Card.parse("As"))
    assert not shoe.can_hold(Card.parse("As"))
    with pytest.raises(ShoeError) as info:
        shoe.take(Card.parse("As"))
    assert info.value.code == "shoe_cannot_hold"
    assert shoe.remaining == 51 and shoe.dealt == 1


def test_rank_only_cards_count_against_the_rank():
    shoe = ShoeState(1)
    for _ in range(3):
        shoe.take(Card.parse("7"))
    shoe.take(Card.parse("7h"))
    assert not shoe.can_hold(Card.parse("7"))
    assert not shoe.can_hold(Card.parse("7s"))
    assert shoe.can_hold(Card.parse("8s"))


def test_shoe_round_trips_through_json():
    shoe = ShoeState(2)
    for c in ("As", "As", "7", "Kd"):
        shoe.take(Card.parse(c))
    again = ShoeState.from_dict(json.loads(json.dumps(shoe.to_dict())))
    assert again == shoe and not again.can_hold(Card.parse("As"))


def test_virtual_shoe_is_seeded_and_survives_serialisation():
    a, b = ShoeState.shuffled(6, seed=42), ShoeState.shuffled(6, seed=42)
    first = [a.draw().code for _ in range(20)]
    assert first == [b.draw().code for _ in range(20)]
    copy = ShoeState.from_dict(json.loads(json.dumps(a.to_dict())))
    assert [copy.draw().code for _ in range(30)] == [a.draw().code for _ in range(30)]


def test_virtual_shoe_deals_every_card_exactly_once():
    shoe = ShoeState.shuffled(2, seed=1)
    dealt = [shoe.draw().code for _ in range(104)]
    assert sorted(dealt) == sorted(c.code for c in ShoeState.shuffled(2, seed=9)._order)
    assert shoe.remaining == 0
    shoe.reshuffle()
    assert shoe.remaining == 104


def test_virtual_shoe_accepts_a_card_entered_by_hand():
    shoe = ShoeState.shuffled(1, seed=3)
    shoe.take(Card.parse("Qs"))
    rest = [shoe.draw().code for _ in range(51)]
    assert "Qs" not in rest and len(set(rest)) == 51


@pytest.mark.parametrize("name", ["standard", "hole-card", "open-cards"])
def test_presets_round_trip(name):
    rules = Rules.preset(name)
    assert Rules.from_json(name) is rules
    assert Rules.from_json(rules.to_json()) == rules
    assert Rules.from_json(json.loads(json.dumps({"preset": name}))) == rules
    assert rules.name == name
    assert set(PRESETS) == {"standard", "hole-card", "open-cards"}


def test_preset_values_follow_the_variants_table():
    std, hole, open_ = (Rules.preset(n) for n in ("standard", "hole-card", "open-cards"))
    assert (std.dealer_cards, std.decks, std.dealer_hits_soft_17, std.blackjack_pays) == (
        "one",
        6,
        False,
        "3:2",
    )
    assert std.insurance and std.even_money and std.three_sevens and std.double_after_split
    assert (std.max_hands, std.resplit_aces, std.hit_split_aces) == (4, True, False)
    assert std.dealer_blackjack_takes == "all"
    assert hole.dealer_cards == "hole" and not hole.three_sevens and hole.insurance
    assert (open_.dealer_cards, open_.dealer_hits_soft_17, open_.blackjack_pays, open_.ties) == (
        "open",
        True,
        "1:1",
        "dealer",
    )
    assert not open_.insurance and not open_.even_money
    assert open_.blackjack_beats_dealer_blackjack


def test_overrides_apply_on_a_preset():
    rules = Rules.from_json({"preset": "hole-card", "double_on": "9-11", "decks": 7})
    assert (rules.double_on, rules.decks, rules.dealer_cards) == ("9-11", 7, "hole")
    assert rules.name is None


@pytest.mark.parametrize(
    ("obj", "key"),
    [
        ("vegas", "preset"),
        ({"preset": "standard", "decks": 9}, "decks"),
        ({"decks": "6"}, "decks"),
        ({"blackjack_pays": "2:1"}, "blackjack_pays"),
        ({"ties": "player"}, "ties"),
        ({"insurance": "yes"}, "insurance"),
        ({"max_hands": 5}, "max_hands"),
        ({"surrender": True}, "surrender"),
        ({"preset": "open-cards", "insurance": True}, "insurance"),
        ({"preset": "hole-card", "dealer_blackjack_takes": "original"}, "dealer_blackjack_takes"),
        ({"split_blackjack": "blackjack"}, "split_blackjack"),
        ({"split_deal": "london"}, "split_deal"),
        (42, "rules"),
    ],
)
def test_inconsistent_rules_are_refused(obj, key):
    with pytest.raises(RulesError) as info:
        Rules.from_json(obj)
    assert info.value.code == "bad_rules"
    assert info.value.params["key"] == key
    assert info.value.message


def test_a_smaller_max_hands_is_accepted_and_makes_resplitting_aces_moot():
    two = Rules.from_json({"preset": "standard", "max_hands": 2})
    assert (two.max_hands, two.resplit_aces) == (2, True)
    assert two.moot == ("resplit_aces",)
    assert Rules.from_json(two.to_json()) == two  # kept as given: the JSON round-trips
    assert Rules.from_json({"preset": "open-cards", "max_hands": 3}).moot == ()
    assert Rules.from_json({"preset": "standard", "max_hands": 2, "resplit_aces": False}).moot == ()
    one = Rules.from_json({"preset": "hole-card", "max_hands": 1})
    assert one.moot == (
        "resplit_aces",
        "double_after_split",
        "split_blackjack",
        "split_deal",
    )
    assert all(Rules.preset(name).moot == () for name in PRESETS)


def test_split_keys_default_per_document_and_take_overrides():
    """Each preset's split keys as docs/sources.md#presets gives them."""
    std, hole, open_ = (Rules.preset(n) for n in ("standard", "hole-card", "open-cards"))
    assert (std.split_blackjack, std.split_deal) == ("twenty-one", "in-turn")  # 002
    assert (hole.split_blackjack, hole.split_deal) == ("instant-win", "both-hands")  # 003
    assert (open_.split_blackjack, open_.split_deal) == ("twenty-one", "in-turn")  # 004
    hole_as_002 = Rules.from_json(
        {"preset": "hole-card", "split_blackjack": "twenty-one", "split_deal": "in-turn"}
    )
    assert (hole_as_002.split_blackjack, hole_as_002.split_deal) == ("twenty-one", "in-turn")
    assert hole_as_002.name is None


def test_a_rule_set_stored_before_the_split_keys_reads_as_the_old_behaviour():
    stored = Rules.preset("hole-card").to_json()
    del stored["split_blackjack"], stored["split_deal"]
    rules = Rules.from_json(stored)
    assert rules.dealer_cards == "hole"
    assert (rules.split_blackjack, rules.split_deal) == ("twenty-one", "in-turn")


def test_money_prints_as_json_numbers():
    out = dumps({"a": Decimal("22.50"), "b": Decimal("100.00"), "c": Decimal("-7.5"), "d": [1]})
    assert out == '{"a": 22.5, "b": 100, "c": -7.5, "d": [1]}'
    assert json.loads(out)["b"] == 100


def test_hand_total_takes_codes_too():
    assert hand_total(["A", "A", "A", "6"]) == (19, True)
    assert hand_total(["5h", "Ad", "As", "5c"]) == (12, False)
