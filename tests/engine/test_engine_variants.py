"""Rules the documents disagree on, each played in both directions (the document's default and
the override): a Blackjack on a split hand (docs/sources.md#split-twenty-one), when split hands
get their second card (docs/sources.md#split), and what a dealer Blackjack takes in the
one-card game (`all` v `original`, docs/sources.md#dealer-blackjack-one-card-game, with the
worked examples of docs/engine.md).

Card order: box by box, the dealer, box by box again (hole-card: the dealer's hole card last);
then the cards of the players' turn; then the dealer's."""

import pytest

from game.engine import EngineError, RoundState, Split, Stand, parse_action
from game.engine.scenario import play

STD = "standard"
HOLE = "hole-card"
HOLE_AS_002 = {"preset": HOLE, "split_blackjack": "twenty-one", "split_deal": "in-turn"}
STD_AS_003 = {"preset": STD, "split_blackjack": "instant-win", "split_deal": "both-hands"}


def run(rules, script, bets=None):
    """Play a one-box scenario; return (result, events)."""
    events: list[dict] = []
    r = play({"rules": rules, "bets": bets or {"1": 100}, "script": script}, events)
    return r, events


def hands(r, box=1):
    return r.box(box).hands


# --- split_blackjack --------------------------------------------------------------------------

# Tens split; the first hand gets an ace (21), the second stands on 19; the dealer (6, hole K
# where there is one) draws to 21 with a 5.
TENS_HOLE = ["Kh", "6d", "Kc", "Kd", "split", "As", "9s", "stand", "5c"]
TENS_ONE_CARD = ["Kh", "6d", "Kc", "split", "As", "9s", "stand", "5c", "Tc"]


def test_split_blackjack_instant_win_is_paid_at_once_and_ignores_the_dealer_21():
    r, events = run(HOLE, TENS_HOLE)  # 003's default
    first, second = hands(r)
    assert (first.result, first.net) == ("win", 100)  # paid 1:1, though the dealer made 21
    assert not first.blackjack
    assert (second.result, second.net) == ("lose", -100)
    assert r.dealer_total == (21, False) and r.net == 0
    # Paid the moment its card came, before the second hand's card.
    kinds = [(e["kind"], e.get("hand")) for e in events]
    paid = kinds.index(("split_blackjack_paid", 1))
    assert kinds[paid - 1] == ("card", 1) and kinds[paid + 1] == ("card", 2)
    assert next(e for e in events if e["kind"] == "split_blackjack_paid")["net"] == "100"


def test_split_blackjack_twenty_one_pushes_against_a_dealer_21():
    r, events = run(HOLE_AS_002, ["Kh", "6d", "Kc", "Kd", "split", "As", "9s", "stand", "5c"])
    first, second = hands(r)
    assert (first.total, first.result, first.net) == (21, "push", 0)
    assert (second.result, second.net) == ("lose", -100)
    assert r.net == -100
    assert not any(e["kind"] == "split_blackjack_paid" for e in events)


def test_split_blackjack_by_default_in_the_standard_game_is_an_ordinary_21():
    r, _ = run(STD, TENS_ONE_CARD)
    first, _second = hands(r)
    assert (first.total, first.result, first.net) == (21, "push", 0)
    assert r.net == -100


def test_split_blackjack_instant_win_waits_for_nothing_not_even_a_dealer_blackjack():
    # One-card game with 003's rule: the dealer's ten then ace is Blackjack; the split hand
    # already won stays won, the other hand loses everything (dealer_blackjack_takes: all).
    script = ["Kh", "Td", "Kc", "split", "As", "9s", "stand", "Ah"]
    r, _ = run(STD_AS_003, script)
    first, second = hands(r)
    assert r.dealer_blackjack
    assert (first.result, first.net) == ("win", 100)
    assert (second.result, second.net) == ("lose", -100)
    # The same cards under 002's rule: the 21 is just 21 and the dealer's Blackjack takes it.
    r, _ = run(STD, ["Kh", "Td", "Kc", "split", "As", "9s", "stand", "Ah"])
    assert [h.net for h in hands(r)] == [-100, -100]


