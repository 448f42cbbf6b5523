"""A round at a live table through the one write path, ``command_submit``."""

from decimal import Decimal

import pytest

from game.models import Command, RoundEvent
from game.table.live import TableRound
from tests.game.conftest import current_round

pytestmark = pytest.mark.django_db


def snapshot(table):
    r = current_round(table)
    return r.snapshot if r else None


def test_round_goes_from_betting_to_closed_and_pays_the_winner(dealer_desk, table):
    dealer_desk.start_round({1: 100})
    assert current_round(table).status == "betting"
    dealer_desk.ok("close-bets")
    dealer_desk.cards("Th", "6d", "9c")
    assert current_round(table).status == "players"
    dealer_desk.ok("stand")
    assert current_round(table).status == "dealer"
    dealer_desk.cards("Ks", "Qd")
    row = current_round(table)
    assert row.status == "settled"
    state = TableRound.from_dict(row.snapshot)
    assert state.engine.net == Decimal(100)
    dealer_desk.ok("confirm-settlement")
    row.refresh_from_db()
    assert row.status == "closed"
    assert row.players_net == Decimal(100)
    assert row.closed_at is not None


def test_blackjack_against_a_low_card_is_paid_at_once_and_dealer_does_not_draw(dealer_desk, table):
    dealer_desk.start_round({1: 100})
    dealer_desk.ok("close-bets")
    dealer_desk.cards("As", "5d", "Kh")
    state = TableRound.from_dict(snapshot(table))
    assert state.status == "settled"
    assert state.engine.net == Decimal(150)
    assert [e["kind"] for e in state.paid_at_once] == ["blackjack_paid"]


def test_insurance_phase_split_and_double(dealer_desk, table):
    dealer_desk.start_round({1: 100, 2: 50})
    dealer_desk.ok("close-bets")
    dealer_desk.cards("8s", "5h", "Ad", "8c", "6h")  # box 1: 8 8; box 2: 5 6; dealer A
    assert current_round(table).status == "insurance"
    dealer_desk.ok("insure", box=1, amount="50")
    dealer_desk.ok("insurance-closed")
    dealer_desk.ok("split")
    dealer_desk.cards("3d")  # first split hand: 8 3
    dealer_desk.ok("double")
    dealer_desk.cards("Tc")  # 21 doubled
    dealer_desk.cards("9h")  # second split hand: 8 9
    dealer_desk.ok("stand")
    dealer_desk.ok("double")  # box 2: 5 6 doubles
    dealer_desk.cards("9s")  # 20
    dealer_desk.cards("7c")  # dealer A 7 = soft 18, stands
    state = TableRound.from_dict(snapshot(table))
    assert state.status == "settled"
    box1, box2 = state.engine.seats
    assert [h.result for h in box1.hands] == ["win", "lose"]
    # +200 (doubled 21) -100 (17) -50 insurance; box 2 doubled 20 beats 18: +100
    assert box1.net == Decimal(200 - 100 - 50)
    assert box2.net == Decimal(100)


def test_box_shares_are_paid_pro_rata_with_the_remainder_to_the_owner(dealer_desk, table):
    dealer_desk.start_round()
    dealer_desk.ok("bet", box=3, seat="Anna", stake="100")
    dealer_desk.ok("bet", box=3, seat="Boris", stake="100")
    dealer_desk.ok("bet", box=3, seat="Vera", stake="100")
    refused = dealer_desk.send("bet", box=3, seat="Gleb", stake="10")
    assert not refused.ok and refused.code == "box_full"
    dealer_desk.ok("close-bets")
    dealer_desk.cards("As", "6d", "Kh")  # Blackjack against a 6: 450 at once
    state = TableRound.from_dict(snapshot(table))
    payouts = state.share_payouts()[3]
    assert [p["net"] for p in payouts] == [Decimal("150"), Decimal("150"), Decimal("150")]


def test_share_remainder_goes_to_the_owner(dealer_desk, table):
    dealer_desk.start_round()
    dealer_desk.ok("bet", box=1, seat="Owner", stake="10")
    dealer_desk.ok("bet", box=1, seat="Guest", stake="10")
    dealer_desk.ok("bet", box=1, seat="Third", stake="15")  # box 35
    dealer_desk.ok("close-bets")
    dealer_desk.cards("As", "6d", "Kh")  # 52.5 at once
    state = TableRound.from_dict(snapshot(table))
    nets = [p["net"] for p in state.share_payouts()[1]]
    assert sum(nets) == Decimal("52.5")
    assert nets == [Decimal("15.00"), Decimal("15.00"), Decimal("22.50")]


