"""The cash desk keeps a round's result by listening to the live table's "round closed"
(floor.signals.round_closed): written in the transaction that closes the round, with it or
not at all."""

import pytest

from cashdesk.models import RoundResult
from floor.signals import round_closed
from game.models import Round


def play_to_settlement(desk):
    desk.start_round({1: 100, 2: 200})
    desk.ok("close-bets")
    desk.cards("Th", "7c", "9d", "8h", "9s")  # box 1, box 2, the dealer, box 1, box 2
    desk.ok("stand")
    desk.ok("stand")
    desk.ok("card", card="Ts")  # the dealer: 19


@pytest.mark.django_db
def test_a_closed_round_has_its_result_for_the_reports(dealer_desk):
    play_to_settlement(dealer_desk)
    dealer_desk.ok("confirm-settlement")
    round_row = Round.objects.get()
    result = RoundResult.objects.get(round_id=round_row.pk)
    assert (result.players_net, result.total_bet, result.hands) == (
        round_row.players_net,
        round_row.total_bet,
        2,
    )


@pytest.mark.django_db
def test_a_result_that_cannot_be_written_leaves_the_round_open(dealer_desk):
    play_to_settlement(dealer_desk)

    def broken(sender, **figures):
        raise ValueError("the cash desk could not write")

    round_closed.connect(broken, dispatch_uid="test-broken-cash-desk")
    try:
        outcome = dealer_desk.send("confirm-settlement")
    finally:
        round_closed.disconnect(dispatch_uid="test-broken-cash-desk")
    assert not outcome.ok
    assert Round.objects.get().status == "settled"
    assert not RoundResult.objects.exists()
