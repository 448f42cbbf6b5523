"""Input no form expects (huge numbers, ids that are not ids) is refused, never a 500."""

import pytest
from django.urls import reverse

from cashdesk.models import CashIn, Tip

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("amount", ["1e30", "1" + "0" * 40, "9999999999999.99"])
def test_a_huge_tip_is_refused_with_a_message(client, cash_table, crew, amount):
    client.force_login(crew["dealer"])
    response = client.post(
        reverse("cashdesk:tip", args=[cash_table.pk]), {"amount": amount, "box": "1"}
    )
    assert response.status_code in (200, 302, 400)
    assert not Tip.objects.exists()


def test_a_huge_cash_in_is_refused_with_a_message(client, cash_table, crew):
    client.force_login(crew["dealer"])
    response = client.post(
        reverse("cashdesk:cash_in", args=[cash_table.pk]),
        {"note-5000": str(10**30), "chip-5000": str(10**30)},
    )
    assert response.status_code in (200, 302, 400)
    assert not CashIn.objects.exists()


@pytest.mark.parametrize("raw", ["abc", "²", "-1", ""])
def test_a_drop_for_a_table_that_is_not_an_id_is_refused(client, cash_table, crew, raw):
    client.force_login(crew["duty"])
    response = client.post(
        reverse("cashdesk:drop"), {"table": raw, "amount": "100", "gaming_day": "2026-11-29"}
    )
    assert response.status_code in (200, 400)


@pytest.mark.parametrize("value", ["²", "abc"])
def test_report_filters_that_are_not_ids_do_not_crash(client, crew, value):
    client.force_login(crew["duty"])
    for params in ({"table": value}, {"pit": value}):
        assert client.get(reverse("cashdesk:records"), params).status_code in (200, 400)
    assert client.get(reverse("tables:alerts"), {"table": value}).status_code == 200
