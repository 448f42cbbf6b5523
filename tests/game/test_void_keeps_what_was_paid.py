"""Issue 11 ("also settle"): a voided round's payments made at once — a Blackjack paid
against a low card, even money — stay paid (the house's rule) and are recorded as such:
in the void event, as the round's result, in the report and in the tray check."""

from decimal import Decimal

import pytest
from django.utils import translation

from cashdesk.models import RoundResult
from cashdesk.selectors import cash_report, shift_report
from game.replay import replay_steps
from game.table.live import TableRound
from tests.cashdesk.conftest import today
from tests.game.conftest import current_round

pytestmark = pytest.mark.django_db


def _paid(voided) -> list[tuple]:
    return [(p["box"], p["kind"], Decimal(p["net"])) for p in voided["paid_stays"]]


def _void_event(row):
    event = row.events.order_by("-seq").first()
    assert event.type == "void"
    (voided,) = [e for e in event.payload["events"] if e["kind"] == "voided"]
    return voided


def test_a_blackjack_paid_before_the_void_stays_paid_and_is_recorded(
    dealer_desk, inspector_desk, table
):
    dealer_desk.start_round({1: 100, 2: 100})
    dealer_desk.ok("close-bets")
    dealer_desk.cards("As", "9s", "5d", "Kh", "7d")  # box 1: Blackjack against a 5
    assert [
        e["kind"] for e in TableRound.from_dict(current_round(table).snapshot).paid_at_once
    ] == ["blackjack_paid"]
    inspector_desk.ok("void", reason="Card exposed")

    row = current_round(table)
    assert row.status == "voided"
    assert row.players_net == Decimal(150)  # 3:2 of 100, paid at once, stays paid
    voided = _void_event(row)
    assert _paid(voided) == [(1, "blackjack_paid", Decimal(150))]
    assert Decimal(voided["paid_net"]) == 150

    result = RoundResult.objects.get(round_id=row.pk)
    assert result.voided and result.players_net == Decimal(150) and result.hands == 0
    day = cash_report(first=today(), last=today())["total"]
    assert day.rounds == 0  # a voided round is no round played...
    assert day.game_win == Decimal(-150)  # ...but the chips it paid left the tray
    assert shift_report(gaming_day=today())[0]["game_win"] == Decimal(-150)
    with translation.override("en"):
        steps, _state = replay_steps(row)
        assert "stays paid: 150.00" in str(steps[-1]["text"])


def test_even_money_taken_before_the_void_stays_paid(dealer_desk, inspector_desk, table):
    dealer_desk.start_round({1: 100})
    dealer_desk.ok("close-bets")
    dealer_desk.cards("As", "Ad", "Kh")  # box 1: Blackjack against the dealer's ace
    dealer_desk.ok("even-money", box=1)
    inspector_desk.ok("void", reason="Misdeal")
    row = current_round(table)
    assert row.players_net == Decimal(100)
    assert _paid(_void_event(row)) == [(1, "even_money", Decimal(100))]
    assert RoundResult.objects.get(round_id=row.pk).players_net == Decimal(100)


def test_a_void_with_nothing_paid_records_no_result(dealer_desk, inspector_desk, table):
    dealer_desk.start_round({1: 100})
    dealer_desk.ok("close-bets")
    dealer_desk.cards("Th")
    inspector_desk.ok("void", reason="Misdeal")
    row = current_round(table)
    assert row.players_net == 0
    assert _void_event(row)["paid_stays"] == []
    assert not RoundResult.objects.filter(round_id=row.pk).exists()
