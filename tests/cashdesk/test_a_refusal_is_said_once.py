"""A refused form or request is said once, where the page shows its error — not a second
time in the messages above the page (the duty home printed each refusal twice)."""

from html import unescape

import pytest
from django.urls import reverse

from tests.cashdesk.conftest import once, today

pytestmark = pytest.mark.django_db


def _said(response, text: str) -> int:
    assert response.status_code == 400
    return unescape(response.content.decode()).count(text)


def test_the_duty_home_says_a_refusal_once(client, english_crew):
    client.force_login(english_crew["duty"])
    response = client.post(reverse("cashdesk:slip_issue"), once({"slip": "999999"}))
    assert _said(response, "No such slip.") == 1


def test_the_tables_cash_screen_says_a_refusal_once(client, cash_table, english_crew):
    client.force_login(english_crew["dealer"])
    url = reverse("cashdesk:tip", args=[cash_table.pk])
    response = client.post(url, once({"amount": "100", "box": "8"}))
    assert _said(response, "There is no box 8 at this table.") == 1


def test_the_counted_drop_says_a_refusal_once(client, cash_table, english_crew):
    client.force_login(english_crew["duty"])
    post = {"table": "abc", "amount": "100", "gaming_day": today().isoformat()}
    assert _said(client.post(reverse("cashdesk:drop"), once(post)), "Choose a table.") == 1


def test_the_report_says_a_refusal_once(client, english_crew):
    client.force_login(english_crew["duty"])
    response = client.get(reverse("cashdesk:report"), {"day": "yesterday"})
    assert _said(response, "“yesterday” is not a date.") == 1