@pytest.mark.parametrize(
    ("action", "fields", "code"),
    [
        ("bet", {"box": 1, "seat": "A", "stake": "501"}, "bet_over_maximum"),
        ("bet", {"box": 1, "seat": "A", "stake": "5"}, "bet_under_minimum"),
        ("bet", {"box": 9, "seat": "A", "stake": "50"}, "unknown_box"),
        ("bet", {"box": 1, "seat": "A", "stake": "ten"}, "not_an_amount"),
        ("bet", {"box": 1, "seat": "", "stake": "50"}, "seat_required"),
        ("stand", {}, "illegal_action"),
        ("card", {"card": "Th"}, "illegal_action"),
        ("confirm-settlement", {}, "not_settled"),
        ("open-round", {}, "round_in_progress"),
        ("shuffle", {"cards_behind_cut": 80}, "round_in_progress"),
        ("teleport", {}, "bad_action"),
    ],
)
def test_bad_commands_during_betting_are_refused_and_change_nothing(
    dealer_desk, table, action, fields, code
):
    dealer_desk.start_round({2: 100})
    before_version, before = dealer_desk.version, snapshot(table)
    events_before = RoundEvent.objects.count()
    outcome = dealer_desk.send(action, **fields)
    assert not outcome.ok
    assert outcome.code.startswith(code) or outcome.code == code
    assert dealer_desk.version == before_version
    assert snapshot(table) == before
    assert RoundEvent.objects.count() == events_before


@pytest.mark.parametrize("card", ["Zz", "1s", "Tx", "", "AAA"])
def test_a_card_that_is_not_a_card_is_refused(dealer_desk, table, card):
    dealer_desk.start_round({1: 100})
    dealer_desk.ok("close-bets")
    before = snapshot(table)
    outcome = dealer_desk.send("card", card=card)
    assert not outcome.ok and outcome.code == "bad_card"
    assert snapshot(table) == before


def test_a_card_the_shoe_cannot_hold_is_refused(staffed_table):
    table, desks = staffed_table(5, rules={"preset": "standard", "decks": 1})
    desk = desks["dealer"]
    desk.start_round({1: 100}, cards_behind_cut=15)
    desk.ok("close-bets")
    desk.cards("As", "Ad")
    before = snapshot(table)
    outcome = desk.send("card", card="As")  # one deck holds one ace of spades
    assert not outcome.ok and outcome.code == "shoe_cannot_hold"
    assert "As" in outcome.message
    assert snapshot(table) == before


def test_a_command_out_of_turn_or_role_is_refused(
    dealer_desk, observer_desk, inspector_desk, table
):
    dealer_desk.start_round({1: 100})
    for desk, action in (
        (observer_desk, "close-bets"),
        (inspector_desk, "close-bets"),
        (observer_desk, "void"),
        (dealer_desk, "void"),
    ):
        outcome = desk.send(action, reason="x")
        assert not outcome.ok and outcome.code == "not_your_action"
    assert current_round(table).status == "betting"


def test_a_repeated_command_id_acts_only_once(dealer_desk, table):
    dealer_desk.start_round()
    first = dealer_desk.send(
        "bet", box=1, seat="A", stake="100", command_id="6f1c1d1e-0000-4000-8000-000000000001"
    )
    again = dealer_desk.send(
        "bet",
        box=1,
        seat="A",
        stake="100",
        command_id="6f1c1d1e-0000-4000-8000-000000000001",
        expected_version=first.version - 1,
    )
    assert first.ok and again.ok and again.duplicate
    assert again.version == first.version
    assert dealer_desk.version == first.version
    assert Command.objects.filter(pk="6f1c1d1e-0000-4000-8000-000000000001").count() == 1


def test_a_stale_version_is_refused(dealer_desk, table):
    dealer_desk.start_round()
    stale = dealer_desk.version - 1
    outcome = dealer_desk.send("bet", box=1, seat="A", stake="100", expected_version=stale)
    assert not outcome.ok and outcome.code == "stale"
    assert not TableRound.from_dict(snapshot(table)).shares


@pytest.mark.parametrize("bad", [{"id": "not-a-uuid"}, {"expected_version": "x"}])
def test_a_malformed_message_is_refused(dealer_desk, table, bad):
    from game.services import command_submit

    command = {
        "id": "6f1c1d1e-0000-4000-8000-00000000000a",
        "expected_version": 0,
        "action": "shuffle",
        **bad,
    }
    outcome = command_submit(table_id=table.pk, actor=dealer_desk.user, command=command)
    assert not outcome.ok and outcome.code == "bad_message"


