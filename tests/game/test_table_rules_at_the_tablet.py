"""Rules the live command path adds at the tablet: stakes in the table's chips, a cut card
marked far too early asks for a confirmation, a re-opened table starts a new shoe."""

from decimal import Decimal

import pytest
from django.utils import timezone, translation

from game.commands.messages import error_text
from game.models import LiveTable
from tables.models import Table


@pytest.fixture
def chip_table(table):
    table.chip_denominations = ["50", "100", "500"]
    table.save()
    return table


def test_a_stake_the_chips_cannot_make_is_refused_and_changes_nothing(dealer_desk, chip_table):
    dealer_desk.start_round()
    version = dealer_desk.version

    refused = dealer_desk.send("bet", box=1, seat="P1", stake="150.50")

    assert not refused.ok and refused.code == "stake_not_in_chips"
    assert dealer_desk.version == version
    with translation.override("en"):
        text = error_text(refused.code, refused.params)
    assert text == (
        "A stake of 150.50 cannot be made of this table's chips (50, 100, 500): "
        "take the stake in chips."
    )
    with translation.override("ru"):
        assert "150,50" in error_text(refused.code, refused.params)


@pytest.mark.parametrize("stake", ["150", "650", "1000"])
def test_a_stake_made_of_the_chips_is_taken(dealer_desk, chip_table, stake):
    chip_table.max_bet = 5000
    chip_table.save()
    dealer_desk.start_round()
    dealer_desk.ok("bet", box=1, seat="P1", stake=stake)


@pytest.mark.parametrize("typed", ["1 050,00", "1050.00", "1\u00a0050"])
def test_a_stake_is_read_as_typed_in_either_language(dealer_desk, chip_table, typed):
    chip_table.max_bet = 5000
    chip_table.save()
    dealer_desk.start_round()
    dealer_desk.ok("bet", box=1, seat="P1", stake=typed)
    snapshot = LiveTable.objects.get(pk=chip_table.pk).current_round.snapshot
    assert Decimal(snapshot["shares"]["1"][0]["stake"]) == Decimal("1050")


def test_a_table_without_a_chip_set_takes_any_stake(dealer_desk, table):
    dealer_desk.start_round()
    dealer_desk.ok("bet", box=1, seat="P1", stake="150.50")


def test_the_cut_card_far_before_its_place_needs_a_confirmation(dealer_desk, table):
    dealer_desk.start_round({1: 100})  # 80 cards behind the cut card: it belongs at 232
    dealer_desk.ok("close-bets")
    dealer_desk.cards("Th", "5c")

    refused = dealer_desk.send("cut-card-out")

    assert not refused.ok and refused.code == "cut_card_early"
    assert refused.params == {"dealt": "2", "size": "312", "pct": "1"}
    dealer_desk.ok("cut-card-out", confirmed="1")
    live = LiveTable.objects.get(pk=table.pk)
    assert live.current_round.snapshot["cut_card_out"] == {"box": 1}


def test_the_cut_card_near_its_place_needs_no_confirmation(dealer_desk, table):
    dealer_desk.start_round({1: 100}, cards_behind_cut=78)
    live = LiveTable.objects.get(pk=table.pk)
    shoe = live.current_shoe
    # 200 cards already out (as after many rounds): the cut card belongs at 234, within a deck.
    shoe.state = {**shoe.state, "dealt": 200}
    shoe.save()
    round_row = live.current_round
    round_row.snapshot["opening"]["shoe"]["dealt"] = 200
    round_row.snapshot["engine"]["shoe"]["dealt"] = 200
    round_row.save()
    dealer_desk.ok("close-bets")
    dealer_desk.ok("cut-card-out")


def test_a_reopened_table_starts_a_new_shoe(dealer_desk, table):
    dealer_desk.start_round({1: 100})
    dealer_desk.ok("close-bets")
    dealer_desk.cards("Th", "5c", "9d")
    dealer_desk.ok("stand")
    dealer_desk.cards("Tc", "Ks")  # the dealer draws to 25
    dealer_desk.ok("confirm-settlement")
    dealer_desk.ok("open-round")  # the same shoe goes on while the table stays open
    dealer_desk.ok("bet", box=1, seat="P1", stake="100")
    dealer_desk.ok("close-bets")
    dealer_desk.cards("Th", "5c", "9d")
    dealer_desk.ok("stand")
    dealer_desk.cards("Tc", "Ks")  # the dealer draws to 25
    dealer_desk.ok("confirm-settlement")
    # The table closes and opens again (its checklists are tested in tests/tables).
    Table.objects.filter(pk=table.pk).update(opened_at=timezone.now())

    refused = dealer_desk.send("open-round")

    assert not refused.ok and refused.code == "shuffle_needed"
    dealer_desk.ok("shuffle", reason="new_shoe", cards_behind_cut=80)
    dealer_desk.ok("open-round")
    assert LiveTable.objects.get(pk=table.pk).current_shoe.number == 2
