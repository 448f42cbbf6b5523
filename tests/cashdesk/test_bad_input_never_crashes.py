"""Input no form expects (huge numbers, ids that are not ids or beyond any database id, far
dates, too long a period) is refused with status 400 and a message in words, nothing is
saved, and never a 500."""

import re
from html import unescape

import pytest
from django.urls import reverse

from cashdesk.models import CashIn, DropCount, GamingDayClose, Resolution, Slip, Tip
from floor.ledger import AuditEntry
from tests.cashdesk.conftest import once, today

pytestmark = pytest.mark.django_db

BEYOND_ANY_ID = str(2**63)
DAY_RANGE = "Choose a day from 2000-01-01 to 2099-12-31."


def refusal(response) -> str:
    """The refusal the page shows where the person looks (the error block)."""
    assert response.status_code == 400
    found = re.search(r'data-testid="error"[^>]*>([^<]*)<', response.content.decode())
    assert found, "the page shows no error"
    return unescape(found.group(1)).strip()


@pytest.mark.parametrize(
    ("amount", "message"),
    [
        ("1e30", "“1e30” is not an amount: write digits, such as 1500 or 1 500,50"),
        ("1" + "0" * 40, "That amount is too large."),
        ("9999999999999.99", "That amount is too large."),
    ],
)
def test_a_huge_tip_is_refused_with_a_message(client, cash_table, english_crew, amount, message):
    client.force_login(english_crew["dealer"])
    response = client.post(
        reverse("cashdesk:tip", args=[cash_table.pk]), {"amount": amount, "box": "1"}
    )
    assert refusal(response).startswith(message)
    assert not Tip.objects.exists()


@pytest.mark.parametrize("box", ["", "abc", "0", "8", BEYOND_ANY_ID])
def test_a_tip_for_a_box_that_is_not_one_is_refused(client, cash_table, english_crew, box):
    client.force_login(english_crew["dealer"])
    response = client.post(
        reverse("cashdesk:tip", args=[cash_table.pk]), {"amount": "100", "box": box}
    )
    expected = "There is no box 8 at this table." if box == "8" else "Choose a box."
    assert refusal(response) == expected
    assert not Tip.objects.exists()


def test_a_huge_cash_in_is_refused_with_a_message(client, cash_table, english_crew):
    client.force_login(english_crew["dealer"])
    response = client.post(
        reverse("cashdesk:cash_in", args=[cash_table.pk]),
        {"note-5000": str(10**30), "chip-5000": str(10**30)},
    )
    assert refusal(response) == "That count is too large."
    assert not CashIn.objects.exists()


@pytest.mark.parametrize(
    "post, message",
    [
        ({"note-1000": "-2", "chip-1000": "-2"}, "A count cannot be negative."),
        ({"note-1000": "two", "chip-1000": "2"}, "“two” is not a whole number of notes."),
        ({"note-1000": "2", "chip-1000": "2.5"}, "“2.5” is not a whole number of chips."),
        ({"note-1000": "2", "chip-25": "80"}, "25 is not a denomination of the chips here."),
        ({"note-3000": "1", "chip-1000": "3"}, "3000 is not a denomination of the notes here."),
        (
            {"note-1000": "2", "chip-1000": "3"},
            "Chips given (3,000.00) must equal the cash (2,000.00).",
        ),
        ({}, "Enter at least one notes."),
        (
            {"note-1000": "2", "chip-1000": "2", "destination": "pocket"},
            "Choose where the cash goes.",
        ),
    ],
)
def test_a_bad_cash_in_is_refused_with_its_reason(client, cash_table, english_crew, post, message):
    client.force_login(english_crew["dealer"])
    response = client.post(reverse("cashdesk:cash_in", args=[cash_table.pk]), once(post))
    assert refusal(response) == message
    assert not CashIn.objects.exists()