def test_split_aces_with_a_ten_are_an_instant_win_on_a_hole_card_table():
    r, _ = run(HOLE, ["Ah", "6d", "Ac", "Kd", "split", "Ks", "5c", "5h"])
    first, second = hands(r)
    assert (first.cards[1].code, first.result, first.net) == ("Ks", "win", 100)
    assert (second.total, second.result) == (16, "lose")
    assert r.finished and r.net == 0


def test_a_blackjack_on_the_original_hand_is_still_a_blackjack_under_instant_win():
    r, events = run(HOLE, ["As", "6d", "Kh", "9c"])
    assert hands(r)[0].blackjack and hands(r)[0].net == 150
    assert not any(e["kind"] == "split_blackjack_paid" for e in events)


# --- split_deal -------------------------------------------------------------------------------


def test_both_hands_deal_gives_each_split_hand_its_second_card_before_any_decision():
    r, _ = run(HOLE, ["8h", "6d", "8c", "Kd", "split"])
    assert r.awaiting() == "card:box 1 hand 1" and r.turn == (1, 0)
    r.apply(parse_action("3d"))
    assert r.awaiting() == "card:box 1 hand 2" and r.turn == (1, 1)
    assert r.legal_actions() == {"card"}
    r.apply(parse_action("Tc"))
    assert r.awaiting() == "decision:box 1 hand 1" and r.turn == (1, 0)
    assert [[c.code for c in h.cards] for h in hands(r)] == [["8h", "3d"], ["8c", "Tc"]]


def test_in_turn_deal_gives_the_second_hand_its_card_when_its_turn_comes():
    r, _ = run(HOLE_AS_002, ["8h", "6d", "8c", "Kd", "split", "3d"])
    assert r.awaiting() == "decision:box 1 hand 1"
    assert [[c.code for c in h.cards] for h in hands(r)] == [["8h", "3d"], ["8c"]]
    r.apply(Stand())
    assert r.awaiting() == "card:box 1 hand 2"


def test_both_hands_deal_as_an_override_on_the_standard_game():
    r, _ = run({"preset": STD, "split_deal": "both-hands"}, ["8h", "6d", "8c", "split", "3d"])
    assert r.awaiting() == "card:box 1 hand 2"


def test_both_hands_deal_a_first_hand_that_pairs_again_is_resplit_at_once():
    script = ["8h", "6d", "8c", "Kd", "split", "8s", "3c"]
    r, _ = run(HOLE, script)
    assert r.awaiting() == "decision:box 1 hand 1" and "split" in r.legal_actions()
    events = r.apply(Split())
    assert events[0] == {"kind": "split", "box": 1, "hand": 1, "hands": 3, "bet": "100"}
    # The resplit's two hands get their cards first; the third hand already has two.
    assert r.awaiting() == "card:box 1 hand 1"
    for code in ("2d", "Td"):
        r.apply(parse_action(code))
    assert [[c.code for c in h.cards] for h in hands(r)] == [
        ["8h", "2d"],
        ["8s", "Td"],
        ["8c", "3c"],
    ]
    for word in ("double", "9c", "stand", "double", "7d", "Qs"):  # the dealer busts 16 + Q
        r.apply(parse_action(word))
    assert r.finished and [h.net for h in hands(r)] == [200, 100, 200]


def test_both_hands_deal_a_second_hand_that_pairs_is_split_when_its_turn_comes():
    r, _ = run(HOLE, ["8h", "6d", "8c", "Kd", "split", "Tc", "8s"])
    assert r.awaiting() == "decision:box 1 hand 1"
    assert "split" not in r.legal_actions()  # hand 1 is 8-T: the pair is hand 2's
    r.apply(Stand())
    assert r.awaiting() == "decision:box 1 hand 2" and "split" in r.legal_actions()
    r.apply(Split())
    assert r.awaiting() == "card:box 1 hand 2"
    r.apply(parse_action("2d"))
    assert r.awaiting() == "card:box 1 hand 3"


def test_both_hands_deal_a_later_pair_cannot_split_once_max_hands_is_reached():
    # max_hands 3: hand 1 (8-8) resplits first and takes the third place; hand 2's pair,
    # dealt at the same time, is then played as 16.
    r, _ = run({"preset": HOLE, "max_hands": 3}, ["8h", "6d", "8c", "Kd", "split", "8s", "8d"])
    r.apply(Split())
    for code in ("2d", "3d", "stand", "stand"):
        r.apply(parse_action(code))
    assert r.awaiting() == "decision:box 1 hand 3"
    assert [c.code for c in hands(r)[2].cards] == ["8c", "8d"]
    assert r.legal_actions() == {"stand", "card", "double"}
    before = r.to_dict()
    with pytest.raises(EngineError) as info:
        r.apply(Split())
    assert info.value.code == "split_not_allowed" and "at most 3 hands" in info.value.message
    assert r.to_dict() == before


