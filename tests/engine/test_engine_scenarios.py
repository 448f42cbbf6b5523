"""Table-driven scenarios: every rule of docs/sources.md and every preset, played as the CLI
plays them.

Each case is a scenario (rules, bets, script) and the parts of the result that must hold.
Card order at the table: box by box, the dealer, box by box again (and the dealer's second card
last in hole-card and open games); then hits to the hand whose turn it is; then the dealer.
"""

from decimal import Decimal

import pytest

from game.engine.scenario import ScenarioError, play

STD = "standard"
HOLE = "hole-card"
OPEN = "open-cards"


def run(rules, bets, script, limits=None):
    scenario = {"rules": rules, "bets": bets, "script": script}
    if limits is not None:
        scenario["limits"] = limits
    return play(scenario).result()


def matches(actual, expected, path="result"):
    """Every key in ``expected`` is in ``actual`` with an equal value (recursively)."""
    if isinstance(expected, dict):
        assert isinstance(actual, dict), f"{path}: {actual!r} is not an object"
        for k, v in expected.items():
            assert k in actual, f"{path}: no key {k!r} in {actual!r}"
            matches(actual[k], v, f"{path}.{k}")
    elif isinstance(expected, list) and expected and isinstance(expected[0], dict):
        assert len(actual) == len(expected), f"{path}: {len(actual)} items, want {len(expected)}"
        for i, (a, e) in enumerate(zip(actual, expected, strict=True)):
            matches(a, e, f"{path}[{i}]")
    else:
        assert actual == expected, f"{path}: {actual!r} != {expected!r}"


def box(result, n):
    return next(b for b in result["boxes"] if b["box"] == n)


