"""Exceptions block closing a gaming day; a closed day refuses late signatures. (The report
and its exports: test_report_and_exports.py.)"""

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from cashdesk import services, slips
from cashdesk.models import CashIn, GamingDayClose
from tables.models import Table
from tests.cashdesk.conftest import today
from tests.conftest import PASSWORD


def test_gaming_day_cannot_close_with_an_open_exception(client, cash_table, crew):
    from cashdesk.selectors import exception_of
    from floor.models import Alert
    from tables.services import alert_acknowledge
    from tests.cashdesk.conftest import signed_by

    cash_in = services.cash_in_record(
        table=cash_table, actor=crew["dealer"], notes={"1000": 2}, chips={"1000": 2}
    )
    services.cash_in_recount(cash_in=cash_in, actor=crew["observer"], notes={"1000": 1})
    services.drop_enter(table=cash_table, gaming_day=today(), amount="2000", actor=crew["duty"])
    Table.objects.update(status=Table.Status.CLOSED)  # the table's closing checklist is signed
    client.force_login(crew["duty"])
    response = client.post(reverse("cashdesk:day_close"), {"gaming_day": today().isoformat()})
    assert response.status_code == 400
    assert not GamingDayClose.objects.exists()
    assert 'data-testid="exceptions"' in response.content.decode()

    client.post(
        reverse("cashdesk:resolve"),
        {
            "kind": "cash_in",
            "object_id": cash_in.pk,
            "note": "player had 1000 back",
            "state": exception_of(kind="cash_in", object_id=cash_in.pk)["state_hash"],
            "second": "inspector",
            "second_password": PASSWORD,
        },
    )
    alert_acknowledge(
        alert_id=Alert.objects.get(kind="recount_mismatch").pk,
        by=crew["duty"],
        note="counted on camera",
        **signed_by(crew["inspector"]),
    )
    response = client.post(reverse("cashdesk:day_close"), {"gaming_day": today().isoformat()})
    assert response.status_code == 302
    assert GamingDayClose.objects.filter(gaming_day=today()).exists()
    assert CashIn.objects.count() == 1


def test_drop_difference_is_an_exception(cash_table, crew):
    from cashdesk.selectors import open_exceptions

    cash_in = services.cash_in_record(
        table=cash_table, actor=crew["dealer"], notes={"1000": 2}, chips={"1000": 2}
    )
    services.cash_in_recount(cash_in=cash_in, actor=crew["observer"], notes={"1000": 2})
    assert open_exceptions(gaming_day=today()) == []
    services.drop_enter(table=cash_table, gaming_day=today(), amount="1500", actor=crew["duty"])
    (exception,) = open_exceptions(gaming_day=today())
    assert exception["code"] == "drop_difference"
    assert exception["difference"] == Decimal("-500")


def test_unsigned_and_voided_slips_are_exceptions(cash_table, crew):
    from cashdesk.selectors import open_exceptions

    slip = slips.slip_request(
        table=cash_table, actor=crew["inspector"], kind="fill", counts_by_denomination={"100": 5}
    )
    assert [e["code"] for e in open_exceptions(gaming_day=today())] == ["requested"]
    slips.slip_void(slip=slip, actor=crew["inspector"], reason="not needed")
    slips.slip_void(slip=slip, actor=crew["duty"])
    assert [e["code"] for e in open_exceptions(gaming_day=today())] == ["voided"]


def test_a_closed_day_refuses_late_signatures(cash_table, crew):
    from tests.cashdesk.conftest import waive

    cash_in = services.cash_in_record(
        table=cash_table, actor=crew["dealer"], notes={"1000": 2}, chips={"1000": 2}
    )
    slip = slips.slip_request(
        table=cash_table, actor=crew["inspector"], kind="fill", counts_by_denomination={"100": 5}
    )
    Table.objects.update(status=Table.Status.CLOSED)
    waive(today(), crew["duty"], crew["pitboss"])  # closed over the open records
    with pytest.raises(ValidationError):
        services.cash_in_recount(cash_in=cash_in, actor=crew["observer"], notes={"1000": 2})
    with pytest.raises(ValidationError):
        slips.slip_issue(slip=slip, actor=crew["duty"])
    cash_in.refresh_from_db()
    slip.refresh_from_db()
    assert cash_in.recounted_at is None and slip.issued_at is None
