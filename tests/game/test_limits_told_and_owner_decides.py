"""docs/sources.md#limits-told: every player new at the table is told its limits before he
plays, and the round log records it; docs/sources.md#box-shared-by-up-to-three: the owner of
a box takes its every decision, and the round log says who decided."""

import pytest
from django.utils import translation

from game.commands.messages import error_text
from game.models import RoundEvent
from game.replay import replay_steps, step_text
from game.screens.publish import render_fragment, table_view
from game.table.live import TableRound
from tests.desk import current_round

pytestmark = pytest.mark.django_db


def _event(table, action):
    return RoundEvent.objects.filter(round=current_round(table), type=action).get()


def _finish(desk, boxes):
    desk.cards(*["Th"] * boxes, "7d", *["9c"] * boxes)
    for _ in range(boxes):
        desk.ok("stand")
    desk.cards("Ks")
    desk.ok("confirm-settlement")


def test_a_newcomer_is_told_the_limits_before_bets_close(dealer_desk, table):
    dealer_desk.start_round({1: 100})
    dealer_desk.ok("bet", box=2, seat="Anna", stake="100")
    html = {lang: render_fragment(table_view(table.pk), "live", lang) for lang in ("en", "ru")}
    assert "New at the table: P1, Anna. Tell them the limits: 10.00 to 500.00 a box." in html["en"]
    assert "Известите их о размерах ставок" in html["ru"]
    assert 'name="limits_announced" value="told"' in html["en"]
    refused = dealer_desk.send("close-bets", limits_announced="")
    assert (refused.ok, refused.code) == (False, "limits_not_announced")
    assert refused.params == {"seats": "P1, Anna", "min": "10.00", "max": "500.00"}
    with translation.override("en"):
        assert error_text(refused.code, refused.params).startswith(
            "Tell P1, Anna the table's limits first: 10.00 to 500.00 a box."
        )
    dealer_desk.ok("close-bets", limits_announced="told")
    command = _event(table, "close-bets").payload["command"]
    assert command["limits_told_to"] == "P1, Anna"
    with translation.override("en"):
        assert "the table's limits told to P1, Anna" in step_text("close-bets", command, [])
    _finish(dealer_desk, 2)
    # the next round: Anna was told; Boris is new
    dealer_desk.ok("open-round")
    dealer_desk.ok("bet", box=1, seat="Anna", stake="100")
    dealer_desk.ok("bet", box=2, seat="Boris", stake="100")
    refused = dealer_desk.send("close-bets", limits_announced="", newcomer_consent="agreed")
    assert refused.params["seats"] == "Boris"
    dealer_desk.ok("close-bets", limits_announced="told", newcomer_consent="agreed")
    assert _event(table, "close-bets").payload["command"]["limits_told_to"] == "Boris"
    _finish(dealer_desk, 2)
    dealer_desk.ok("open-round")
    dealer_desk.ok("bet", box=1, seat="Anna", stake="100")
    dealer_desk.ok("bet", box=2, seat="Boris", stake="100")
    html = render_fragment(table_view(table.pk), "live", "en")
    assert 'data-testid="limits-prompt"' not in html
    dealer_desk.ok("close-bets", limits_announced="")
    assert "limits_told_to" not in _event(table, "close-bets").payload["command"]


def test_a_round_voided_before_bets_closed_told_nobody(dealer_desk, inspector_desk, table):
    dealer_desk.start_round({1: 100})
    inspector_desk.ok("void", reason="the player left")
    dealer_desk.ok("open-round")
    assert current_round(table).snapshot["opening"]["informed"] == []
    dealer_desk.ok("bet", box=1, seat="P1", stake="100")
    assert dealer_desk.send("close-bets", limits_announced="").code == "limits_not_announced"


def _shared_box_round(desk, table):
    desk.start_round()
    desk.ok("bet", box=1, seat="Anna", stake="100")
    desk.ok("bet", box=1, seat="Boris", stake="50")
    desk.ok("close-bets")
    desk.cards("5h", "7d", "6c")  # box 1: 5 6 = 11; dealer 7


def test_the_owner_of_a_shared_box_decides_and_the_log_says_so(dealer_desk, table):
    _shared_box_round(dealer_desk, table)
    html = {lang: render_fragment(table_view(table.pk), "live", lang) for lang in ("en", "ru")}
    assert "— Anna decides: the box's owner" in html["en"]
    assert "решает Anna: хозяин бокса" in html["ru"]
    dealer_desk.cards("4s")  # a hit: 15
    dealer_desk.ok("stand")
    hit = RoundEvent.objects.filter(round=current_round(table), type="card").last()
    decided = [e for e in hit.payload["events"] if e["kind"] == "decided"]
    assert decided == [
        {"kind": "decided", "box": 1, "hand": 1, "decision": "hit", "seat": "Anna", "shared": True}
    ]
    with translation.override("en"):
        texts = [step["text"] for step in replay_steps(current_round(table))[0]]
    assert "4♠ to box 1, hand 1 — a hit, decided by Anna, the owner of the shared box" in texts
    assert "Box 1, hand 1 stands — decided by Anna, the owner of the shared box" in texts
    deal = RoundEvent.objects.filter(round=current_round(table), type="card").first()
    assert not [e for e in deal.payload["events"] if e["kind"] == "decided"]  # the deal


@pytest.mark.parametrize("action", ["double", "split"])
def test_a_double_or_a_split_is_the_owners(dealer_desk, table, action):
    dealer_desk.start_round()
    dealer_desk.ok("bet", box=1, seat="Solo", stake="100")
    dealer_desk.ok("close-bets")
    dealer_desk.cards("8h", "7d", "8c")
    dealer_desk.ok(action)
    events = _event(table, action).payload["events"]
    assert {
        "kind": "decided",
        "box": 1,
        "hand": 1,
        "decision": action,
        "seat": "Solo",
        "shared": False,
    } in events
    with translation.override("en"):
        assert step_text(action, {}, events).endswith(" — decided by Solo")


def test_insurance_and_even_money_are_the_owners(dealer_desk, table):
    dealer_desk.start_round()
    dealer_desk.ok("bet", box=1, seat="Anna", stake="100")
    dealer_desk.ok("bet", box=2, seat="Boris", stake="100")
    dealer_desk.ok("bet", box=2, seat="Vera", stake="100")
    dealer_desk.ok("close-bets")
    dealer_desk.cards("Ah", "9c", "As", "Kd", "8c")  # box 1: A K Blackjack; box 2: 9 8
    dealer_desk.ok("even-money", box=1)
    dealer_desk.ok("insure", box=2, amount="50")
    with translation.override("en"):
        money = _event(table, "even-money")
        insure = _event(table, "insure")
        assert step_text("even-money", money.payload["command"], money.payload["events"]) == (
            "Box 1 takes even money — decided by Anna"
        )
        assert step_text("insure", insure.payload["command"], insure.payload["events"]) == (
            "Box 2 insured for 50.00 — decided by Boris, the owner of the shared box"
        )


def test_the_snapshot_still_equals_the_replay_of_its_commands(dealer_desk, table):
    _shared_box_round(dealer_desk, table)
    dealer_desk.cards("4s")
    dealer_desk.ok("stand")
    row = current_round(table)
    events = RoundEvent.objects.filter(round=row).order_by("seq")
    opening = events[0].payload["opening"]
    commands = [e.payload["command"] for e in events[1:]]
    assert TableRound.replay(opening, commands).to_dict() == row.snapshot
