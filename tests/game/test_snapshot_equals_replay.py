"""A round's snapshot is a cache of its event log: replaying the events rebuilds it exactly."""

import random

import pytest

from game.engine.cards import RANKS, SUITS
from game.models import Round
from game.selectors import round_replay, round_replay_steps
from game.table.live import TableRound
from tests.game.conftest import current_round

pytestmark = pytest.mark.django_db


def play_random_round(desk, rng: random.Random) -> None:
    """Drive one round with random legal commands (including corrections and voids)."""
    table = desk.table
    desk.start_round()
    for box in rng.sample(table.box_numbers, rng.randint(1, 4)):
        for seat in range(rng.randint(1, 3)):
            desk.ok("bet", box=box, seat=f"S{seat}", stake=str(rng.choice([10, 25, 50, 125])))
    desk.ok("close-bets")
    for _ in range(200):
        state = TableRound.from_dict(current_round(table).snapshot)
        if state.status == "settled":
            desk.ok("confirm-settlement")
            return
        legal = state.legal_commands()
        choice = rng.choice(sorted(legal - {"void", "cut-card-out", "confirm-settlement"}))
        if choice in ("card", "correct-card"):
            shoe = state.engine.shoe
            while True:
                card = rng.choice(RANKS) + rng.choice(SUITS)
                from game.engine import Card

                if shoe.can_hold(Card.parse(card)):
                    break
            desk.ok(choice, card=card)
        elif choice == "insure":
            box = rng.choice(state.engine.seats)
            outcome = desk.send("insure", box=box.number, amount=str(box.bet / 2))
            if not outcome.ok:
                desk.ok("insurance-closed")
        elif choice == "even-money":
            desk.send("even-money", box=rng.choice(state.engine.seats).number)
        else:
            desk.ok(choice)
    raise AssertionError("the round did not finish")


def test_snapshot_equals_a_replay_of_the_events_for_random_rounds(dealer_desk, table):
    rng = random.Random(20261129)
    for _ in range(12):
        play_random_round(dealer_desk, rng)
    rounds = list(Round.objects.filter(table=table))
    assert len(rounds) == 12
    for round_row in rounds:
        assert round_replay(round_row).to_dict() == round_row.snapshot
        events, state_after = round_replay_steps(round_row)
        assert state_after(len(events) - 1).to_dict() == round_row.snapshot
        assert [event.seq for event in events] == list(range(1, len(events) + 1))


def test_a_voided_round_replays_to_its_snapshot(dealer_desk, inspector_desk, table):
    dealer_desk.start_round({1: 100})
    dealer_desk.ok("close-bets")
    dealer_desk.cards("Th", "6d")
    inspector_desk.ok("void", reason="Card exposed")
    row = current_round(table)
    assert round_replay(row).to_dict() == row.snapshot
