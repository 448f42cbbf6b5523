"""Every alert kind the inspector receives, and acknowledging one: with a note, once, only
by the inspector of that table."""

import datetime as dt
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils import timezone

from benchmarks import bettors
from floor.alerts import alert_raise, alert_text
from floor.models import Alert
from game.detection import judge, watch
from game.models import Round
from game.models import Shoe as ShoeRow
from staff import services as staff_services
from staff.roles import Role, TableRole
from tables.services import alert_acknowledge
from tests.factories import ClosedRoundFactory, ShoeFactory


@pytest.fixture(autouse=True)
def _fresh_watch():
    watch._seen_rounds.clear()


def kinds(table):
    return list(Alert.objects.filter(table=table).values_list("kind", flat=True))


def test_the_observers_flag_raises_an_alert(observer_desk, table):
    observer_desk.ok("flag", note="Box 3 was paid twice")
    alert = Alert.objects.get(table=table, kind="flag")
    assert alert.params == {"note": "Box 3 was paid twice"}
    assert alert.raised_by == observer_desk.user
    assert alert.open


def test_a_card_correction_raises_an_alert(dealer_desk, table):
    dealer_desk.start_round({1: 100})
    dealer_desk.ok("close-bets")
    dealer_desk.cards("Th", "6d", "9c")
    dealer_desk.ok("correct-card", card="8c")
    alert = Alert.objects.get(table=table, kind="card_corrected")
    assert alert.params == {"round": 1, "old": "9♣", "new": "8♣"}  # as people write cards


def test_a_voided_round_raises_a_critical_alert(dealer_desk, inspector_desk, table):
    dealer_desk.start_round({1: 100})
    dealer_desk.ok("close-bets")
    inspector_desk.ok("void", reason="Misdeal")
    alert = Alert.objects.get(table=table, kind="round_voided")
    assert alert.severity == Alert.Severity.CRITICAL
    assert alert.params["reason"] == "Misdeal"


def test_an_idle_table_raises_one_alert_per_idle_spell(dealer_desk, table, settings):
    settings.TABLE_IDLE_MINUTES = 10
    dealer_desk.ok("shuffle", reason="new_shoe", cards_behind_cut=80)
    now = timezone.now()
    assert watch.floor_watch(now=now + dt.timedelta(minutes=9), table_id=table.pk) == 0
    assert watch.floor_watch(now=now + dt.timedelta(minutes=11), table_id=table.pk) == 1
    assert watch.floor_watch(now=now + dt.timedelta(minutes=12), table_id=table.pk) == 0
    assert kinds(table).count("table_idle") == 1


def test_croupiers_over_the_rotation_period_raise_one_alert_each(crew, table, settings):
    settings.ROTATION_MINUTES = 60
    now = timezone.now()
    watch.check_rotation(table, now + dt.timedelta(minutes=59))
    assert "croupier_rotation" not in kinds(table)
    raised = watch.check_rotation(table, now + dt.timedelta(minutes=61))
    assert sorted(a.params["name"] for a in raised) == sorted(
        [crew["dealer"].display_name, crew["observer"].display_name]
    )
    assert watch.check_rotation(table, now + dt.timedelta(minutes=90)) == []


def test_the_tables_rotation_plan_sets_when_a_break_is_due(crew, table, settings):
    settings.ROTATION_MINUTES = 60
    staff_services.rotation_plan_set(
        table=table, break_every_minutes=40, planned_by=crew["pitboss"]
    )
    now = timezone.now()
    assert watch.check_rotation(table, now + dt.timedelta(minutes=39)) == []
    raised = watch.check_rotation(table, now + dt.timedelta(minutes=41))
    assert len(raised) == 2 and {a.params["limit"] for a in raised} == {40}


def _closed_rounds(table, user, rounds):
    """Closed rounds this shift: (true-count cards out, {box: bet}, players' net)."""
    now = timezone.now()
    for out_ranks, bets, net in rounds:
        ClosedRoundFactory(
            table=table,
            opened_by=user,
            bets=bets,
            out_ranks=out_ranks,
            closed_at=now,
            players_net=Decimal(net),
        )


