"""The report's exports read back; exceptions block closing a gaming day; a croupier cannot
open a report."""

import csv
import io
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from openpyxl import load_workbook

from cashdesk import services
from cashdesk.models import CashIn, GamingDayClose
from tests.cashdesk.conftest import today
from tests.cashdesk.test_win_formula import worked_day  # noqa: F401 — fixture


def test_csv_export_reads_back(client, crew, worked_day):  # noqa: F811
    client.force_login(crew["duty"])
    response = client.get(reverse("cashdesk:export"), {"day": today().isoformat()})
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    header, line, total = rows
    assert len(header) == len(line) == 18
    assert line[0] == str(worked_day)
    win = header.index("Выигрыш") if "Выигрыш" in header else 9
    assert Decimal(line[win]) == Decimal("17000")
    assert Decimal(line[3]) == Decimal("20000") and Decimal(line[4]) == Decimal("5000")
    assert Decimal(total[9]) == Decimal("17000")


def test_xlsx_export_reads_back(client, crew, worked_day):  # noqa: F811
    client.force_login(crew["pitboss"])
    response = client.get(
        reverse("cashdesk:export"), {"day": today().isoformat(), "format": "xlsx"}
    )
    assert response.status_code == 200
    book = load_workbook(io.BytesIO(response.content))
    sheet = book.active
    rows = list(sheet.iter_rows(values_only=True))
    assert len(rows) == 3
    line = rows[1]
    assert line[0] == str(worked_day)
    assert line[1] == 100000 and line[2] == 102000
    assert line[9] == 17000 and line[10] == pytest.approx(56.67)
    assert rows[2][9] == 17000


def test_report_page_shows_figures_charts_and_drill_down(client, crew, worked_day):  # noqa: F811
    client.force_login(crew["duty"])
    page = client.get(reverse("cashdesk:report"), {"day": today().isoformat()}).content.decode()
    assert "17000" in page and "56.67" in page
    assert page.count("<svg") == 2
    assert reverse("cashdesk:records") in page
    records = client.get(
        reverse("cashdesk:records"),
        {"first": today().isoformat(), "last": today().isoformat(), "table": worked_day.pk},
    ).content.decode()
    assert "F-" in records and "entered twice" in records
    assert client.get(reverse("cashdesk:report_print"), {"day": today()}).status_code == 200
    shifts = client.get(reverse("cashdesk:report"), {"day": today(), "group": "shift"})
    assert 'data-testid="shift-table"' in shifts.content.decode()
    month = client.get(reverse("cashdesk:report"), {"month": today().strftime("%Y-%m")})
    assert "17000" in month.content.decode()


def test_a_croupier_cannot_open_a_report(client, crew):
    client.force_login(crew["dealer"])
    assert client.get(reverse("cashdesk:report")).status_code == 403
    assert client.get(reverse("cashdesk:export")).status_code == 403


def test_gaming_day_cannot_close_with_an_open_exception(client, cash_table, crew):
    cash_in = services.cash_in_record(
        table=cash_table, actor=crew["dealer"], notes={"1000": 2}, chips={"1000": 2}
    )
    services.cash_in_recount(cash_in=cash_in, actor=crew["observer"], notes={"1000": 1})
    client.force_login(crew["duty"])
    response = client.post(reverse("cashdesk:day_close"), {"gaming_day": today().isoformat()})
    assert response.status_code == 400
    assert not GamingDayClose.objects.exists()
    assert 'data-testid="exceptions"' in response.content.decode()

    client.post(
        reverse("cashdesk:resolve"),
        {"kind": "cash_in", "object_id": cash_in.pk, "note": "player had 1000 back"},
    )
    response = client.post(reverse("cashdesk:day_close"), {"gaming_day": today().isoformat()})
    assert response.status_code == 302
    assert GamingDayClose.objects.filter(gaming_day=today()).exists()
    with pytest.raises(ValidationError):
        services.cash_in_record(
            table=cash_table, actor=crew["dealer"], notes={"1000": 1}, chips={"1000": 1}
        )
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

    slip = services.slip_request(
        table=cash_table, actor=crew["inspector"], kind="fill", counts_by_denomination={"100": 5}
    )
    assert [e["code"] for e in open_exceptions(gaming_day=today())] == ["requested"]
    services.slip_void(slip=slip, actor=crew["inspector"], reason="not needed")
    services.slip_void(slip=slip, actor=crew["duty"])
    assert [e["code"] for e in open_exceptions(gaming_day=today())] == ["voided"]


def test_a_closed_day_refuses_late_signatures(cash_table, crew):
    cash_in = services.cash_in_record(
        table=cash_table, actor=crew["dealer"], notes={"1000": 2}, chips={"1000": 2}
    )
    slip = services.slip_request(
        table=cash_table, actor=crew["inspector"], kind="fill", counts_by_denomination={"100": 5}
    )
    for kind, pk in (("cash_in", cash_in.pk), ("slip", slip.pk)):
        services.exception_resolve(kind=kind, object_id=pk, actor=crew["duty"], note="checked")
    services.gaming_day_close(gaming_day=today(), actor=crew["duty"])
    with pytest.raises(ValidationError):
        services.cash_in_recount(cash_in=cash_in, actor=crew["observer"], notes={"1000": 2})
    with pytest.raises(ValidationError):
        services.slip_issue(slip=slip, actor=crew["duty"])
    cash_in.refresh_from_db()
    slip.refresh_from_db()
    assert cash_in.recounted_at is None and slip.issued_at is None