def test_both_hands_deal_split_aces_one_card_each_and_a_second_ace_resplits_at_its_turn():
    r, _ = run(HOLE, ["Ah", "6d", "Ac", "Kd", "split", "5d"])
    assert r.awaiting() == "card:box 1 hand 2"  # hand 1 is done (one card on a split ace)
    r.apply(parse_action("Ad"))
    assert r.awaiting() == "decision:box 1 hand 2"
    assert r.legal_actions() == {"stand", "split"}
    r.apply(Split())
    for code in ("9c", "7c"):
        r.apply(parse_action(code))
    assert [[c.code for c in h.cards] for h in hands(r)] == [
        ["Ah", "5d"],
        ["Ac", "9c"],
        ["Ad", "7c"],
    ]
    assert r.awaiting() == "card:dealer"  # every split ace is done: the dealer draws


def test_both_hands_deal_a_split_ace_pair_that_can_no_longer_split_stands_by_itself():
    script = ["Ah", "6d", "Ac", "Kd", "split", "As", "Ad", "split", "9c", "7c"]
    r, _ = run({"preset": HOLE, "max_hands": 3}, script)
    # Hand 3 (Ac Ad) was dealt its ace before hand 1 resplit into the last place.
    assert [c.code for c in hands(r)[2].cards] == ["Ac", "Ad"]
    assert r.awaiting() == "card:dealer" and hands(r)[2].done


def test_both_hands_deal_survives_a_snapshot_between_the_two_cards():
    r, _ = run(HOLE, ["8h", "6d", "8c", "Kd", "split", "3d"])
    copy = RoundState.from_dict(r.to_dict())
    assert copy == r and copy.awaiting() == "card:box 1 hand 2"
    for x in (r, copy):
        x.apply(parse_action("Tc"))
    assert copy == r and copy.awaiting() == "decision:box 1 hand 1"


# --- what a dealer Blackjack takes (one-card game) ------------------------------------------

ORIGINAL = {"preset": STD, "dealer_blackjack_takes": "original"}
# docs/engine.md, worked example 1: bet 100, 8-8 against a ten, split; hand 1 takes 6 and K
# (24, busted: 100 lost at once), hand 2 takes 9 and stands on 17; the dealer draws an ace.
BUST_AND_STAND = ["8h", "Td", "8c", "split", "6s", "Kd", "9s", "stand", "As"]
# Example 2: hand 1 doubles 11 and stands on 21 (200 on it), hand 2 stands on 18.
DOUBLE_AND_STAND = ["8h", "Td", "8c", "split", "3s", "double", "Kd", "Ts", "stand", "As"]
# Example 3: hand 1 doubles 14 and busts (200 lost at once), hand 2 stands on 17.
BUSTED_DOUBLE = ["8h", "Td", "8c", "split", "6s", "double", "Kd", "9s", "stand", "As"]


@pytest.mark.parametrize(
    ("script", "takes", "nets", "results", "box_net"),
    [
        (BUST_AND_STAND, "all", [-100, -100], ["lose", "lose"], -200),
        (BUST_AND_STAND, "original", [-100, 0], ["lose", "push"], -100),
        (DOUBLE_AND_STAND, "all", [-200, -100], ["lose", "lose"], -300),
        (DOUBLE_AND_STAND, "original", [-100, 0], ["lose", "push"], -100),
        (BUSTED_DOUBLE, "all", [-200, -100], ["lose", "lose"], -300),
        (BUSTED_DOUBLE, "original", [-200, 0], ["lose", "push"], -200),
    ],
)
def test_what_a_dealer_blackjack_takes_worked_examples(script, takes, nets, results, box_net):
    r, _ = run({"preset": STD, "dealer_blackjack_takes": takes}, script)
    assert r.dealer_blackjack
    assert [h.net for h in hands(r)] == nets
    assert [h.result for h in hands(r)] == results
    assert r.box(1).net == box_net == r.net