CASES = [
    # --- the two examples the issue says must hold -----------------------------------------
    (
        "must_hold_dealer_busts",
        STD,
        {"1": 100},
        ["Th", "6d", "9c", "stand", "Ks", "Qd"],
        {
            "finished": True,
            "dealer": {"cards": ["6d", "Ks", "Qd"], "bust": True, "total": 26},
            "boxes": [{"box": 1, "net": 100, "hands": [{"result": "win", "total": 19}]}],
            "net": 100,
        },
    ),
    (
        "must_hold_blackjack_paid_at_once_dealer_never_draws",
        STD,
        {"1": 100},
        ["As", "5d", "Kh"],
        {
            "finished": True,
            "dealer": {"cards": ["5d"], "blackjack": False},
            "boxes": [{"net": 150, "hands": [{"blackjack": True, "result": "win", "net": 150}]}],
            "net": 150,
        },
    ),
    # --- Blackjack -----------------------------------------------------------------------
    (
        "blackjack_3_to_2_on_odd_bet_pays_halves",
        STD,
        {"1": 15},
        ["Ad", "9c", "Qs"],
        {"net": Decimal("22.5")},
    ),
    (
        "blackjack_6_to_5",
        {"preset": STD, "blackjack_pays": "6:5"},
        {"1": 10},
        ["As", "5d", "Kh"],
        {"net": 12},
    ),
    (
        "blackjack_against_ten_waits_then_paid_dealer_takes_exactly_one_card",
        STD,
        {"1": 100},
        ["As", "Td", "Kh", "5c"],
        {
            "finished": True,
            "dealer": {"cards": ["Td", "5c"], "total": 15},
            "net": 150,
        },
    ),
    (
        "blackjack_against_ten_is_a_push_when_dealer_makes_blackjack",
        STD,
        {"1": 100},
        ["As", "Td", "Kh", "Ac"],
        {
            "dealer": {"blackjack": True},
            "boxes": [{"hands": [{"result": "push", "net": 0}]}],
            "net": 0,
        },
    ),
    (
        "blackjack_against_ten_waits_for_the_dealer_card",
        STD,
        {"1": 100},
        ["As", "Td", "Kh"],
        {"finished": False, "awaiting": "card:dealer", "net": 0},
    ),
    (
        "even_money_paid_at_once_dealer_does_not_draw",
        STD,
        {"1": 100},
        ["As", "Ad", "Kh", "even-money 1", "insurance-closed"],
        {
            "finished": True,
            "dealer": {"cards": ["Ad"]},
            "boxes": [{"even_money": True, "hands": [{"result": "win", "net": 100}]}],
            "net": 100,
        },
    ),
    (
        "even_money_declined_and_dealer_blackjack_is_a_push",
        STD,
        {"1": 100},
        ["As", "Ad", "Kh", "insurance-closed", "Tc"],
        {"finished": True, "net": 0},
    ),
    (
        "even_money_declined_and_no_dealer_blackjack_pays_3_to_2",
        STD,
        {"1": 100},
        ["As", "Ad", "Kh", "insurance-closed", "5c"],
        {"finished": True, "dealer": {"cards": ["Ad", "5c"]}, "net": 150},
    ),
    (
        "blackjack_beats_a_dealer_three_card_21",
        STD,
        {"1": 100, "2": 100},
        ["As", "9h", "Td", "Kh", "8c", "stand", "5c", "6d"],
        {
            "dealer": {"total": 21, "blackjack": False},
            "boxes": [{"net": 150}, {"net": -100}],
        },
    ),
    # --- insurance -----------------------------------------------------------------------
    (
        "insurance_pays_2_to_1_on_dealer_blackjack",
        STD,
        {"1": 100},
        ["Th", "Ad", "9c", "insure 1 50", "insurance-closed", "stand", "Kc"],
        {
            "boxes": [{"insurance": {"bet": 50, "net": 100}, "hands": [{"net": -100}], "net": 0}],
            "net": 0,
        },
    ),
    (
        "insurance_lost_without_dealer_blackjack",
        STD,
        {"1": 100},
        ["Th", "Ad", "9c", "insure 1 50", "insurance-closed", "stand", "7c"],
        {
            "dealer": {"total": 18, "soft": True},
            "boxes": [{"insurance": {"bet": 50, "net": -50}, "hands": [{"net": 100}], "net": 50}],
            "net": 50,
        },
    ),
    (
        "insurance_of_a_busted_box_makes_the_dealer_draw_exactly_one_card",
        STD,
        {"1": 100},
        ["Th", "Ad", "6c", "insure 1 50", "insurance-closed", "Kc", "5d"],
        {
            "finished": True,
            "dealer": {"cards": ["Ad", "5d"]},
            "net": -150,
        },
    ),
    (
        "insurance_phase_waits_for_insurance_closed",
        STD,
        {"1": 100},
        ["Th", "Ad", "9c"],
        {"finished": False, "awaiting": "insurance"},
    ),
    (
        "insurance_on_odd_half_bet",
        STD,
        {"1": 25},
        ["Th", "Ad", "9c", "insure 1 12.5", "insurance-closed", "stand", "Kc"],
        {"boxes": [{"insurance": {"bet": Decimal("12.5"), "net": 25}, "net": 0}]},
    ),
    # --- player's turn -------------------------------------------------------------------
    (
        "double_takes_one_card_and_doubles_the_bet",
        STD,
        {"1": 100},
        ["5h", "6d", "6c", "double", "Th", "Ts", "9c"],
        {
            "boxes": [
                {"hands": [{"cards": ["5h", "6c", "Th"], "doubled": True, "bet": 200, "net": 200}]}
            ],
            "net": 200,
        },
    ),
    (
        "double_waits_for_its_one_card",
        STD,
        {"1": 100},
        ["5h", "6d", "6c", "double"],
        {"awaiting": "card:box 1 hand 1"},
    ),
    (
        "no_card_at_21_turn_passes_on",
        STD,
        {"1": 100},
        ["5h", "6d", "6c", "Tc"],
        {"awaiting": "card:dealer", "boxes": [{"hands": [{"total": 21, "result": None}]}]},
    ),
    (
        "bust_loses_at_once_and_dealer_does_not_draw",
        STD,
        {"1": 100},
        ["Th", "6d", "6c", "Kc"],
        {"finished": True, "dealer": {"cards": ["6d"]}, "net": -100},
    ),
    (
        "dealer_does_not_draw_when_every_bet_is_settled",
        STD,
        {"1": 100, "2": 100},
        ["As", "Th", "5d", "Kh", "6c", "Kc"],
        {
            "finished": True,
            "dealer": {"cards": ["5d"]},
            "boxes": [{"net": 150}, {"net": -100}],
            "net": 50,
        },
    ),
    (
        "split_plays_one_hand_then_the_next",
        STD,
        {"1": 100},
        ["8h", "6d", "8c", "split", "3d", "Tc", "2s", "double", "Ks", "Th", "Qc"],
        {
            "boxes": [
                {
                    "hands": [
                        {"cards": ["8h", "3d", "Tc"], "total": 21, "bet": 100, "net": 100},
                        {
                            "cards": ["8c", "2s", "Ks"],
                            "total": 20,
                            "bet": 200,
                            "doubled": True,
                            "net": 200,
                        },
                    ],
                    "net": 300,
                }
            ],
        },
    ),
    (
        "split_hand_waits_for_its_second_card",
        STD,
        {"1": 100},
        ["8h", "6d", "8c", "split"],
        {"awaiting": "card:box 1 hand 1"},
    ),
    (
        "second_split_hand_gets_its_card_when_its_turn_starts",
        STD,
        {"1": 100},
        ["8h", "6d", "8c", "split", "3d", "stand"],
        {"awaiting": "card:box 1 hand 2"},
    ),
    (
        "tens_of_different_rank_split",
        STD,
        {"1": 100},
        ["Qh", "6d", "Jc", "split"],
        {"awaiting": "card:box 1 hand 1"},
    ),
    (
        "split_ace_and_ten_is_21_not_blackjack_paid_1_to_1",
        STD,
        {"1": 100},
        ["Ah", "6d", "Ac", "split", "Kd", "5c", "Th", "Tc"],
        {
            "boxes": [
                {
                    "hands": [
                        {"cards": ["Ah", "Kd"], "total": 21, "blackjack": False, "net": 100},
                        {"cards": ["Ac", "5c"], "total": 16, "soft": True, "net": 100},
                    ],
                    "net": 200,
                }
            ],
        },
    ),
    (
        "split_aces_take_one_card_each",
        STD,
        {"1": 100},
        ["Ah", "6d", "Ac", "split", "5d"],
        {"awaiting": "card:box 1 hand 2"},
    ),
    (
        "split_aces_resplit_to_four_hands",
        STD,
        {"1": 100},
        [
            "Ah",
            "6d",
            "Ac",
            "split",
            "As",
            "split",
            "Ad",
            "split",
            "2c",
            "Ah",
            "9s",
            "Tc",
            "Td",
            "5h",
        ],
        {
            "dealer": {"total": 21},
            "boxes": [
                {
                    "hands": [
                        {"cards": ["Ah", "2c"], "total": 13, "result": "lose"},
                        {"cards": ["Ad", "Ah"], "total": 12, "result": "lose"},
                        {"cards": ["As", "9s"], "total": 20, "result": "lose"},
                        {"cards": ["Ac", "Tc"], "total": 21, "blackjack": False, "result": "push"},
                    ],
                    "net": -300,
                }
            ],
        },
    ),
    (
        "no_resplit_of_aces_when_the_rules_say_so",
        {"preset": STD, "resplit_aces": False},
        {"1": 100},
        ["Ah", "6d", "Ac", "split", "As"],
        {"awaiting": "card:box 1 hand 2"},
    ),
    (
        "hit_split_aces_when_the_rules_allow",
        {"preset": STD, "hit_split_aces": True},
        {"1": 100},
        ["Ah", "6d", "Ac", "split", "5d"],
        {"awaiting": "decision:box 1 hand 1"},
    ),
    (
        "several_aces_count_one_soft_19",
        STD,
        {"1": 100},
        ["Ah", "Td", "Ac", "Ad", "6c", "stand", "7h"],
        {"boxes": [{"hands": [{"total": 19, "soft": True, "result": "win"}]}]},
    ),
    (
        "several_aces_count_one_hard_12",
        STD,
        {"1": 100},
        ["5h", "Td", "Ac", "Ad", "5c", "stand", "7h"],
        {"boxes": [{"hands": [{"total": 12, "soft": False, "result": "lose"}]}]},
    ),
    # --- three sevens --------------------------------------------------------------------
    (
        "three_sevens_pay_3_to_1_at_once",
        STD,
        {"1": 100},
        ["7h", "6d", "7c", "7h"],
        {
            "finished": True,
            "dealer": {"cards": ["6d"]},
            "boxes": [
                {
                    "bonuses": [{"kind": "three_sevens", "suited": False, "amount": 300}],
                    "hands": [{"result": "win", "net": 300}],
                    "net": 300,
                }
            ],
        },
    ),
    ("three_suited_sevens_pay_5_to_1", STD, {"1": 100}, ["7h", "6d", "7h", "7h"], {"net": 500}),
    ("three_sevens_without_suits_pay_3_to_1", STD, {"1": 100}, ["7", "6", "7", "7"], {"net": 300}),
    (
        "three_sevens_on_a_double_pay_on_the_doubled_bet",
        STD,
        {"1": 100},
        ["7h", "6d", "7c", "double", "7s"],
        {"net": 600},
    ),
    (
        "three_sevens_off_is_just_21",
        {"preset": STD, "three_sevens": False},
        {"1": 100},
        ["7h", "6d", "7c", "7h"],
        {"awaiting": "card:dealer", "net": 0},
    ),
    # --- the dealer ----------------------------------------------------------------------
    (
        "dealer_stands_on_soft_17",
        STD,
        {"1": 100},
        ["Th", "Ad", "9c", "insurance-closed", "stand", "6c"],
        {"finished": True, "dealer": {"total": 17, "soft": True}, "net": 100},
    ),
    (
        "dealer_hits_soft_17_when_the_rules_say_so",
        {"preset": STD, "dealer_hits_soft_17": True},
        {"1": 100},
        ["Th", "Ad", "9c", "insurance-closed", "stand", "6c", "4h"],
        {"finished": True, "dealer": {"total": 21}, "net": -100},
    ),
    (
        "dealer_stands_on_hard_17_even_when_hitting_soft_17",
        {"preset": STD, "dealer_hits_soft_17": True},
        {"1": 100},
        ["Th", "Td", "9c", "stand", "7c"],
        {"finished": True, "net": 100},
    ),
    (
        "equal_totals_push",
        STD,
        {"1": 100},
        ["Th", "7d", "7c", "stand", "Tc"],
        {"boxes": [{"hands": [{"result": "push", "net": 0}]}], "net": 0},
    ),
    (
        "dealer_wins_ties_when_the_rules_say_so",
        {"preset": STD, "ties": "dealer"},
        {"1": 100},
        ["Th", "7d", "7c", "stand", "Tc"],
        {"net": -100},
    ),
    # --- dealer Blackjack in the one-card game ---------------------------------------------
    (
        "dealer_blackjack_takes_all_of_doubled_and_split_hands",
        STD,
        {"1": 100, "2": 100},
        ["5h", "8h", "Td", "6c", "8c", "double", "2s", "split", "Ts", "stand", "9s", "stand", "As"],
        {
            "dealer": {"blackjack": True},
            "boxes": [{"net": -200}, {"net": -200, "hands": [{"net": -100}, {"net": -100}]}],
            "net": -400,
        },
    ),
    (
        "dealer_blackjack_takes_only_original_bets",
        {"preset": STD, "dealer_blackjack_takes": "original"},
        {"1": 100, "2": 100},
        ["5h", "8h", "Td", "6c", "8c", "double", "2s", "split", "Ts", "stand", "9s", "stand", "As"],
        {
            "boxes": [
                {"net": -100, "hands": [{"result": "lose", "net": -100, "bet": 200}]},
                {
                    "net": -100,
                    "hands": [{"result": "lose", "net": -100}, {"result": "push", "net": 0}],
                },
            ],
            "net": -200,
        },
    ),
    (
        "original_bets_only_counts_what_busted_hands_already_lost",
        {"preset": STD, "dealer_blackjack_takes": "original"},
        {"1": 100},
        ["8h", "Td", "8c", "split", "6s", "Kd", "9s", "stand", "As"],
        {
            "boxes": [
                {
                    "hands": [{"result": "lose", "net": -100}, {"result": "push", "net": 0}],
                    "net": -100,
                }
            ],
        },
    ),
    # --- hole-card game (003) ------------------------------------------------------------
    (
        "hole_card_deal_order_and_dealer_draw",
        HOLE,
        {"1": 100},
        ["Th", "6d", "9c", "Kd", "stand", "5c"],
        {"finished": True, "dealer": {"cards": ["6d", "Kd", "5c"], "total": 21}, "net": -100},
    ),
    (
        "hole_card_peek_on_ten_ends_the_round",
        HOLE,
        {"1": 100, "2": 100},
        ["Th", "As", "Kd", "9c", "Kh", "Ah"],
        {
            "finished": True,
            "dealer": {"cards": ["Kd", "Ah"], "blackjack": True},
            "boxes": [{"net": -100}, {"hands": [{"result": "push"}], "net": 0}],
        },
    ),
    (
        "hole_card_insurance_then_peek",
        HOLE,
        {"1": 100},
        ["Th", "Ad", "9c", "Kc", "insure 1 50", "insurance-closed"],
        {"finished": True, "boxes": [{"insurance": {"net": 100}, "net": 0}]},
    ),
    (
        "hole_card_no_dealer_blackjack_pays_blackjack_after_the_peek",
        HOLE,
        {"1": 100},
        ["As", "Ad", "Kh", "5c", "insurance-closed"],
        {"finished": True, "dealer": {"cards": ["Ad", "5c"]}, "net": 150},
    ),
    (
        "hole_card_even_money",
        HOLE,
        {"1": 100},
        ["As", "Ad", "Kh", "Kc", "even-money 1", "insurance-closed"],
        {"finished": True, "net": 100},
    ),
    (
        "hole_card_blackjack_against_six_paid_at_once",
        HOLE,
        {"1": 100},
        ["As", "6d", "Kh", "Tc"],
        {"finished": True, "net": 150},
    ),
    (
        "hole_card_double_on_9_to_11_only",
        {"preset": HOLE, "double_on": "9-11"},
        {"1": 100},
        ["4h", "6d", "5c", "Tc", "double", "Qc", "Ks"],
        {"finished": True, "dealer": {"bust": True}, "net": 200},
    ),
    # --- open dealer cards (004) ---------------------------------------------------------
    (
        "open_cards_dealer_blackjack_pays_player_blackjack_1_to_1",
        OPEN,
        {"1": 100, "2": 100},
        ["As", "9h", "Td", "Kh", "9c", "Ac"],
        {
            "finished": True,
            "dealer": {"blackjack": True},
            "boxes": [{"net": 100}, {"net": -100}],
            "net": 0,
        },
    ),
    (
        "open_cards_blackjack_paid_1_to_1_at_once",
        OPEN,
        {"1": 100},
        ["As", "Td", "Kh", "7c"],
        {"finished": True, "net": 100},
    ),
    (
        "open_cards_dealer_wins_ties",
        OPEN,
        {"1": 100},
        ["Th", "Td", "8h", "8c", "stand"],
        {"finished": True, "boxes": [{"hands": [{"result": "lose"}]}], "net": -100},
    ),
    (
        "open_cards_dealer_hits_soft_17",
        OPEN,
        {"1": 100},
        ["Th", "Ad", "9h", "6c", "stand", "2h"],
        {"finished": True, "dealer": {"total": 19}, "net": -100},
    ),
    (
        "open_cards_no_insurance_phase_against_ace",
        OPEN,
        {"1": 100},
        ["Th", "Ad", "9h", "6c"],
        {"awaiting": "decision:box 1 hand 1"},
    ),
    # --- deal order ----------------------------------------------------------------------
    (
        "deal_order_box_by_box_then_dealer_then_again",
        STD,
        {"3": 100, "1": 50},
        ["2h", "3h", "4h", "5h", "6h"],
        {
            "awaiting": "decision:box 1 hand 1",
            "dealer": {"cards": ["4h"]},
            "boxes": [
                {"box": 1, "hands": [{"cards": ["2h", "5h"]}]},
                {"box": 3, "hands": [{"cards": ["3h", "6h"]}]},
            ],
        },
    ),
]


