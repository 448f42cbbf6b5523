"""A refused form comes back with what the person typed (cash-in, recount, tip, slip, void,
resolution, drop), and the observer sees the dealer's figure after his blind recount, never
before. Lists longer than a page are paged."""

import re
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone

from cashdesk import services
from cashdesk.models import CashIn, Tip
from tests.cashdesk.conftest import once, today

pytestmark = pytest.mark.django_db


def _value(page: str, name: str, form_testid: str | None = None) -> str:
    if form_testid:
        page = page.split(f'data-testid="{form_testid}"')[1]
    found = re.search(rf'name="{re.escape(name)}" value="([^"]*)"', page)
    assert found, f"no input {name}"
    return found.group(1)


def test_a_refused_cash_in_keeps_the_counts_card_and_destination(client, cash_table, crew):
    client.force_login(crew["dealer"])
    post = {
        "note-1000": "2",
        "note-5000": "1",
        "chip-1000": "3",
        "player_card": "PC-42",
        "destination": "pit_cash_desk",
    }
    response = client.post(reverse("cashdesk:cash_in", args=[cash_table.pk]), post)
    assert response.status_code == 400
    page = response.content.decode()
    assert _value(page, "note-1000") == "2" and _value(page, "note-5000") == "1"
    assert _value(page, "chip-1000") == "3" and _value(page, "chip-5000") == ""
    assert 'name="player_card" maxlength="32" value="PC-42"' in page
    assert 'value="pit_cash_desk" checked' in page
    assert not CashIn.objects.exists()


def test_a_refused_tip_keeps_the_box_and_amount(client, cash_table, crew):
    client.force_login(crew["dealer"])
    response = client.post(
        reverse("cashdesk:tip", args=[cash_table.pk]), {"box": "4", "amount": "12.345"}
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert 'value="12.345"' in page.split('data-testid="tip-form"')[1]
    assert "<option selected>4</option>" in page
    assert not Tip.objects.exists()


def test_a_refused_recount_keeps_the_counts_of_that_cash_in_only(client, cash_table, crew):
    first = services.cash_in_record(
        table=cash_table, actor=crew["dealer"], notes={"1000": 2}, chips={"1000": 2}
    )
    services.cash_in_record(
        table=cash_table, actor=crew["dealer"], notes={"1000": 3}, chips={"1000": 3}
    )
    client.force_login(crew["observer"])
    response = client.post(
        reverse("cashdesk:recount", args=[cash_table.pk]),
        {"cash_in": first.pk, "note-1000": "2", "note-500": "x"},
    )
    assert response.status_code == 400
    forms = response.content.decode().split('data-testid="recount-form"')[1:]
    assert len(forms) == 2
    assert _value(forms[0], "note-1000") == "2" and _value(forms[0], "note-500") == "x"
    assert _value(forms[1], "note-1000") == ""
    first.refresh_from_db()
    assert first.status == CashIn.Status.AWAITING_RECOUNT


def test_a_refused_slip_request_keeps_the_kind_and_chips(client, cash_table, crew):
    client.force_login(crew["inspector"])
    response = client.post(
        reverse("cashdesk:slip_request", args=[cash_table.pk]),
        {"kind": "credit", "chip-500": "-1", "chip-1000": "4"},
    )
    assert response.status_code == 400
    page = response.content.decode().split('data-testid="slip-request"')[1]
    assert 'value="credit" checked' in page
    assert _value(page, "chip-500") == "-1" and _value(page, "chip-1000") == "4"


def test_a_refused_drop_keeps_the_table_amount_and_note(client, cash_table, crew, make_table):
    other = make_table(2)
    client.force_login(crew["duty"])
    response = client.post(
        reverse("cashdesk:drop"),
        {"table": other.pk, "gaming_day": today().isoformat(), "amount": "12,5,0", "note": "n1"},
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert f'<option value="{other.pk}" selected>' in page
    assert 'name="amount" inputmode="decimal" required value="12,5,0"' in page
    assert 'name="note" value="n1"' in page


def test_a_refused_resolution_keeps_its_note(client, cash_table, crew):
    services.cash_in_record(
        table=cash_table, actor=crew["dealer"], notes={"1000": 2}, chips={"1000": 2}
    )
    client.force_login(crew["duty"])
    response = client.post(
        reverse("cashdesk:resolve"), {"kind": "cash_in", "object_id": "abc", "note": "counted"}
    )
    assert response.status_code == 400
    # the form of the one exception listed keeps nothing: the refused id was not its id
    assert 'value="counted"' not in response.content.decode()


def test_the_observer_sees_the_dealers_figure_only_after_his_own_count(client, cash_table, crew):
    crew["observer"].preferred_language = "en"
    crew["observer"].save(update_fields=["preferred_language"])
    cash_in = services.cash_in_record(
        table=cash_table,
        actor=crew["dealer"],
        notes={"5000": 3, "1000": 2},
        chips={"5000": 3, "1000": 2},
    )
    client.force_login(crew["observer"])
    url = reverse("cashdesk:table", args=[cash_table.pk])
    before = client.get(url).content.decode()
    assert "17,000.00" not in before and 'data-testid="my-recounts"' not in before
    response = client.post(
        reverse("cashdesk:recount", args=[cash_table.pk]),
        once({"cash_in": cash_in.pk, "note-5000": "3", "note-1000": "1"}),
        follow=True,
    )
    page = response.content.decode()
    assert "Recount recorded: your 16,000.00 differs from the dealer&#x27;s 17,000.00." in page
    mine = page.split('data-testid="my-recounts"')[1].split("</table>")[0]
    assert "16,000.00" in mine and 'data-testid="dealer-figure">17,000.00<' in mine
    assert "Recount mismatch" in mine


def test_the_records_page_is_paged(client, cash_table, crew):
    now = timezone.now()
    CashIn.objects.bulk_create(
        CashIn(
            table=cash_table,
            gaming_day=today(),
            shift=1,
            notes={"1000": 1},
            amount=Decimal("1000"),
            chips={"1000": 1},
            chips_total=Decimal("1000"),
            player_card=f"P{i:03d}",
            entered_by=crew["dealer"],
            entered_at=now,
        )
        for i in range(230)
    )
    client.force_login(crew["pitboss"])
    query = {"day": today().isoformat(), "table": cash_table.pk}
    first = client.get(reverse("cashdesk:records"), query).content.decode()
    rows = first.split('data-testid="records-cash-ins"')[1].split("</table>")[0]
    assert rows.count("<tr>") == 1 + 100  # the header and one page
    assert 'data-testid="pages-cash_ins"' in first
    assert "cash_ins_page=2" in first
    last = client.get(reverse("cashdesk:records"), {**query, "cash_ins_page": "3"})
    rows = last.content.decode().split('data-testid="records-cash-ins"')[1].split("</table>")[0]
    assert rows.count("<tr>") == 1 + 30
    beyond = client.get(reverse("cashdesk:records"), {**query, "cash_ins_page": "99"})
    assert beyond.status_code == 200  # a page past the end shows the last one
    # the table's register pages too (50 a page)
    client.force_login(crew["inspector"])
    register = client.get(reverse("cashdesk:table", args=[cash_table.pk])).content.decode()
    rows = register.split('data-testid="register"')[1].split("</table>")[0]
    assert rows.count("<tr>") == 1 + 50
    assert "cash_ins_page=2" in register
