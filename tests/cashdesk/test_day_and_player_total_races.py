"""Issue 11 ("also settle"), on PostgreSQL with threads: the per-player daily cash-in total
is summed under a lock (two cash-ins at once with one card cannot both miss the
threshold), and "is the day open" is read inside the writer's locking transaction (a slip
requested while the day is being closed lands in the closed day only if the close then
refuses, otherwise in the next day)."""

import threading

import pytest
from django.db import connection

from cashdesk import days, services, slips
from cashdesk.models import GamingDayClose, Slip
from floor.models import Alert
from staff import services as staff_services
from staff.roles import Role, TableRole
from tables.models import Table
from tests.cashdesk.conftest import today

pytestmark = [pytest.mark.postgres_only, pytest.mark.django_db(transaction=True)]


def _at_once(*calls):
    """Run each call on its own thread, released together; their outcomes in order."""
    barrier = threading.Barrier(len(calls))
    outcomes = [None] * len(calls)

    def run(i, call):
        try:
            barrier.wait()
            outcomes[i] = call()
        except Exception as error:  # the refusal is the outcome
            outcomes[i] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


def test_two_cash_ins_with_one_card_at_once_cross_the_threshold_once(
    settings, make_table, make_user
):
    settings.CASH_IN_PLAYER_DAY_ALERT_AMOUNT = 1500
    desks = []
    for number in (1, 2):
        table = make_table(number, chip_denominations=["1000"])
        dealer = make_user(f"dealer{number}", [Role.DEALING_CROUPIER])
        staff_services.assignment_start(table=table, user=dealer, role=TableRole.DEALING_CROUPIER)
        desks.append((table, dealer))
    for _ in range(3):  # a few rounds of the race, each with a new card
        card = f"CARD-{_}"
        outcomes = _at_once(
            *(
                lambda t=t, d=d, c=card: services.cash_in_record(
                    table=t, actor=d, notes={"1000": 1}, chips={"1000": 1}, player_card=c
                )
                for t, d in desks
            )
        )
        assert not any(isinstance(o, Exception) for o in outcomes), outcomes
        crossed = Alert.objects.filter(kind="cash_in_player_day", params__card=card)
        assert crossed.count() == 1  # 1000 + 1000 crossed 1500 once, whoever came second
        assert crossed.get().params["amount"] == "2000.00"


@pytest.mark.parametrize("attempt", range(3))
def test_a_slip_requested_while_the_day_closes_never_lands_in_the_closed_day(table, crew, attempt):
    Table.objects.update(status=Table.Status.CLOSED, chip_denominations=["100"])
    table.refresh_from_db()
    close, slip = _at_once(
        lambda: days.gaming_day_close(gaming_day=today(), actor=crew["duty"]),
        lambda: slips.slip_request(
            table=table, actor=crew["inspector"], kind="fill", counts_by_denomination={"100": 1}
        ),
    )
    assert isinstance(slip, Slip), slip
    if isinstance(close, GamingDayClose):
        # The close went first: the slip, asked for after it, is the next day's.
        assert slip.gaming_day > today()
    else:
        # The slip went first: it is an open exception of the day, and the close refused.
        assert getattr(close, "code", None) == "controls_open", close
        assert slip.gaming_day == today()
        assert not GamingDayClose.objects.exists()