@pytest.mark.parametrize(
    ("rules", "bets", "script", "expected"),
    [pytest.param(*c[1:], id=c[0]) for c in CASES],
)
def test_scenario(rules, bets, script, expected):
    matches(run(rules, bets, script), expected)


ERRORS = [
    (
        "bet_over_table_maximum",
        STD,
        {"1": 600},
        ["Th"],
        {"min": 10, "max": 500},
        "bet_over_maximum",
        None,
    ),
    (
        "bet_under_table_minimum",
        STD,
        {"1": 5},
        ["Th"],
        {"min": 10, "max": 500},
        "bet_under_minimum",
        None,
    ),
    ("bet_on_a_box_the_table_does_not_have", STD, {"9": 100}, [], None, "unknown_box", None),
    ("no_bets", STD, {}, [], None, "no_bets", None),
    ("bad_card", STD, {"1": 100}, ["Th", "Xx"], None, "bad_card", 1),
    ("unknown_word", STD, {"1": 100}, ["Th", "6d", "9c", "surrender"], None, "bad_action", 3),
    (
        "action_after_the_round_is_over",
        STD,
        {"1": 100},
        ["As", "5d", "Kh", "Tc"],
        None,
        "round_over",
        3,
    ),
    (
        "more_copies_than_the_decks_hold",
        {"preset": STD, "decks": 1},
        {"1": 100},
        ["As", "5d", "As"],
        None,
        "shoe_cannot_hold",
        2,
    ),
    ("stand_during_the_deal", STD, {"1": 100}, ["Th", "stand"], None, "illegal_action", 1),
    (
        "stand_at_21_is_not_asked",
        STD,
        {"1": 100},
        ["5h", "6d", "6c", "Tc", "stand"],
        None,
        "illegal_action",
        4,
    ),
    (
        "double_outside_9_to_11",
        {"preset": STD, "double_on": "9-11"},
        {"1": 100},
        ["Th", "6d", "2c", "double"],
        None,
        "double_not_allowed",
        3,
    ),
    (
        "double_after_split_refused",
        {"preset": STD, "double_after_split": False},
        {"1": 100},
        ["8h", "6d", "8c", "split", "3d", "double"],
        None,
        "double_not_allowed",
        5,
    ),
    (
        "double_on_three_cards_refused",
        STD,
        {"1": 100},
        ["2h", "6d", "3c", "4s", "double"],
        None,
        "double_not_allowed",
        4,
    ),
    (
        "split_of_unequal_cards_refused",
        STD,
        {"1": 100},
        ["8h", "6d", "9c", "split"],
        None,
        "split_not_allowed",
        3,
    ),
    (
        "no_fifth_hand",
        STD,
        {"1": 100},
        ["8h", "6d", "8c", "split", "8s", "split", "8d", "split", "8h", "split"],
        None,
        "split_not_allowed",
        9,
    ),
    (
        "max_hands_two",
        {"preset": STD, "max_hands": 2, "resplit_aces": False},
        {"1": 100},
        ["8h", "6d", "8c", "split", "8s", "split"],
        None,
        "split_not_allowed",
        5,
    ),
    (
        "insurance_over_half_the_bet",
        STD,
        {"1": 100},
        ["Th", "Ad", "9c", "insure 1 60"],
        None,
        "insurance_over_half",
        3,
    ),
    (
        "insurance_for_a_blackjack_is_even_money",
        STD,
        {"1": 100},
        ["As", "Ad", "Kh", "insure 1 50"],
        None,
        "insurance_not_allowed",
        3,
    ),
    (
        "insurance_twice",
        STD,
        {"1": 100},
        ["Th", "Ad", "9c", "insure 1 20", "insure 1 30"],
        None,
        "insurance_not_allowed",
        4,
    ),
    (
        "even_money_without_blackjack",
        STD,
        {"1": 100},
        ["Th", "Ad", "9c", "even-money 1"],
        None,
        "even_money_not_allowed",
        3,
    ),
    (
        "insurance_after_it_closed",
        STD,
        {"1": 100},
        ["Th", "Ad", "9c", "insurance-closed", "insure 1 50"],
        None,
        "insurance_closed",
        4,
    ),
    (
        "no_insurance_in_open_game",
        OPEN,
        {"1": 100},
        ["Th", "Ad", "9h", "6c", "insure 1 50"],
        None,
        "insurance_not_allowed",
        4,
    ),
    (
        "insurance_on_a_box_without_bet",
        STD,
        {"1": 100},
        ["Th", "Ad", "9c", "insure 2 50"],
        None,
        "no_bet_on_box",
        3,
    ),
    ("card_during_insurance", STD, {"1": 100}, ["Th", "Ad", "9c", "5c"], None, "illegal_action", 3),
    (
        "insurance_closed_when_not_open",
        STD,
        {"1": 100},
        ["Th", "6d", "9c", "insurance-closed"],
        None,
        "insurance_closed",
        3,
    ),
]


@pytest.mark.parametrize(
    ("rules", "bets", "script", "limits", "code", "step"),
    [pytest.param(*c[1:], id=c[0]) for c in ERRORS],
)
def test_illegal_scenario(rules, bets, script, limits, code, step):
    with pytest.raises(ScenarioError) as info:
        run(rules, bets, script, limits)
    assert info.value.code == code, info.value.message
    assert info.value.step == step
    assert info.value.message


def test_bad_rules_are_refused_with_a_message():
    with pytest.raises(ScenarioError) as info:
        run({"preset": OPEN, "insurance": True}, {"1": 100}, [])
    assert info.value.code == "bad_rules"
    assert "insurance" in info.value.message


def test_hit_split_aces_allows_hitting_them():
    r = run(
        {"preset": STD, "hit_split_aces": True},
        {"1": 100},
        ["Ah", "6d", "Ac", "split", "5d", "4c", "stand", "Tc", "Th", "Qc"],
    )
    assert [h["cards"] for h in box(r, 1)["hands"]] == [["Ah", "5d", "4c"], ["Ac", "Tc"]]
    assert r["finished"] and r["net"] == 200