def test_the_last_card_can_be_corrected_and_the_correction_is_kept(dealer_desk, table):
    dealer_desk.start_round({1: 100})
    dealer_desk.ok("close-bets")
    dealer_desk.cards("Th", "6d", "9c")
    dealer_desk.ok("correct-card", card="8c")
    state = TableRound.from_dict(snapshot(table))
    assert [c.code for c in state.engine.seats[0].hands[0].cards] == ["Th", "8c"]
    assert state.corrections == [{"kind": "correction", "old": "9c", "new": "8c"}]
    assert RoundEvent.objects.filter(type="correct-card").count() == 1
    assert RoundEvent.objects.filter(type="card").count() == 3  # never deleted
    dealer_desk.ok("stand")
    late = dealer_desk.send("correct-card", card="7c")
    assert not late.ok and late.code == "nothing_to_correct"


def test_only_the_inspector_voids_a_round_and_only_with_a_reason(
    dealer_desk, inspector_desk, table
):
    dealer_desk.start_round({1: 100})
    dealer_desk.ok("close-bets")
    dealer_desk.cards("Th")
    no_reason = inspector_desk.send("void", reason="  ")
    assert not no_reason.ok and no_reason.code == "reason_required"
    inspector_desk.ok("void", reason="Misdeal: two cards stuck together")
    row = current_round(table)
    assert row.status == "voided"
    assert row.players_net == 0
    assert TableRound.from_dict(row.snapshot).void_reason.startswith("Misdeal")
    after = dealer_desk.send("card", card="9c")
    assert not after.ok and after.code == "round_over"


def test_the_cut_card_finishes_the_round_and_the_next_needs_a_shuffle(dealer_desk, table):
    dealer_desk.start_round({1: 100, 4: 100})
    dealer_desk.ok("close-bets")
    dealer_desk.cards("Th")
    early = dealt_too_early = dealer_desk.send("cut-card-out")  # 1 card of 312 is out
    assert not early.ok and dealt_too_early.code == "cut_card_early"
    dealer_desk.ok("cut-card-out", confirmed="1")  # the next card goes to box 4
    dealer_desk.cards("6d", "9c", "Ts", "Td")
    dealer_desk.ok("stand")
    dealer_desk.ok("stand")
    dealer_desk.cards("Kc")
    dealer_desk.ok("confirm-settlement")
    refused = dealer_desk.send("open-round")
    assert not refused.ok and refused.code == "shuffle_needed"
    dealer_desk.ok("shuffle", reason="cut_card", cards_behind_cut=90, cut_by_box=4)
    from game.models import LiveTable

    shoe = LiveTable.objects.get(pk=table.pk).current_shoe
    assert shoe.cut_entitled_box == 4 and shoe.cut_by_box == 4 and shoe.number == 2
    dealer_desk.ok("open-round")


@pytest.mark.parametrize("behind", [77, 105, "", "many"])
def test_the_cut_card_must_leave_a_quarter_to_a_third_of_the_pack(dealer_desk, table, behind):
    outcome = dealer_desk.send("shuffle", reason="new_shoe", cards_behind_cut=behind)
    assert not outcome.ok and outcome.code == "bad_cut"
    assert outcome.params == {"low": "78", "high": "104"}


def test_a_players_reshuffle_is_allowed_once_per_shoe_unless_alone(dealer_desk, table):
    dealer_desk.start_round({1: 100, 2: 100})
    dealer_desk.ok("close-bets")
    dealer_desk.cards("Th", "Tc", "6d", "9c", "9d")
    dealer_desk.ok("stand")
    dealer_desk.ok("stand")
    dealer_desk.cards("Ks", "Qd")
    dealer_desk.ok("confirm-settlement")
    # two players: only the shuffle just made is repeated, once
    mid_shoe = dealer_desk.send("shuffle", reason="player_request", cards_behind_cut=80)
    assert not mid_shoe.ok and mid_shoe.code == "reshuffle_not_just_shuffled"
    dealer_desk.ok("shuffle", reason="new_shoe", cards_behind_cut=80)
    dealer_desk.ok("shuffle", reason="player_request", cards_behind_cut=80)
    again = dealer_desk.send("shuffle", reason="player_request", cards_behind_cut=80)
    assert not again.ok and again.code == "reshuffle_limit"
    # one player alone at the table (one seat in the last round): as often as he asks
    dealer_desk.ok("open-round")
    dealer_desk.ok("bet", box=1, seat="Solo", stake="100")
    dealer_desk.ok("bet", box=2, seat="Solo", stake="100")
    dealer_desk.ok("close-bets")
    dealer_desk.cards("As", "Ad", "5d", "Kh", "Kc")  # two Blackjacks against a 5
    dealer_desk.ok("confirm-settlement")
    dealer_desk.ok("shuffle", reason="player_request", cards_behind_cut=80)
    dealer_desk.ok("shuffle", reason="player_request", cards_behind_cut=80)