def test_original_bets_only_never_touches_insurance_or_other_boxes():
    # Box 1 insures and stands; box 2 splits and busts a hand; dealer ace then ten.
    script = [
        "9h", "8h", "Ad", "Ts", "8c", "insure 1 50", "insurance-closed", "stand",
        "split", "6s", "Kd", "9s", "stand", "Tc",
    ]  # fmt: skip
    r, _ = run(ORIGINAL, script, bets={"1": 100, "2": 100})
    assert r.dealer_blackjack
    assert r.box(1).insurance_net == 100 and r.box(1).net == 0  # 19 loses 100, insurance +100
    assert [h.net for h in r.box(2).hands] == [-100, 0]


def test_a_snapshot_stored_before_the_split_keys_plays_on_as_it_was_played():
    # A hole-card round stored mid-split by the engine before split_blackjack / split_deal
    # existed: no such rule keys and no "deal_to". It goes on in turn, with a 21, as then.
    r, _ = run(HOLE_AS_002, ["Kh", "6d", "Kc", "Kd", "split"])
    old = r.to_dict()
    del old["rules"]["split_blackjack"], old["rules"]["split_deal"], old["deal_to"]
    restored = RoundState.from_dict(old)
    assert restored.rules.dealer_cards == "hole"
    assert (restored.rules.split_blackjack, restored.rules.split_deal) == ("twenty-one", "in-turn")
    for word in ("As", "9s", "stand", "5c"):
        restored.apply(parse_action(word))
    first, second = hands(restored)
    assert (first.total, first.result, second.result) == (21, "push", "lose")


# --- the variants of issue 23 item 6: insurance amount, burn, shuffle, cut window ----------------

HOLE_HALF = {"preset": HOLE, "insurance_amount": "half"}
# Box 1 gets 9 and 8 (17), the dealer an ace up and a hole 6: insurance is open.
ACE_UP = ["9h", "Ad", "8c", "6s"]


def test_insurance_up_to_half_takes_any_amount_to_half_the_bet():
    r, _ = run(HOLE, ACE_UP)
    (move,) = [m for m in r.legal_moves() if m.action == "insure"]
    assert (move.low, move.high) == (parse_action("bet 1 0.01").amount, 50)
    r, events = run(HOLE, [*ACE_UP, "insure 1 20"])
    assert r.box(1).insurance == 20


def test_insurance_of_exactly_half_offers_and_takes_only_half():
    """docs/sources.md#insurance: 003 «в размере половины своей ставки»."""
    r, _ = run(HOLE_HALF, ACE_UP)
    (move,) = [m for m in r.legal_moves() if m.action == "insure"]
    assert move.low == move.high == 50
    with pytest.raises(EngineError) as refused:
        run(HOLE_HALF, [*ACE_UP, "insure 1 20"])
    assert refused.value.code == "insurance_not_half"
    assert refused.value.params == {"box": 1, "amount": "20", "half": "50.00"}
    r, _ = run(HOLE_HALF, [*ACE_UP, "insure 1 50", "insurance-closed", "stand"])
    assert r.finished and r.box(1).insurance_net == -50
    # half of an odd number of cents: down to the cent, as the "up to half" maximum
    r, _ = run(HOLE_HALF, [*ACE_UP, "insure 1 12.50"], bets={"1": "25.01"})
    assert r.box(1).insurance == parse_action("insure 1 12.50").amount


def test_the_burn_follows_the_hole_card_unless_the_key_says_always_or_never():
    from game.engine import Rules

    assert Rules.preset("hole-card").burns_first_card
    assert not Rules.preset("standard").burns_first_card
    london = Rules.from_json({"preset": HOLE, "dealer_cards": "one"})
    assert not london.burns_first_card  # what a London-deal table did before the key
    assert Rules.from_json(
        {"preset": HOLE, "dealer_cards": "one", "burn_card": "always"}
    ).burns_first_card
    assert not Rules.from_json({"preset": HOLE, "burn_card": "never"}).burns_first_card


