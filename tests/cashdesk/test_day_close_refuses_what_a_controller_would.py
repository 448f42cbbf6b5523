"""Issue 19, item 5: the day closes only when every table that played has a counted drop
and no exception or critical alert is open — or with an explicit waiver signed by two
people, which the closed day's report shows."""

import pytest
from django.urls import reverse

from cashdesk import days, services, slips
from cashdesk.models import GamingDayClose
from floor.alerts import alert_raise
from floor.errors import Refused
from floor.models import Alert
from tables.models import Table
from tables.services import alert_acknowledge
from tests.cashdesk.conftest import signed_by, today, waive
from tests.cashdesk.test_bad_input_never_crashes import refusal
from tests.conftest import PASSWORD

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def _close_tables():
    Table.objects.update(status=Table.Status.CLOSED)  # every closing checklist signed


def _close(**extra):
    return days.gaming_day_close(gaming_day=today(), **extra)


def test_a_table_that_played_without_a_counted_drop_keeps_the_day_open(
    cash_table, crew, closed_round
):
    closed_round(cash_table, bets=["1000"], players_net="-1000")
    _close_tables()
    with pytest.raises(Refused) as refused:
        _close(actor=crew["duty"])
    assert refused.value.code == "controls_open"
    assert f"no counted drop for {cash_table}, which played" in str(refused.value)
    assert not GamingDayClose.objects.exists()

    services.drop_enter(table=cash_table, gaming_day=today(), amount="0.01", actor=crew["duty"])
    with pytest.raises(Refused) as still:  # 0.01 counted, nothing registered: an exception
        _close(actor=crew["duty"])
    assert "1 open exception" in str(still.value)


def test_a_table_that_did_not_play_needs_no_drop(cash_table, crew, make_table):
    make_table(2, status=Table.Status.CLOSED)
    _close_tables()
    assert _close(actor=crew["duty"]).waived == {}


def test_an_open_critical_alert_keeps_the_day_open(cash_table, crew):
    alert = alert_raise(
        table_id=cash_table.pk,
        kind="round_voided",
        params={"round": 7, "reason": "misdeal"},
        severity=Alert.Severity.CRITICAL,
        raised_by=crew["inspector"],
    )
    _close_tables()
    with pytest.raises(Refused) as refused:
        _close(actor=crew["duty"])
    assert "1 open critical alert" in str(refused.value)
    alert_acknowledge(alert_id=alert.pk, by=crew["duty"], note="seen on camera")
    assert _close(actor=crew["duty"]).gaming_day == today()


def test_a_day_whose_drop_is_counted_and_whose_exceptions_are_cleared_closes(
    cash_table, crew, closed_round
):
    cash_in = services.cash_in_record(
        table=cash_table, actor=crew["dealer"], notes={"1000": 2}, chips={"1000": 2}
    )
    services.cash_in_recount(cash_in=cash_in, actor=crew["observer"], notes={"1000": 1})
    closed_round(cash_table, bets=["1000"], players_net="-1000")
    services.drop_enter(table=cash_table, gaming_day=today(), amount="2000", actor=crew["duty"])
    _close_tables()
    with pytest.raises(Refused) as refused:
        _close(actor=crew["duty"])
    assert "1 open exception; 1 open critical alert" in str(refused.value)
    days.exception_resolve(
        kind="cash_in",
        object_id=cash_in.pk,
        actor=crew["duty"],
        note="the drop has 2000: the observer miscounted",
        **signed_by(crew["inspector"]),
    )
    alert_acknowledge(
        alert_id=Alert.objects.get(kind="recount_mismatch").pk,
        by=crew["duty"],
        note="recounted on camera",
        **signed_by(crew["inspector"]),
    )
    close = _close(actor=crew["duty"])
    assert close.waiver_reason == "" and close.waived == {}


@pytest.mark.parametrize(
    "second, password, code",
    [
        ("duty", PASSWORD, "same_person"),
        ("inspector", PASSWORD, "forbidden"),  # a waiver is the pit boss's or a duty's
        ("pitboss", "wrong", "bad_credential"),
    ],
)
def test_a_waiver_needs_two_good_signatures(cash_table, crew, closed_round, second, password, code):
    closed_round(cash_table, bets=["1000"], players_net="-1000")
    _close_tables()
    with pytest.raises(Refused) as refused:
        days.gaming_day_close(
            gaming_day=today(),
            actor=crew["duty"],
            waiver_reason="the count team is absent",
            password=PASSWORD,
            **signed_by(crew[second], password=password),
        )
    assert refused.value.code == code
    assert not GamingDayClose.objects.exists()


def test_the_waiver_is_on_the_closed_days_report(client, cash_table, english_crew, closed_round):
    crew = english_crew
    closed_round(cash_table, bets=["1000"], players_net="-1000")
    slip = slips.slip_request(
        table=cash_table, actor=crew["inspector"], kind="fill", counts_by_denomination={"100": 5}
    )
    _close_tables()
    client.force_login(crew["duty"])
    url = reverse("cashdesk:day_close")
    plain = client.post(url, {"gaming_day": today().isoformat()})
    assert refusal(plain) == (
        f"The gaming day cannot close yet: no counted drop for {cash_table}, which played; "
        "1 open exception. Count the drop, resolve the exceptions and clear the alerts — or "
        "close it with a waiver signed by two people."
    )
    unsigned = client.post(url, {"gaming_day": today().isoformat(), "waiver_reason": "absent"})
    assert "A waiver is signed by two people" in refusal(unsigned)
    assert not GamingDayClose.objects.exists()

    waived = client.post(
        url,
        {
            "gaming_day": today().isoformat(),
            "waiver_reason": "the count team is absent tonight",
            "password": PASSWORD,
            "second": "pitboss",
            "second_password": PASSWORD,
        },
    )
    assert waived.status_code == 302
    close = GamingDayClose.objects.get()
    assert close.waiver_second_by == crew["pitboss"]
    assert close.waived["no_drop"] == [str(cash_table)]
    assert close.waived["exceptions"] == [
        {"kind": "slip", "record": slip.pk, "code": "requested", "table": str(cash_table)}
    ]

    page = client.get(reverse("cashdesk:report"), {"day": today().isoformat()}).content.decode()
    assert 'data-testid="day-waiver-note"' in page
    assert "Closed with a waiver signed by Duty and Pitboss:" in page
    assert "the count team is absent tonight" in page
    assert f"No counted drop: {cash_table}" in page
    assert "1 exception open at the close" in page


def test_a_closed_days_exceptions_leave_the_duty_home(client, cash_table, english_crew):
    crew = english_crew
    slips.slip_request(
        table=cash_table, actor=crew["inspector"], kind="fill", counts_by_denomination={"100": 5}
    )
    _close_tables()
    waive(today(), crew["duty"], crew["pitboss"])
    client.force_login(crew["duty"])
    page = client.get(reverse("cashdesk:duty_home")).content.decode()
    assert 'data-testid="no-exceptions"' in page