def test_a_hole_card_game_burns_a_card_and_peeks(staffed_table):
    table, desks = staffed_table(6, rules={"preset": "hole-card"})
    desk = desks["dealer"]
    missing = desk.send("shuffle", reason="new_shoe", cards_behind_cut=40)
    assert not missing.ok and missing.code == "burn_card_required"
    desk.ok("shuffle", reason="new_shoe", cards_behind_cut=40, burn_card="5c")
    desk.ok("open-round")
    desk.ok("bet", box=1, seat="A", stake="100")
    desk.ok("close-bets")
    desk.cards("9h", "Ts", "9d", "As")  # dealer T up, A in the hole: Blackjack on the peek
    state = TableRound.from_dict(snapshot(table))
    assert state.status == "settled"
    assert state.engine.net == Decimal(-100)
    assert state.engine.shoe.dealt == 5  # the burnt card counts against the shoe


def test_an_open_cards_game_pays_blackjack_even_money_and_dealer_wins_ties(staffed_table):
    table, desks = staffed_table(7, rules={"preset": "open-cards"})
    desk = desks["dealer"]
    desk.start_round({1: 100, 2: 100})
    desk.ok("close-bets")
    desk.cards("As", "9h", "Th", "Kd", "8c", "9c")  # box 1 A K; box 2 9 8; dealer T 9
    desk.ok("stand")  # box 2 stands on 17
    state = TableRound.from_dict(snapshot(table))
    assert state.status == "settled"
    box1, box2 = state.engine.seats
    assert box1.net == Decimal(100)  # 1:1
    assert box2.net == Decimal(-100)


def test_a_simulated_table_deals_its_own_cards(staffed_table):
    table, desks = staffed_table(8, card_entry="simulated")
    desk = desks["dealer"]
    desk.start_round({1: 100})
    desk.ok("close-bets")
    manual = desk.send("card", card="Th")
    assert not manual.ok and manual.code == "manual_only"
    for _ in range(30):
        state = TableRound.from_dict(snapshot(table))
        if state.status == "settled":
            break
        if "insurance-closed" in state.legal_commands():
            desk.ok("insurance-closed")
        elif "stand" in state.legal_commands():
            desk.ok("stand")
        else:
            desk.ok("deal-next")
    state = TableRound.from_dict(snapshot(table))
    assert state.status == "settled"
    assert state.engine.shoe.dealt >= 3


@pytest.mark.parametrize("box", [" 1", "+1", "1 ", "²", "1.0", True])
def test_a_box_number_that_is_not_plain_digits_is_refused(dealer_desk, table, box):
    dealer_desk.start_round()
    before = snapshot(table)
    outcome = dealer_desk.send("bet", box=box, seat="A", stake="100")
    assert not outcome.ok and outcome.code in ("bad_action", "bad_message")
    assert snapshot(table) == before


@pytest.mark.parametrize(
    ("stake", "code"),
    [
        ("101.005", "amount_decimals"),
        ("1.00000000000000000000000001E+2", "not_an_amount"),
        ("1E+100000000", "not_an_amount"),
        ("-0", "amount_negative"),
        ("NaN", "not_an_amount"),
        ("1e12", "not_an_amount"),
    ],
)
def test_a_stake_that_is_not_whole_cents_or_is_absurd_is_refused(dealer_desk, table, stake, code):
    dealer_desk.start_round()
    before = snapshot(table)
    outcome = dealer_desk.send("bet", box=1, seat="A", stake=stake)
    assert not outcome.ok and outcome.code == code
    assert snapshot(table) == before


def test_a_bet_on_a_reserved_box_is_refused_however_the_box_is_written(
    dealer_desk, observer_desk, table
):
    dealer_desk.start_round()
    observer_desk.ok("reserve", box=3, seat="Anna")
    for box in (3, "3", " 3", "+3"):
        outcome = dealer_desk.send("bet", box=box, seat="B", stake="100")
        assert not outcome.ok
    assert not TableRound.from_dict(snapshot(table)).shares