@pytest.mark.parametrize("raw", ["abc", "²", "-1", "", BEYOND_ANY_ID, "999999"])
def test_a_drop_for_a_table_that_is_not_one_is_refused(client, cash_table, english_crew, raw):
    client.force_login(english_crew["duty"])
    response = client.post(
        reverse("cashdesk:drop"),
        {"table": raw, "amount": "100", "gaming_day": today().isoformat()},
    )
    assert refusal(response) == "Choose a table."
    assert not DropCount.objects.exists()


@pytest.mark.parametrize(
    "day, message",
    [
        ("9999-12-31", DAY_RANGE),
        ("0001-01-01", DAY_RANGE),
        ("2026-02-30", "“2026-02-30” is not a date."),
        ("", "Choose a gaming day."),
    ],
)
def test_a_drop_for_a_day_that_is_not_one_is_refused(
    client, cash_table, english_crew, day, message
):
    client.force_login(english_crew["duty"])
    response = client.post(
        reverse("cashdesk:drop"), {"table": cash_table.pk, "amount": "100", "gaming_day": day}
    )
    assert refusal(response) == message
    assert not DropCount.objects.exists()


@pytest.mark.parametrize(
    "name, params, message",
    [
        ("cashdesk:report", {"month": "9999-12"}, "Choose a month from 2000-01 to 2099-12."),
        (
            "cashdesk:report",
            {"month": "2026-13"},
            "“2026-13” is not a month (write it as YYYY-MM).",
        ),
        ("cashdesk:report", {"day": "9999-12-31"}, DAY_RANGE),
        ("cashdesk:report", {"first": "0001-01-01", "last": "9999-12-31"}, DAY_RANGE),
        ("cashdesk:report", {"day": "yesterday"}, "“yesterday” is not a date."),
        ("cashdesk:report", {"group": "croupier"}, "Group the report by table, pit, shift or day."),
        (
            "cashdesk:report",
            {"first": "2024-01-01", "last": "2025-06-30"},
            "A report covers at most 366 days: choose a shorter period.",
        ),
        ("cashdesk:report_print", {"day": "9999-12-31"}, DAY_RANGE),
        ("cashdesk:export", {"month": "9999-12"}, "Choose a month from 2000-01 to 2099-12."),
        ("cashdesk:export", {"first": "0001-01-01", "last": "9999-12-31"}, DAY_RANGE),
        ("cashdesk:export", {"format": "pdf"}, "Download as XLSX or CSV."),
        ("cashdesk:records", {"day": "9999-12-31"}, DAY_RANGE),
        ("cashdesk:records", {"table": BEYOND_ANY_ID}, "No such table."),
        ("cashdesk:records", {"table": "²"}, "No such table."),
        ("cashdesk:records", {"table": "abc"}, "No such table."),
        ("cashdesk:records", {"table": "999999"}, "No such table."),
        ("cashdesk:records", {"pit": BEYOND_ANY_ID}, "No such pit."),
        ("cashdesk:records", {"pit": "abc"}, "No such pit."),
        ("cashdesk:records", {"cash_ins_page": BEYOND_ANY_ID}, "No such page."),
        ("cashdesk:records", {"tips_page": "0"}, "No such page."),
        (
            "cashdesk:records_export",
            {"list": "users"},
            ("Choose the list to download: cash-ins, tips, slips or drops."),
        ),
        ("cashdesk:records_export", {"pit": BEYOND_ANY_ID}, "No such pit."),
        ("cashdesk:drop", {"day": "9999-12-31"}, DAY_RANGE),
    ],
)
def test_crafted_report_parameters_are_refused_with_a_message(
    client, english_crew, name, params, message
):
    client.force_login(english_crew["duty"])
    assert refusal(client.get(reverse(name), params)) == message


def test_a_year_long_period_is_allowed(client, english_crew):
    client.force_login(english_crew["pitboss"])
    response = client.get(reverse("cashdesk:report"), {"first": "2025-01-01", "last": "2025-12-31"})
    assert response.status_code == 200
    assert 'data-testid="report-table"' in response.content.decode()


