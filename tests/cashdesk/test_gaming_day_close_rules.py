"""Issue 11, row 7: a gaming day closes only when it is past or current, with every table
closed and no open exception; a closed day's figures are frozen (a record made after the
close belongs to the next gaming day); a close is undone only by a two-signature reopen,
recorded. (The tamper check run by the close: test_audit_chain.py.)"""

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from cashdesk import days, services, slips
from cashdesk.models import CashIn, GamingDayClose, RoundResult, Slip, Tip
from floor.errors import Refused
from floor.ledger import AuditEntry
from floor.ledger import ledger_verify as chains_verify
from tables.models import Table
from tests.cashdesk.conftest import today, waive, yesterday
from tests.cashdesk.test_bad_input_never_crashes import refusal
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


@pytest.fixture
def english(crew):
    for person in crew.values():
        person.preferred_language = "en"
        person.save(update_fields=["preferred_language"])
    return crew


def _close_tables():
    Table.objects.update(status=Table.Status.CLOSED)


def _reopen_table(table):
    table.status = Table.Status.OPEN
    table.opened_at = timezone.now()
    table.save(update_fields=["status", "opened_at"])


def test_a_gaming_day_that_has_not_begun_cannot_be_closed(client, cash_table, english):
    _close_tables()
    client.force_login(english["duty"])
    tomorrow = today() + dt.timedelta(days=1)
    response = client.post(reverse("cashdesk:day_close"), {"gaming_day": tomorrow.isoformat()})
    assert refusal(response) == (
        f"The gaming day {tomorrow.isoformat()} has not begun: only a past gaming day or "
        f"the current one ({today().isoformat()}) can be closed."
    )
    assert not GamingDayClose.objects.exists()


def test_a_gaming_day_with_a_table_still_open_cannot_be_closed(client, cash_table, english):
    client.force_login(english["duty"])
    response = client.post(reverse("cashdesk:day_close"), {"gaming_day": today().isoformat()})
    assert refusal(response) == f"Close every table first: {cash_table} is not closed."
    assert not GamingDayClose.objects.exists()


def test_a_past_day_closes_while_todays_tables_are_open(cash_table, crew):
    _reopen_table(cash_table)  # opened today: none of yesterday's business
    close = days.gaming_day_close(gaming_day=yesterday(), actor=crew["duty"])
    assert close.gaming_day == yesterday()
    with pytest.raises(Refused) as refused:  # but today's day: the table is open
        days.gaming_day_close(gaming_day=today(), actor=crew["duty"])
    assert refused.value.code == "tables_open"


def test_only_the_duty_administrator_closes_a_day(cash_table, crew):
    _close_tables()
    for person in ("pitboss", "inspector", "dealer"):
        with pytest.raises(Exception) as refused:
            days.gaming_day_close(gaming_day=today(), actor=crew[person])
        assert refused.value.code == "forbidden"
    assert not GamingDayClose.objects.exists()


def _report_csv(client, day) -> bytes:
    response = client.get(reverse("cashdesk:export"), {"day": day.isoformat(), "format": "csv"})
    assert response.status_code == 200
    return response.content


def test_a_closed_days_figures_are_frozen_and_late_records_go_to_the_next_day(
    client, cash_table, crew, closed_round, count_chips
):
    cash_in = services.cash_in_record(
        table=cash_table, actor=crew["dealer"], notes={"1000": 2}, chips={"1000": 2}
    )
    services.cash_in_recount(cash_in=cash_in, actor=crew["observer"], notes={"1000": 2})
    closed_round(cash_table, bets=[100], players_net="100")
    count_chips(cash_table, "opener", "50000", at=timezone.now() - dt.timedelta(minutes=5))
    count_chips(cash_table, "closer", "48000")
    services.drop_enter(table=cash_table, gaming_day=today(), amount="2000", actor=crew["duty"])
    _close_tables()
    days.gaming_day_close(gaming_day=today(), actor=crew["duty"])
    client.force_login(crew["duty"])
    before = _report_csv(client, today())

    # The table opens again before the gaming day ends: everything it records now — a
    # cash-in, a tip, a fill, a round closing, its chip counts — is the next day's.
    _reopen_table(cash_table)
    count_chips(cash_table, "opener", "48000")
    late_cash = services.cash_in_record(
        table=cash_table, actor=crew["dealer"], notes={"5000": 1}, chips={"5000": 1}
    )
    late_tip = services.tip_record(
        table=cash_table, actor=crew["dealer"], box=1, amount="100", note="a regular"
    )
    late_slip = slips.slip_request(
        table=cash_table, actor=crew["inspector"], kind="fill", counts_by_denomination={"100": 5}
    )
    late_round = closed_round(cash_table, bets=[500], players_net="-500")
    count_chips(cash_table, "closer", "46000")

    assert _report_csv(client, today()) == before
    tomorrow = today() + dt.timedelta(days=1)
    for record in (
        CashIn.objects.get(pk=late_cash.pk),
        Tip.objects.get(pk=late_tip.pk),
        Slip.objects.get(pk=late_slip.pk),
        RoundResult.objects.get(round_id=late_round.pk),
    ):
        assert record.gaming_day == tomorrow
    assert CashIn.objects.get(pk=late_cash.pk).shift == 1
    next_day = services_report(tomorrow)
    assert next_day.registered == 5000 and next_day.rounds == 1
    assert (next_day.opener, next_day.closer) == (48000, 46000)


