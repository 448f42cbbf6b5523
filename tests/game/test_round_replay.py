"""Any past round replayed step by step from its event log, and the search for rounds."""

import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from floor.alerts import alert_raise
from floor.models import Alert
from game.models import Round, RoundEvent
from game.replay import replay_steps
from game.replay import views as replay_views
from game.selectors import rounds_search
from tables.models import Table
from tests.game.conftest import current_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def client_en():
    return Client(headers={"accept-language": "en"})


def play_split_round_with_a_correction(dealer_desk):
    dealer_desk.start_round({1: 100})
    dealer_desk.ok("close-bets")
    dealer_desk.cards("8s", "5h", "8c")  # box 1: 8 8; dealer 5
    dealer_desk.ok("split")
    dealer_desk.cards("3d")
    dealer_desk.ok("correct-card", card="4d")  # the croupier mistyped: 8 4, not 8 3
    dealer_desk.ok("stand")
    dealer_desk.cards("9h")  # second hand: 8 9
    dealer_desk.ok("stand")
    dealer_desk.cards("Tc", "Ks")  # dealer 5 10 10: bust
    dealer_desk.ok("confirm-settlement")


def shown_state(response) -> str:
    """The table's state on a replay page (the event log below lists every step)."""
    html = response.content.decode()
    return html.split('data-testid="replay-state"')[1].split('data-testid="replay-log"')[0]


def play_round(desk, box=1, stake=100):
    """One box, dealer busts: the players win ``stake``."""
    desk.start_round({box: stake})
    desk.ok("close-bets")
    desk.cards("Th", "6d", "9c")
    desk.ok("stand")
    desk.cards("Ks", "Qd")
    desk.ok("confirm-settlement")
    return current_round(desk.table)


def test_a_round_with_a_split_and_a_correction_replays_step_by_step(
    client_en, crew, table, dealer_desk
):
    play_split_round_with_a_correction(dealer_desk)
    row = current_round(table)
    assert row.status == "closed"
    steps, state_after = replay_steps(row)
    assert [s["seq"] for s in steps] == list(range(1, row.events_count + 1))
    # the replay ends exactly on the snapshot
    assert state_after(len(steps) - 1).to_dict() == row.snapshot
    types = [s["type"] for s in steps]
    fix = types.index("correct-card")
    assert types[fix - 1] == "card" and steps[fix - 1]["fields"]["card"] == "3d"
    assert steps[fix]["corrections"] == [{"kind": "correction", "old": "3d", "new": "4d"}]
    assert all(s["actor"] == crew["dealer"] for s in steps)

    client_en.force_login(crew["inspector"])
    url = reverse("game:replay", args=[row.pk])
    before = shown_state(client_en.get(url, {"step": fix}))
    assert "Corrected 3♦" not in before
    assert 'data-testid="hand-1-1"' in before and 'data-testid="hand-1-2"' in before  # split
    at_fix = client_en.get(url, {"step": fix + 1})
    assert "Corrected 3♦ → 4♦" in shown_state(at_fix)
    assert 'data-testid="step-correction"' in at_fix.content.decode()
    assert f'data-step="{fix + 1}"' in at_fix.content.decode()
    final_response = client_en.get(url)
    final = final_response.content.decode()
    assert 'data-phase="closed"' in final
    assert "Corrected 3♦ → 4♦" in shown_state(final_response)
    assert 'data-testid="result-1-1"' in final and 'data-testid="result-1-2"' in final
    # Read-only: no control of the live screens is shown to anyone.
    assert "role-replay" in final and "ws-connect" not in final


def test_replay_of_another_inspectors_table_is_refused_and_changes_nothing(
    client_en, crew, table, dealer_desk, staffed_table
):
    play_round(dealer_desk)
    row = current_round(table)
    other_table, other = staffed_table(2)
    events = RoundEvent.objects.count()
    client_en.force_login(other["inspector"].user)
    assert client_en.get(reverse("game:replay", args=[row.pk])).status_code == 403
    results = client_en.get(reverse("game:replay_search"), {"table": table.pk})
    assert results.status_code == 400  # not one of their tables: a choice they do not have
    page = client_en.get(reverse("game:replay_search")).content.decode()
    assert f'data-testid="round-row-{row.pk}"' not in page
    for person in ("dealer", "observer"):
        client_en.force_login(crew[person])
        assert client_en.get(reverse("game:replay", args=[row.pk])).status_code == 403
    client_en.force_login(crew["duty"])
    assert client_en.get(reverse("game:replay", args=[row.pk])).status_code == 200
    other_row = play_round(other["dealer"])
    assert client_en.get(reverse("game:replay", args=[other_row.pk])).status_code == 200
    assert RoundEvent.objects.count() == events + other_row.events_count