@pytest.mark.parametrize("value", ["²", "abc", "-1", "0", BEYOND_ANY_ID, "9" * 40])
def test_an_alert_filter_that_is_not_a_table_is_refused(client, cash_table, english_crew, value):
    from floor.alerts import alert_raise

    alert_raise(table_id=cash_table.pk, kind="flag", params={"note": "Box 2 overpaid"})
    client.force_login(english_crew["duty"])
    everything = client.get(reverse("tables:alerts")).content.decode()
    assert "Box 2 overpaid" in everything
    response = client.get(reverse("tables:alerts"), {"table": value})
    assert refusal(response) == "No such table."
    assert 'data-testid="alert-filters"' in response.content.decode()
    assert "Box 2 overpaid" not in response.content.decode()


def test_an_alert_filter_of_a_kind_that_is_not_one_is_refused(client, english_crew):
    client.force_login(english_crew["duty"])
    response = client.get(reverse("tables:alerts"), {"kind": "nonsense"})
    assert refusal(response) == "No such kind of alert."


@pytest.mark.parametrize("slip", ["", "abc", "-3", BEYOND_ANY_ID, "999999"])
def test_issuing_a_slip_that_is_not_one_is_refused(client, cash_table, english_crew, slip):
    client.force_login(english_crew["duty"])
    response = client.post(reverse("cashdesk:slip_issue"), {"slip": slip})
    assert refusal(response) == "No such slip."
    assert not Slip.objects.filter(issued_at__isnull=False).exists()


@pytest.mark.parametrize(
    "post",
    [
        {"kind": "cash_in", "object_id": BEYOND_ANY_ID, "note": "x"},
        {"kind": "cash_in", "object_id": "abc", "note": "x"},
        {"kind": "croupier", "object_id": "1", "note": "x"},
        {"object_id": "1", "note": "x"},
    ],
)
def test_resolving_an_exception_that_is_not_one_is_refused(client, english_crew, post):
    client.force_login(english_crew["duty"])
    assert refusal(client.post(reverse("cashdesk:resolve"), post)) == "No such exception."
    assert not Resolution.objects.exists()


@pytest.mark.parametrize(
    "day, message",
    [
        ("9999-12-31", DAY_RANGE),
        ("0001-01-01", DAY_RANGE),
        ("31.12.2026", "“31.12.2026” is not a date."),
        ("", "Choose a gaming day."),
    ],
)
def test_closing_a_day_that_is_not_one_is_refused(client, english_crew, day, message):
    client.force_login(english_crew["duty"])
    assert refusal(client.post(reverse("cashdesk:day_close"), {"gaming_day": day})) == message
    assert not GamingDayClose.objects.exists()


@pytest.mark.parametrize(
    "name, role, post",
    [
        ("cashdesk:recount", "observer", {"cash_in": BEYOND_ANY_ID, "note-1000": "1"}),
        ("cashdesk:recount", "observer", {"cash_in": "abc", "note-1000": "1"}),
        ("cashdesk:slip_receive", "dealer", {"slip": BEYOND_ANY_ID}),
        ("cashdesk:slip_void", "inspector", {"slip": BEYOND_ANY_ID, "reason": "x"}),
    ],
)
def test_a_record_id_beyond_any_id_at_a_table_is_refused(
    client, cash_table, english_crew, name, role, post
):
    """The table's real records (a cash-in awaiting its recount, an issued slip) are there
    to be touched by mistake; the refusal leaves them as they were."""
    from cashdesk import services, slips

    services.cash_in_record(
        table=cash_table, actor=english_crew["dealer"], notes={"1000": 1}, chips={"1000": 1}
    )
    slip = slips.slip_request(
        table=cash_table,
        actor=english_crew["inspector"],
        kind="fill",
        counts_by_denomination={"1000": 1},
    )
    slips.slip_issue(slip=slip, actor=english_crew["duty"])

    def records():
        return (
            list(CashIn.objects.values()),
            list(Slip.objects.values()),
            list(AuditEntry.objects.values_list("pk", flat=True)),
        )

    before = records()
    client.force_login(english_crew[role])
    response = client.post(reverse(name, args=[cash_table.pk]), post)
    assert refusal(response) == "No such record at this table."
    assert records() == before