def services_report(day):
    from cashdesk.selectors import cash_report

    return cash_report(first=day, last=day)["total"]


def test_a_closed_days_records_take_no_signature(cash_table, crew):
    slip = slips.slip_request(
        table=cash_table, actor=crew["inspector"], kind="fill", counts_by_denomination={"100": 5}
    )
    _close_tables()
    waive(today(), crew["duty"], crew["pitboss"], reason="the fill was never needed")
    with pytest.raises(Refused) as refused:
        slips.slip_issue(slip=slip, actor=crew["duty"])
    assert refused.value.code == "day_closed"
    with pytest.raises(Refused):
        services.drop_enter(table=cash_table, gaming_day=today(), amount="10", actor=crew["duty"])


# -- the reopen -----------------------------------------------------------------------------


def _reopen(client, **fields):
    post = {
        "gaming_day": today().isoformat(),
        "password": PASSWORD,
        "second": "pitboss",
        "second_password": PASSWORD,
        "reason": "a cash-in was entered on the wrong table",
    }
    post.update(fields)
    return client.post(reverse("cashdesk:day_reopen"), post)


@pytest.fixture
def closed_day(cash_table, english):
    _close_tables()
    return days.gaming_day_close(gaming_day=today(), actor=english["duty"])


@pytest.mark.parametrize(
    "fields, message",
    [
        ({"password": "wrong"}, "Wrong name or password."),
        ({"second_password": "wrong"}, "Wrong name or password."),
        ({"second": "duty"}, "The second signature must be another person's, not yours."),
        (
            {"second": "inspector"},
            "The second signature must be a pit boss's or another duty administrator's.",
        ),
        ({"reason": ""}, "Give the reason for the reopen."),
        ({"second": ""}, "Name the second person who signs the reopen."),
        ({"gaming_day": "2001-01-01"}, "The gaming day 2001-01-01 is not closed."),
    ],
)
def test_a_reopen_without_two_good_signatures_is_refused(
    client, closed_day, english, fields, message
):
    client.force_login(english["duty"])
    assert refusal(_reopen(client, **fields)) == message
    closed_day.refresh_from_db()
    assert closed_day.reopened_at is None
    assert GamingDayClose.objects.filter(reopened_at__isnull=True).count() == 1


def test_only_a_duty_administrator_asks_for_a_reopen(client, closed_day, english):
    client.force_login(english["pitboss"])
    assert _reopen(client, second="duty").status_code == 403
    closed_day.refresh_from_db()
    assert closed_day.reopened_at is None


def test_a_reopen_with_two_signatures_is_recorded_and_the_day_takes_records_again(
    client, closed_day, cash_table, english
):
    client.force_login(english["duty"])
    assert _reopen(client).status_code == 302
    closed_day.refresh_from_db()
    assert closed_day.reopened_by == english["duty"]
    assert closed_day.reopen_confirmed_by == english["pitboss"]
    assert closed_day.reopen_reason == "a cash-in was entered on the wrong table"
    entry = AuditEntry.objects.filter(
        model="cashdesk.gamingdayclose", object_id=closed_day.pk
    ).last()
    assert "wrong table" in entry.content
    assert chains_verify(day=today()).broken is None
    # Twice is refused: the day is no longer closed.
    assert refusal(_reopen(client)) == f"The gaming day {today().isoformat()} is not closed."

    _reopen_table(cash_table)
    cash_in = services.cash_in_record(
        table=cash_table, actor=english["dealer"], notes={"1000": 1}, chips={"1000": 1}
    )
    assert cash_in.gaming_day == today()
    services.cash_in_recount(cash_in=cash_in, actor=english["observer"], notes={"1000": 1})
    services.drop_enter(table=cash_table, gaming_day=today(), amount="1000", actor=english["duty"])
    _close_tables()
    again = days.gaming_day_close(gaming_day=today(), actor=english["duty"])
    assert GamingDayClose.objects.filter(gaming_day=today()).count() == 2
    assert list(GamingDayClose.objects.filter(reopened_at__isnull=True)) == [again]


def test_a_round_played_after_the_close_is_the_next_days(client, cash_table, crew):
    from tests.game.conftest import Desk

    _close_tables()
    days.gaming_day_close(gaming_day=today(), actor=crew["duty"])
    client.force_login(crew["duty"])
    before = _report_csv(client, today())

    _reopen_table(cash_table)  # opened again before the gaming day's end
    desk = Desk(cash_table, crew["dealer"])
    desk.start_round({1: 100})
    desk.ok("close-bets")
    desk.cards("Th", "6d", "9c")
    desk.ok("stand")
    desk.cards("Ks", "Qd")  # the dealer busts: the player wins 100
    desk.ok("confirm-settlement")

    (result,) = RoundResult.objects.all()
    assert result.gaming_day == today() + dt.timedelta(days=1) and result.shift == 1
    assert _report_csv(client, today()) == before
    assert services_report(today() + dt.timedelta(days=1)).rounds == 1