def test_a_shift_result_far_from_theory_raises_an_alert_once(crew, table, settings):
    settings.DEVIATION_MIN_ROUNDS = 30
    settings.DEVIATION_SIGMAS = 3
    _closed_rounds(table, crew["dealer"], [({}, {1: 100}, 100)] * 30)  # players win every hand
    assert watch.floor_watch(table_id=table.pk) == 1
    alert = Alert.objects.get(table=table, kind="result_deviation")
    assert alert.severity == Alert.Severity.CRITICAL
    assert alert.params["rounds"] == 30 and alert.params["z"].startswith("-")
    assert watch.floor_watch(table_id=table.pk) == 0


def test_a_normal_shift_result_raises_nothing(crew, table):
    _closed_rounds(table, crew["dealer"], [({}, {1: 100}, n) for n in [100, -100] * 20])
    watch.floor_watch(table_id=table.pk)
    assert "result_deviation" not in kinds(table)


def _record_shift(table, user, rounds, *, players, first_number=1):
    """Closed rounds from a simulated player-shift (``benchmarks.bettors.play_shift``): the player
    under test at box 1, flat players at boxes 2 and 3; each shuffle a new shoe row. The
    opening shoe of each round counts the cards seen since the shuffle, as the table does.
    ``players``: box -> (seat label, player card)."""
    now = timezone.now()
    shoe_row, out_ranks, number = None, {}, first_number
    for r in rounds:
        if shoe_row is None or r["shuffle_before"]:
            shoe_row = ShoeFactory(table=table, shuffled_by=user, cards_behind_cut=90)
            out_ranks = {}
        bets = {1: Decimal(r["bet"]), 2: Decimal(10), 3: Decimal(10)}
        bets = {box: bet for box, bet in bets.items() if bet > 0}
        ClosedRoundFactory(
            table=table,
            shoe=shoe_row,
            number=number,
            opened_by=user,
            bets=bets,
            out_ranks=dict(out_ranks),
            shares={box: [(players[box][0], bet, players[box][1])] for box, bet in bets.items()},
            closed_at=now,
        )
        number += 1
        for card in r["cards"]:
            rank = card[0]
            out_ranks[rank] = out_ranks.get(rank, 0) + 1


PLAYERS = {1: ("Anna", ""), 2: ("Boris", ""), 3: ("Vera", "")}


def test_a_player_betting_with_the_count_is_flagged_once_as_the_judge_would(crew, table):
    session = bettors.play_shift("counter", rounds=200, seed="watch/4")
    verdict = judge(session)
    assert verdict["alarm"]
    _record_shift(table, crew["dealer"], session["rounds"], players=PLAYERS)
    assert watch.floor_watch(table_id=table.pk) == 1
    alert = Alert.objects.get(table=table, kind="advantage_play")
    assert alert.severity == Alert.Severity.CRITICAL
    assert alert.params["name"] == "Anna"  # Boris and Vera bet flat: nothing against them
    assert alert.params["rounds"] == verdict["at_round"]  # the judge's verdict, round for round
    assert "Anna" in alert_text(alert)
    assert watch.floor_watch(table_id=table.pk) == 0


def test_a_player_card_is_followed_across_tables(crew, table, make_table):
    """Half a counter's shift at each of two tables: neither half is enough alone, the two
    together are, and only the player card tells that it is one player."""
    session = bettors.play_shift("counter", rounds=200, seed="watch/36")
    first, second = session["rounds"][:100], session["rounds"][100:]
    other = make_table(2)
    _record_shift(table, crew["dealer"], first, players=PLAYERS)
    _record_shift(other, crew["dealer"], second, players=PLAYERS)
    watch.floor_watch()
    assert not Alert.objects.filter(kind="advantage_play").exists()  # seat labels: two people
    Round.objects.all().delete()
    ShoeRow.objects.all().delete()
    carded = {**PLAYERS, 1: ("Anna", "00731")}
    _record_shift(table, crew["dealer"], first, players=carded)
    _record_shift(other, crew["dealer"], second, players=carded)
    watch._seen_rounds.clear()
    watch.floor_watch()
    alert = Alert.objects.get(kind="advantage_play")
    assert alert.params["name"] == "Anna / 00731"
    assert alert.params["rounds"] > 100  # the evidence from the first table carried over