def test_a_rule_set_stored_before_the_new_keys_plays_as_before():
    from game.engine import Rules

    stored = Rules.preset(HOLE).to_json()
    for key in ("insurance_amount", "burn_card", "shuffle_every_round"):
        del stored[key]
    rules = Rules.from_json(stored)
    assert (rules.insurance_amount, rules.burn_card, rules.shuffle_every_round) == (
        "up-to-half",
        "hole-card",
        False,
    )
    assert rules.burns_first_card


@pytest.mark.parametrize(
    "key, value",
    [("insurance_amount", "most"), ("burn_card", True), ("shuffle_every_round", "yes")],
)
def test_a_new_key_with_a_value_it_does_not_take_is_refused_by_name(key, value):
    from game.engine import Rules, RulesError

    with pytest.raises(RulesError) as refused:
        Rules.from_json({"preset": STD, key: value})
    assert refused.value.params["key"] == key


def test_the_simulator_shuffles_before_every_round_when_the_rule_set_says_so():
    from game.engine import Rules
    from game.engine.simulate import edge

    keyed = edge(Rules.from_json({"preset": "open-cards", "shuffle_every_round": True}), 3000, "s")
    flagged = edge(Rules.preset("open-cards"), 3000, "s", reshuffle_every_round=True)
    plain = edge(Rules.preset("open-cards"), 3000, "s")
    assert keyed["reshuffle_every_round"] is True
    assert keyed["house_edge"] == flagged["house_edge"] != plain["house_edge"]


def test_exact_half_insurance_changes_no_simulated_edge():
    """Basic strategy never insures: the amount rule moves no simulated figure."""
    from game.engine import Rules
    from game.engine.simulate import edge

    half = edge(Rules.from_json(HOLE_HALF), 3000, "h")
    assert half["house_edge"] == edge(Rules.preset(HOLE), 3000, "h")["house_edge"]


# --- 003's double card face down to the end (double_card: face-down) ---------------------------

DOWN = {"preset": HOLE, "double_card": "face-down"}
STD_DOWN = {"preset": STD, "double_card": "face-down"}


def test_a_face_down_double_card_is_entered_after_the_dealer_and_then_settled():
    """docs/sources.md#double: 003 «третья карта остаётся лежать рубашкой вверх до самого
    конца игры». Box 1: 6-5 doubles (its card face down); box 2: 10-8 stands; the dealer
    (9 up, hole 7) draws a 2 to 18; then box 1's card is turned: a ten, 21."""
    script = ["6h", "Tc", "9d", "5s", "8c", "7h", "double"]
    r, events = run(DOWN, script, bets={"1": 100, "2": 100})
    assert events[-1] == {"kind": "double", "box": 1, "hand": 1, "bet": "200", "face_down": True}
    assert r.awaiting() == "decision:box 2 hand 1"  # no card now: the next box decides
    r, events = run(DOWN, [*script, "stand", "2d"], bets={"1": 100, "2": 100})
    assert r.phase == "turning" and r.awaiting() == "card:box 1 hand 1" and r.turn == (1, 0)
    assert r.legal_actions() == {"card"} and [m.box for m in r.legal_moves()] == [1]
    assert r.dealer_must_draw() is False
    assert events[-1]["kind"] == "dealer_stands"
    r, events = run(DOWN, [*script, "stand", "2d", "Ts"], bets={"1": 100, "2": 100})
    (turned,) = [e for e in events if e.get("turned")]
    assert (turned["box"], turned["card"], turned["total"]) == (1, "Ts", 21)
    assert r.finished and r.box(1).net == 200 and r.box(2).net == 0  # 21 wins; 18 pushes
    # the same round face up: the card comes at once, the same result
    up = ["6h", "Tc", "9d", "5s", "8c", "7h", "double", "Ts", "stand", "2d"]
    r_up, _ = run(HOLE, up, bets={"1": 100, "2": 100})
    assert r_up.box(1).net == 200 and r_up.box(2).net == 0


def test_a_turned_card_that_busts_loses_and_the_dealer_draws_for_a_face_down_hand():
    # one box: 6-6 doubled face down; the dealer (5 up, hole 6) must draw although nothing
    # else is in play: the face-down hand depends on his hand
    script = ["6h", "5d", "6s", "6c", "double"]
    r, _ = run(DOWN, script)
    assert r.phase == "dealer" and r.awaiting() == "card:dealer"
    r, events = run(DOWN, [*script, "Th", "Kd"])  # the dealer 21; the turned K: 22
    assert any(e["kind"] == "bust" for e in events) and r.box(1).net == -200


