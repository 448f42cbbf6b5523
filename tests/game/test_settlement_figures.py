"""The figures a croupier pays are the live table's (``TableRound.box_settlement``,
``TableRound.at_stake``): what is in play at a box, what was paid at once, what is still to pay
or collect at the end and the chips that pay it. The screens format them (the tablet's
instruction, the tile's "at stake"), never compute them."""

from decimal import Decimal

import pytest

from game.table.live import TableRound
from tests.game.conftest import current_round

pytestmark = pytest.mark.django_db

CHIPS = ["25", "100", "500"]


def _state(table) -> TableRound:
    return TableRound.from_dict(current_round(table).snapshot)


def test_a_round_settles_into_what_to_pay_collect_and_the_chips(dealer_desk, table):
    dealer_desk.start_round({1: 100, 2: 100, 3: 200})
    assert _state(table).at_stake() == Decimal(400)  # the stakes, before the deal
    dealer_desk.ok("close-bets")
    # box 1: A K (Blackjack, paid at once against a 5); box 2: 9 7; box 3: T 9; dealer 5
    dealer_desk.cards("As", "9s", "Tc", "5d", "Kh", "7d", "9h")
    state = _state(table)
    assert state.box_settlement(1).paid_now == Decimal(150)
    assert state.box_settlement(2).to_settle is None  # nothing to settle in play
    dealer_desk.ok("double")  # box 2: 16, doubled: 200 in play
    dealer_desk.cards("2c")
    assert _state(table).box_settlement(2).in_play == Decimal(200)
    assert _state(table).at_stake() == Decimal(500)  # 100 + 200 + 200
    dealer_desk.ok("stand")  # box 3 on 19
    dealer_desk.cards("Td", "6c")  # dealer 5 T 6: 21

    state = _state(table)
    blackjack, doubled, nineteen = (state.box_settlement(n, CHIPS) for n in (1, 2, 3))
    assert (blackjack.to_settle, blackjack.chips) == (Decimal(0), ())  # paid at once
    assert doubled.to_settle == Decimal(-200) and doubled.chips == ()  # collect
    assert nineteen.to_settle == Decimal(-200)
    assert state.box_settlement(4) is None  # no bet: not dealt in


def test_what_is_still_to_pay_comes_in_the_tables_chips(dealer_desk, table):
    dealer_desk.start_round({1: 325})
    dealer_desk.ok("close-bets")
    dealer_desk.cards("Ts", "6d", "9h")  # box 1: T 9 = 19 against a 6
    dealer_desk.ok("stand")
    dealer_desk.cards("Tc", "Kd")  # dealer 6 T K: bust
    won = _state(table).box_settlement(1, CHIPS)
    assert won.to_settle == Decimal(325)
    assert won.chips == ((Decimal("100.00"), 3), (Decimal("25.00"), 1))
    assert won.rest == 0
    assert _state(table).box_settlement(1, ["100"]).rest == Decimal(25)  # no chip covers it