def test_a_player_whose_stake_varies_at_random_is_not_flagged(crew, table):
    session = bettors.play_shift("random", rounds=200, seed="watch/random")
    assert not judge(session)["alarm"]
    _record_shift(table, crew["dealer"], session["rounds"], players=PLAYERS)
    watch.floor_watch(table_id=table.pk)
    assert "advantage_play" not in kinds(table)


# -- acknowledging ---------------------------------------------------------------------------


def test_the_inspector_acknowledges_with_a_note_once(crew, table):
    alert = alert_raise(table_id=table.pk, kind="flag", params={"note": "x"})
    alert_acknowledge(alert_id=alert.pk, by=crew["inspector"], note="Spoke to the dealer")
    alert.refresh_from_db()
    assert not alert.open and alert.acknowledged_by == crew["inspector"]
    assert alert.acknowledgement_note == "Spoke to the dealer"
    with pytest.raises(ValidationError) as refused:
        alert_acknowledge(alert_id=alert.pk, by=crew["inspector"], note="again")
    assert refused.value.code == "already_acknowledged"
    alert.refresh_from_db()
    assert alert.acknowledgement_note == "Spoke to the dealer"


def test_a_note_is_required(crew, table):
    alert = alert_raise(table_id=table.pk, kind="flag", params={"note": "x"})
    with pytest.raises(ValidationError) as refused:
        alert_acknowledge(alert_id=alert.pk, by=crew["inspector"], note="  ")
    assert refused.value.code == "note_required"
    assert Alert.objects.get(pk=alert.pk).open


def test_another_tables_inspector_may_not_acknowledge(crew, table, make_table, make_user):
    from staff import services as staff_services

    other_table = make_table(2)
    other = make_user("inspector2", [Role.INSPECTOR])
    staff_services.assignment_start(table=other_table, user=other, role=TableRole.INSPECTOR)
    alert = alert_raise(table_id=table.pk, kind="flag", params={"note": "x"})
    with pytest.raises(PermissionDenied):
        alert_acknowledge(alert_id=alert.pk, by=other, note="not mine")
    with pytest.raises(PermissionDenied):
        alert_acknowledge(alert_id=alert.pk, by=crew["duty"], note="duty")
    assert Alert.objects.get(pk=alert.pk).open


def test_acknowledging_through_the_page(client, crew, table):
    alert = alert_raise(table_id=table.pk, kind="flag", params={"note": "x"})
    client.force_login(crew["inspector"])
    url = reverse("tables:alert_acknowledge")
    response = client.post(url, {"alert": alert.pk, "note": "Checked"})
    assert response.status_code == 302
    again = client.post(url, {"alert": alert.pk, "note": "Again"}, HTTP_ACCEPT_LANGUAGE="en")
    assert again.status_code == 400
    assert "already acknowledged" in again.content.decode()


def test_another_inspector_gets_403_through_the_page(client, crew, table, make_table, make_user):
    from staff import services as staff_services

    other_table = make_table(2)
    other = make_user("inspector2", [Role.INSPECTOR])
    staff_services.assignment_start(table=other_table, user=other, role=TableRole.INSPECTOR)
    alert = alert_raise(table_id=table.pk, kind="flag", params={"note": "x"})
    client.force_login(other)
    response = client.post(reverse("tables:alert_acknowledge"), {"alert": alert.pk, "note": "n"})
    assert response.status_code == 403
    assert Alert.objects.get(pk=alert.pk).open


def test_the_history_shows_an_inspector_only_their_tables(
    client, crew, table, make_table, make_user
):
    other_table = make_table(2)
    alert_raise(table_id=table.pk, kind="flag", params={"note": "mine"})
    alert_raise(table_id=other_table.pk, kind="flag", params={"note": "theirs"})
    client.force_login(crew["inspector"])
    page = client.get(reverse("tables:alerts"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "mine" in page and "theirs" not in page
    client.force_login(crew["duty"])
    page = client.get(reverse("tables:alerts"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "mine" in page and "theirs" in page
    filtered = client.get(reverse("tables:alerts"), {"table": other_table.pk, "open": "1"})
    assert "mine" not in filtered.content.decode()