def test_a_dealer_blackjack_in_the_one_card_game_waits_for_the_turned_card():
    # 5-6 doubled face down against a ten; the dealer's ace makes Blackjack; the card is
    # turned, then the Blackjack takes everything (dealer_blackjack_takes: all)
    script = ["5h", "Td", "6s", "double", "As"]
    r, events = run(STD_DOWN, script)
    assert r.phase == "turning" and events[-1]["kind"] == "dealer_blackjack"
    r, _ = run(STD_DOWN, [*script, "9c"])
    assert r.finished and r.box(1).net == -200


def test_a_face_down_rule_set_replays_and_restores_mid_turning():
    from game.engine import RoundState

    script = ["6h", "Tc", "9d", "5s", "8c", "7h", "double", "stand", "2d"]
    r, _ = run(DOWN, script, bets={"1": 100, "2": 100})
    back = RoundState.from_dict(r.to_dict())
    assert back == r and back.awaiting() == "card:box 1 hand 1"
    back.apply(parse_action("Ts"))
    assert back.finished and back.box(1).net == 200


def test_the_simulator_plays_a_face_down_double_with_the_same_edge():
    """The card is entered later, the cards and decisions are the same: no figure moves."""
    from game.engine import Rules
    from game.engine.simulate import edge

    down = edge(Rules.from_json(DOWN), 3000, "d")
    assert abs(down["house_edge"] - edge(Rules.preset(HOLE), 3000, "d")["house_edge"]) < 0.05


# --- 003's variant: the players' cards dealt face down (player_cards: face-down) --------------

PDOWN = {"preset": HOLE, "player_cards": "face-down"}
STD_PDOWN = {"preset": STD, "player_cards": "face-down"}
D = "card-down"


def test_players_cards_face_down_are_entered_when_turned_at_the_box_s_turn():
    """docs/sources.md#players-cards-face-down: 003 «Карты игроков могут сдаваться
    взакрытую». The deal: each box's card face down (``card-down``), the dealer's as usual;
    at its turn the box's cards are turned and entered, then it decides."""
    r = RoundState(PDOWN)
    for a in ("bet 1 100", "bet 2 100", "close-bets"):
        r.apply(parse_action(a))
    assert r.awaiting() == "card-down:box 1" and r.legal_actions() == {"card-down"}
    assert [(m.action, m.box, m.hand) for m in r.legal_moves()] == [("card-down", 1, 0)]
    events = r.apply(parse_action(D))
    assert events == [{"kind": "card_down", "box": 1, "hand": 1}]
    assert r.shoe.dealt == 0  # the shoe gives the card up when it is entered
    for a in (D, "9d", D, D, "7h"):
        r.apply(parse_action(a))
    assert r.phase == "players" and r.awaiting() == "card:box 1 hand 1"
    assert r.face_down(1) == 2 and r.face_down(2) == 2 and r.legal_actions() == {"card"}
    turned = r.apply(parse_action("6h"))
    assert turned[0]["turned"] is True and r.face_down(1) == 1
    assert r.awaiting() == "card:box 1 hand 1"  # the second card before any decision
    r.apply(parse_action("5s"))
    assert r.awaiting() == "decision:box 1 hand 1" and "double" in r.legal_actions()
    for a in ("double", "Ts", "Tc", "8c", "stand", "2d"):
        r.apply(parse_action(a))
    assert r.finished and r.box(1).net == 200 and r.box(2).net == 0
    # the same cards face up: the same result
    up, _ = run(
        HOLE,
        ["6h", "Tc", "9d", "5s", "8c", "7h", "double", "Ts", "stand", "2d"],
        bets={"1": 100, "2": 100},
    )
    assert up.box(1).net == 200 and up.box(2).net == 0


