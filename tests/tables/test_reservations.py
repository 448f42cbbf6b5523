"""Box reservations: placed and released by the observing croupier through the live table's
commands, no bet on a reserved box, expiry on time by the worker, alerts, history."""

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from floor.models import Alert
from tables.models import Reservation
from tables.services import reservation_expire_due
from tests.desk import screen_seq


def test_observer_reserves_a_box_and_no_bet_is_taken_on_it(dealer_desk, observer_desk, table):
    observer_desk.ok("reserve", box=3, seat="Ivan")
    reservation = Reservation.objects.get(table=table, box=3)
    assert reservation.placed_by == observer_desk.user
    assert reservation.expires_at - reservation.placed_at == timedelta(minutes=20)
    dealer_desk.start_round({1: 100})
    version = dealer_desk.version
    refused = dealer_desk.send("bet", box=3, seat="P9", stake="100")
    assert (refused.ok, refused.code) == (False, "box_reserved")
    assert dealer_desk.version == version


def test_a_second_token_on_a_reserved_box_is_refused(observer_desk, table):
    observer_desk.ok("reserve", box=2)
    refused = observer_desk.send("reserve", box=2, seat="Other")
    assert (refused.ok, refused.code) == (False, "box_reserved")
    assert Reservation.objects.filter(table=table).count() == 1


def test_a_box_in_play_cannot_be_reserved(dealer_desk, observer_desk, table):
    dealer_desk.start_round({4: 100})
    refused = observer_desk.send("reserve", box=4)
    assert (refused.ok, refused.code) == (False, "box_in_play")
    assert not Reservation.objects.exists()


def test_only_the_observer_reserves(dealer_desk, inspector_desk):
    assert dealer_desk.send("reserve", box=1).code == "not_your_action"
    assert inspector_desk.send("reserve", box=1).code == "not_your_action"
    assert not Reservation.objects.exists()


def test_released_when_the_player_returns(observer_desk, dealer_desk, table):
    observer_desk.ok("reserve", box=5, seat="Olga")
    observer_desk.ok("release", box=5)
    reservation = Reservation.objects.get(table=table, box=5)
    assert reservation.end_reason == "released"
    assert reservation.ended_by == observer_desk.user
    dealer_desk.start_round({5: 100})  # the box takes bets again
    assert observer_desk.send("release", box=5).code == "not_reserved"


def test_reservation_on_a_table_not_open_is_refused(observer_desk, table):
    table.status = "closing"
    table.save()
    assert observer_desk.send("reserve", box=1).code == "table_not_open"


# Committed transactions: the screen sequence moves once per committed change (in one test
# transaction it would move once for all).
@pytest.mark.django_db(transaction=True)
def test_worker_warns_two_minutes_before_and_expires_on_time(observer_desk, table):
    observer_desk.ok("reserve", box=1, seat="Ivan")
    reservation = Reservation.objects.get()
    assert reservation_expire_due(now=reservation.expires_at - timedelta(minutes=3)) == 0
    assert reservation_expire_due(now=reservation.expires_at - timedelta(minutes=2)) == 1
    assert Alert.objects.get(kind="reservation_expiring").params["box"] == 1
    assert reservation_expire_due(now=reservation.expires_at - timedelta(seconds=30)) == 0
    version = observer_desk.version
    seq = screen_seq(table)
    assert reservation_expire_due(now=reservation.expires_at) == 1
    reservation.refresh_from_db()
    assert reservation.end_reason == "expired" and reservation.ended_at == reservation.expires_at
    assert Alert.objects.filter(kind="reservation_expired", table=table).count() == 1
    assert screen_seq(table) > seq  # the screens move on...
    assert observer_desk.version == version  # ...and no croupier's next tap is stale for it


def test_management_command_expires_due_tokens(observer_desk, table):
    table.reservation_seconds = 1
    table.save()
    observer_desk.ok("reserve", box=2)
    Reservation.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    call_command("run_reservation_expiry", "--once")
    assert Reservation.objects.get().end_reason == "expired"


def test_reservation_time_is_the_table_setting(observer_desk, table):
    table.reservation_minutes = 10
    table.save()
    observer_desk.ok("reserve", box=2)
    r = Reservation.objects.get()
    assert r.expires_at - r.placed_at == timedelta(minutes=10)


def test_every_screen_shows_the_token_with_its_expiry(observer_desk, table):
    from game.screens.publish import render_fragment, table_view

    observer_desk.ok("reserve", box=6, seat="Ivan")
    r = Reservation.objects.get()
    view = table_view(table.pk)
    html = {part: render_fragment(view, part, "en") for part in ("live", "tile")}
    for part, testid in (("live", "countdown-6"), ("tile", "tile-countdown-6")):
        assert f'data-testid="{testid}"' in html[part]
        assert f'data-expires="{r.expires_at.isoformat()}"' in html[part]


def test_closing_clears_reservations(observer_desk, table, crew):
    from tables import services

    observer_desk.ok("reserve", box=1)
    checklist = services.checklist_start(table=table, kind="closing", started_by=crew["pitboss"])
    services.checklist_step_record(
        checklist=checklist, step="reservations", done_by=crew["pitboss"]
    )
    assert Reservation.objects.get().end_reason == "cleared"
