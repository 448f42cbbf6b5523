"""Issue 11 ("also settle"): fills and credits are counted by one rule everywhere — on the
gaming day of their receipt (the table's signature that the chips arrived or left): in the
report, the shift report, the records behind a line and the tray check."""

import datetime as dt
from decimal import Decimal

import pytest
from django.utils import timezone

from cashdesk import slips
from cashdesk.gaming import day_window
from cashdesk.selectors import cash_report, inventory_checks, records, shift_report
from tests.cashdesk.conftest import today, yesterday

pytestmark = pytest.mark.django_db


def test_a_fill_requested_yesterday_and_received_today_counts_today(
    monkeypatch, cash_table, crew, count_chips
):
    late_yesterday = day_window(yesterday())[1] - dt.timedelta(minutes=30)
    real_now = timezone.now
    monkeypatch.setattr(timezone, "now", lambda: late_yesterday)
    slip = slips.slip_request(
        table=cash_table, actor=crew["inspector"], kind="fill", counts_by_denomination={"100": 5}
    )
    slips.slip_issue(slip=slip, actor=crew["duty"])
    monkeypatch.setattr(timezone, "now", real_now)
    assert slip.gaming_day == yesterday()  # its number is of the day it was asked for

    count_chips(cash_table, "opener", "50000", at=timezone.now() - dt.timedelta(minutes=2))
    slips.slip_receive(slip=slip, actor=crew["dealer"])
    count_chips(cash_table, "closer", "50500", at=timezone.now() + dt.timedelta(seconds=1))

    assert cash_report(first=yesterday(), last=yesterday())["total"].fills == 0
    assert cash_report(first=today(), last=today())["total"].fills == Decimal(500)
    assert sum(s["fills"] for s in shift_report(gaming_day=today())) == Decimal(500)
    assert sum(s["fills"] for s in shift_report(gaming_day=yesterday())) == 0
    # The tray check counts the same fill the same day: the closer matches its expectation.
    (_opener, closer) = inventory_checks(table=cash_table, gaming_day=today())
    assert closer["expected"] == Decimal(50500) and closer["difference"] == 0
    # The records behind today's line show the slip the figures count.
    assert [s.pk for s in records(first=today(), last=today())["slips"]] == [slip.pk]


def test_a_credit_received_the_same_day_counts_that_day(cash_table, crew):
    slip = slips.slip_request(
        table=cash_table, actor=crew["inspector"], kind="credit", counts_by_denomination={"500": 2}
    )
    slips.slip_issue(slip=slip, actor=crew["duty"])
    assert cash_report(first=today(), last=today())["total"].credits == 0  # not received yet
    slips.slip_receive(slip=slip, actor=crew["observer"])
    assert cash_report(first=today(), last=today())["total"].credits == Decimal(1000)