def test_search_filters_by_table_time_amount_box_and_alert(crew, table, dealer_desk, staffed_table):
    small = play_round(dealer_desk, box=2, stake=20)
    big = play_round(dealer_desk, box=5, stake=400)
    dealer_desk.start_round({3: 50})
    alert_raise(table_id=table.pk, kind="flag", params={"note": "x"})
    dealer_desk.ok("close-bets")
    dealer_desk.cards("Th", "6d", "9c")
    dealer_desk.ok("stand")
    dealer_desk.cards("Ks", "Qd")
    dealer_desk.ok("confirm-settlement")
    alerted = current_round(table)
    other_table, other = staffed_table(2)
    elsewhere = play_round(other["dealer"], box=2, stake=20)
    tables = Table.objects.all()

    def found(**filters):
        return set(rounds_search(tables=tables, **filters))

    assert found() == {small, big, alerted, elsewhere}
    assert found(table_id=other_table.pk) == {elsewhere}
    assert found(box=2) == {small, elsewhere}
    assert found(min_total_bet=100) == {big}
    assert found(min_result=50) == {big, alerted}
    assert found(with_alert=True) == {alerted}
    Round.objects.filter(pk=small.pk).update(opened_at=timezone.now() - dt.timedelta(days=2))
    yesterday = timezone.now() - dt.timedelta(days=1)
    assert found(opened_to=yesterday) == {small}
    assert small not in found(opened_from=yesterday)
    assert set(rounds_search(tables=[other_table])) == {elsewhere}
    assert Alert.objects.count() == 1


def test_search_page_is_paginated_and_refuses_bad_input(
    client_en, crew, table, dealer_desk, monkeypatch
):
    monkeypatch.setattr(replay_views, "PAGE_SIZE", 2)
    rows = [play_round(dealer_desk, box=b) for b in (1, 2, 3)]
    client_en.force_login(crew["inspector"])
    url = reverse("game:replay_search")
    first = client_en.get(url, {"table": table.pk}).content.decode()
    assert f'data-testid="round-row-{rows[2].pk}"' in first
    assert f'data-testid="round-row-{rows[0].pk}"' not in first
    assert 'data-testid="page-next"' in first
    second = client_en.get(url, {"table": table.pk, "page": 2}).content.decode()
    assert f'data-testid="round-row-{rows[0].pk}"' in second
    for bad in ({"min_total_bet": "lots"}, {"box": "-1"}, {"opened_from": "yesterday"}):
        response = client_en.get(url, bad)
        assert response.status_code == 400
        assert 'data-testid="search-error"' in response.content.decode()
    client_en.force_login(crew["dealer"])
    assert client_en.get(url).status_code == 403


@pytest.mark.parametrize("step", ["1", "40", None])
def test_a_step_of_a_long_round_replays_the_log_once(client_en, crew, table, dealer_desk, step):
    """One page = one pass over the event log, whatever the step: the state is copied once
    for the step shown (before: a deep copy per event, O(events²) for a long round)."""
    from game.table.live import TableRound

    dealer_desk.start_round({1: 100})
    for i in range(60):
        dealer_desk.ok("bet", box=2, seat="P2", stake=str(10 + i))
    row = current_round(table)
    counted = {"apply": 0, "to_dict": 0}
    apply, to_dict = TableRound.apply, TableRound.to_dict

    def counting_apply(self, command):
        counted["apply"] += 1
        return apply(self, command)

    def counting_to_dict(self):
        counted["to_dict"] += 1
        return to_dict(self)

    client_en.force_login(crew["inspector"])
    url = reverse("game:replay", args=[row.pk])
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(TableRound, "apply", counting_apply)
        patch.setattr(TableRound, "to_dict", counting_to_dict)
        response = client_en.get(url, {"step": step} if step else {})
    assert response.status_code == 200
    shown = int(step) if step else row.events_count
    assert counted["apply"] == shown - 1  # the opening event is the state itself
    assert counted["to_dict"] <= 2


def test_the_event_log_reads_in_words(client_en, crew, table, dealer_desk):
    play_split_round_with_a_correction(dealer_desk)
    row = current_round(table)
    client_en.force_login(crew["inspector"])
    page = client_en.get(reverse("game:replay", args=[row.pk])).content.decode()
    log = page.split('data-testid="replay-log"')[1]
    for words in (
        "Round opened: place your bets",
        "Box 1: P1 stakes 100.00",
        "Bets closed",
        "8♠ to box 1, hand 1",
        "5♥ to the dealer",
        "Box 1, hand 1 splits",
        "The last card corrected: 3♦ → 4♦",
        "Box 1, hand 2 stands",
        "Paid and collected: the round is closed (house result −200.00)",
    ):
        assert words in log, words
    assert "box=" not in log and "seat=" not in log and "stake=" not in log


def test_a_voided_round_is_found_with_an_alert_and_void_asks_first(
    client_en, crew, table, dealer_desk, inspector_desk
):
    play_round(dealer_desk)
    quiet = current_round(table)
    dealer_desk.ok("open-round")
    dealer_desk.ok("bet", box=1, seat="P1", stake="100")
    inspector_desk.ok("void", reason="Misdeal: two cards at once")
    voided = current_round(table)
    assert set(rounds_search(tables=[table], with_alert=True)) == {voided}
    assert quiet in set(rounds_search(tables=[table]))
    client_en.force_login(crew["inspector"])
    page = client_en.get(reverse("game:replay", args=[voided.pk])).content.decode()
    assert "Round voided: Misdeal: two cards at once" in page


def test_the_inspector_confirms_a_void_before_it_is_sent(client_en, crew, table, dealer_desk):
    dealer_desk.start_round({1: 100})
    client_en.force_login(crew["inspector"])
    page = client_en.get(reverse("game:observer", args=[table.pk])).content.decode()
    box = page.split('data-testid="void-box"')[1].split("</details>")[0]
    # the void button only opens the confirmation; the one that sends names the round
    assert 'data-testid="void-open"' in box and "<summary" in box
    assert "Yes, void round 1" in box and "cannot be undone" in box
    assert 'name="reason"' in box and "required" in box
