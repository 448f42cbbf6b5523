"""Two numbers, two meanings: the round version a croupier's command must carry moves only
with the round and the shoe; the screen sequence moves with everything a screen shows.
Nobody's tap is refused because of someone else's cash-in."""

from datetime import timedelta

import pytest
from django.utils import timezone

from cashdesk import services as cash
from floor.alerts import alert_raise
from game.models import Round
from staff import services as staff_services
from staff.roles import Role, TableRole
from tables.models import Reservation
from tables.services import reservation_expire_due
from tests.desk import screen_seq
from tests.game.conftest import Desk


def seq(table) -> int:
    return screen_seq(table)


@pytest.fixture
def chips(table):
    table.chip_denominations = ["100", "500"]
    table.save(update_fields=["chip_denominations"])
    return table


# Committed transactions: the screen sequence moves once per committed change (in one test
# transaction it would move once for all).
@pytest.mark.django_db(transaction=True)
def test_the_dealers_version_holds_through_everything_that_is_not_the_round(
    chips, crew, make_user, dealer_desk, observer_desk
):
    table = chips
    dealer_desk.start_round({1: 100})
    on_screen = dealer_desk.version
    before = seq(table)

    cash.cash_in_record(table=table, actor=crew["dealer"], notes={"500": 2}, chips={"500": 2})
    cash.tip_record(table=table, actor=crew["dealer"], box=1, amount="100", note="n")
    alert_raise(table_id=table.pk, kind="flag", params={"note": "check"})
    observer_desk.ok("flag", note="Box 1 stake looks short")
    observer_desk.ok("reserve", box=5, seat="Ivan")
    observer_desk.ok("release", box=5)
    observer_desk.ok("reserve", box=6)
    Reservation.objects.filter(box=6).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert reservation_expire_due(table_id=table.pk) == 1
    relief = make_user("relief", [Role.OBSERVING_CROUPIER])
    staff_services.assignment_start(
        table=table, user=relief, role=TableRole.OBSERVING_CROUPIER, replace=True
    )

    assert seq(table) > before + 8  # every screen of the table moved on with each of them
    outcome = dealer_desk.send("bet", box=2, seat="P2", stake="100", expected_version=on_screen)
    assert outcome.ok, outcome
    assert outcome.version == on_screen + 1


def test_a_command_on_an_older_round_version_is_refused_stale_and_changes_nothing(dealer_desk):
    dealer_desk.start_round({1: 100})
    old = dealer_desk.version
    dealer_desk.ok("bet", box=2, seat="P2", stake="50")
    refused = dealer_desk.send("bet", box=3, seat="P3", stake="50", expected_version=old)
    assert (refused.ok, refused.code) == (False, "stale")
    assert 3 not in Round.objects.get().snapshot["engine"]["bets"] and not any(
        b == "3" for b in Round.objects.get().snapshot["shares"]
    )


def test_a_version_from_the_future_is_refused_stale(dealer_desk):
    dealer_desk.start_round({1: 100})
    refused = dealer_desk.send("close-bets", expected_version=dealer_desk.version + 5)
    assert (refused.ok, refused.code) == (False, "stale")
    assert Round.objects.get().status == "betting"


def test_notes_and_reservations_do_not_need_the_round_version(table, observer_desk):
    observer_desk.ok("flag", note="seen", expected_version=9999)
    observer_desk.ok("reserve", box=2, expected_version=0)
    assert Desk(table, observer_desk.user).version == 0  # and they do not move it