def test_out_of_order_input_is_refused_and_changes_nothing():
    r = RoundState(PDOWN)
    for a in ("bet 1 100", "close-bets"):
        r.apply(parse_action(a))
    before = r.to_dict()
    with pytest.raises(EngineError) as refused:
        r.apply(parse_action("Th"))  # a face-down card cannot be entered when dealt
    assert refused.value.code == "card_face_down" and "face down" in refused.value.message
    assert r.to_dict() == before
    r.apply(parse_action(D))
    with pytest.raises(EngineError) as refused:
        r.apply(parse_action(D))  # the dealer's up card is due
    assert refused.value.code == "card_down_not_now"
    for a in ("9d", D, "7h"):
        r.apply(parse_action(a))
    before = r.to_dict()
    for word in ("stand", "double", "split", D):
        with pytest.raises(EngineError) as refused:
            r.apply(parse_action(word))
        assert r.to_dict() == before, word
    assert refused.value.code == "card_down_not_now"  # the last word tried: card-down
    with pytest.raises(EngineError) as refused:
        r.apply(parse_action("stand"))
    assert "box 1's cards lie face down" in refused.value.message
    assert refused.value.code == "cards_face_down" and refused.value.params == {"box": 1}
    with pytest.raises(EngineError) as refused:
        RoundState(HOLE).apply(parse_action(D))
    assert refused.value.code == "card_down_not_now"


def test_a_turned_blackjack_is_paid_at_its_turn_or_noted_against_a_ten():
    # hole-card, dealer 9 up: the Blackjack turned at its turn is paid 3:2 at once
    r, events = run(PDOWN, [D, "9d", D, "7h", "As", "Kd"])
    assert any(e["kind"] == "blackjack_paid" for e in events) and r.box(1).net == 150
    assert r.finished
    # standard (one card), dealer ten up: noted, then paid once the dealer's card is no ace
    r, events = run(STD_PDOWN, [D, "Td", D, "As", "Kd"])
    assert events[-1] == {"kind": "blackjack_noted", "box": 1} and r.phase == "dealer"
    r, _ = run(STD_PDOWN, [D, "Td", D, "As", "Kd", "7c"])
    assert r.finished and r.box(1).net == 150


def test_a_dealer_blackjack_at_the_peek_turns_every_face_down_card_first():
    # hole-card, ace up: insurance (no even money: the Blackjack is not known), the peek
    # finds Blackjack; box 1's cards are turned (a Blackjack: push), box 2's (20: lost)
    script = [D, D, "Ad", D, D, "Kh", "insure 1 50", "insurance-closed"]
    r, events = run(PDOWN, script, bets={"1": 100, "2": 100})
    offer = next(e for e in events if e["kind"] == "insurance_open")
    assert offer["even_money"] == [] and offer["boxes"] == [1, 2]
    assert r.phase == "turning" and r.awaiting() == "card:box 1 hand 1"
    r, _ = run(PDOWN, [*script, "As", "Kd", "Tc", "Td"], bets={"1": 100, "2": 100})
    assert r.finished
    assert r.box(1).hands[0].result == "push" and r.box(1).insurance_net == 100
    assert r.box(2).net == -100


def test_even_money_is_refused_while_the_cards_lie_face_down():
    r, _ = run(STD_PDOWN, [D, "Ad", D])
    assert r.phase == "insurance"
    with pytest.raises(EngineError) as refused:
        r.apply(parse_action("even-money 1"))
    assert refused.value.code == "even_money_not_allowed"
    assert "face down" in refused.value.message


def test_a_face_down_round_replays_from_its_events_and_restores_mid_turn():
    from game.engine import actions_from_events

    script = [D, "9d", D, "7h", "6h"]
    r, events = run(PDOWN, script)
    back = RoundState.from_dict(r.to_dict())
    assert back == r and back.face_down(1) == 1
    rebuilt = RoundState.replay(PDOWN, None, actions_from_events(events))
    assert rebuilt == r
    back.apply(parse_action("5s"))
    assert back.awaiting() == "decision:box 1 hand 1"


def test_the_simulator_plays_face_down_players_cards_with_the_same_edge():
    """The cards are entered later, the decisions are the same: no figure moves (basic
    strategy takes no even money at 3:2)."""
    from game.engine import Rules
    from game.engine.simulate import edge

    down = edge(Rules.from_json(PDOWN), 3000, "p")
    assert abs(down["house_edge"] - edge(Rules.preset(HOLE), 3000, "p")["house_edge"]) < 0.05
    std = edge(Rules.from_json(STD_PDOWN), 3000, "p")
    assert abs(std["house_edge"] - edge(Rules.preset(STD), 3000, "p")["house_edge"]) < 0.05
