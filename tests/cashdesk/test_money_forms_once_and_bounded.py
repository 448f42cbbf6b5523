"""Money forms act once and within sane bounds (issue 11, row 13): every money form carries
an idempotency token; the same token sent again records nothing and is answered with the
first result; an amount above ``CASH_AMOUNT_MAX`` is refused with the reason; an unusual
tip or slip raises an alert."""

import threading
import uuid
from decimal import Decimal

import pytest
from django.conf import settings as django_settings
from django.db import connection
from django.test import Client
from django.urls import reverse

from cashdesk.models import CashIn, DropCount, Slip, Submission, Tip
from floor.models import Alert
from tests.cashdesk.conftest import once, today


def token() -> str:
    return uuid.uuid4().hex


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []


@pytest.fixture
def dealer(client, cash_table, crew):
    crew["dealer"].preferred_language = "en"
    crew["dealer"].save()
    client.force_login(crew["dealer"])
    return client


def test_every_money_form_on_the_page_carries_a_fresh_token(dealer, cash_table):
    page = dealer.get(reverse("cashdesk:table", args=[cash_table.pk])).content.decode()
    again = dealer.get(reverse("cashdesk:table", args=[cash_table.pk])).content.decode()
    assert page.count('name="submission"') == 2  # the dealer's cash-in and tip
    first = page.split('name="submission" value="')[1][:32]
    assert first not in again


def test_the_same_tip_sent_twice_is_recorded_once_and_answered_as_the_first(dealer, cash_table):
    url = reverse("cashdesk:tip", args=[cash_table.pk])
    post = {"box": "3", "amount": "250", "note": "a regular", "submission": token()}
    first = dealer.post(url, post, follow=True)
    second = dealer.post(url, post, follow=True)
    assert Tip.objects.count() == 1
    recorded = "Tip recorded: each chip knocked on the table three times, into the tip box."
    assert recorded in messages_of(first)
    assert messages_of(second) == [f"Already recorded (the form was sent twice): {recorded}"]
    assert (
        Submission.objects.get(token=post["submission"]).record
        == f"cashdesk.tip:{Tip.objects.get().pk}"
    )


def test_the_same_cash_in_and_the_same_recount_twice_act_once(dealer, cash_table, crew):
    post = {"note-1000": "2", "chip-1000": "2", "submission": token()}
    url = reverse("cashdesk:cash_in", args=[cash_table.pk])
    assert dealer.post(url, post).status_code == 302
    assert dealer.post(url, post).status_code == 302
    assert CashIn.objects.count() == 1
    observer = Client()
    observer.force_login(crew["observer"])
    recount = {"cash_in": CashIn.objects.get().pk, "note-1000": "2", "submission": token()}
    url = reverse("cashdesk:recount", args=[cash_table.pk])
    assert observer.post(url, recount).status_code == 302
    again = observer.post(url, recount, follow=True, HTTP_ACCEPT_LANGUAGE="en")
    assert again.status_code == 200
    assert CashIn.objects.get().status == CashIn.Status.CONFIRMED


def test_a_money_form_without_its_token_is_refused(dealer, cash_table):
    response = dealer.post(
        reverse("cashdesk:tip", args=[cash_table.pk]),
        {"box": "3", "amount": "250", "note": "a regular"},
    )
    assert response.status_code == 400
    assert (
        "This form is out of date: reload the page and enter it again." in response.content.decode()
    )
    assert not Tip.objects.exists()


def test_another_persons_token_is_refused(dealer, cash_table, crew):
    post = {"box": "3", "amount": "250", "note": "a regular", "submission": token()}
    dealer.post(reverse("cashdesk:tip", args=[cash_table.pk]), post)
    duty = Client()
    duty.force_login(crew["duty"])
    response = duty.post(
        reverse("cashdesk:drop"),
        {
            "table": cash_table.pk,
            "amount": "100",
            "gaming_day": today().isoformat(),
            "submission": post["submission"],
        },
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 400
    assert "This form was already used" in response.content.decode()
    assert not DropCount.objects.exists()


def test_a_refused_form_leaves_its_token_free(dealer, cash_table):
    url = reverse("cashdesk:tip", args=[cash_table.pk])
    sent = token()
    refused = dealer.post(
        url, {"box": "3", "amount": "999999999999.99", "note": "a regular", "submission": sent}
    )
    assert refused.status_code == 400
    assert (
        dealer.post(
            url, {"box": "3", "amount": "250", "note": "a regular", "submission": sent}
        ).status_code
        == 302
    )
    assert Tip.objects.count() == 1


@pytest.mark.parametrize("amount", ["999999999999.99", "100000000.01"])
def test_an_absurd_tip_is_refused_with_the_reason(dealer, cash_table, amount):
    response = dealer.post(
        reverse("cashdesk:tip", args=[cash_table.pk]),
        once({"box": "3", "amount": amount, "note": "a regular"}),
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert "is more than the largest amount accepted (100,000,000.00): check the figure." in page
    assert not Tip.objects.exists()


def test_the_bound_is_a_setting_and_covers_cash_ins_and_drops(dealer, cash_table, crew, settings):
    settings.CASH_AMOUNT_MAX = 1500
    response = dealer.post(
        reverse("cashdesk:cash_in", args=[cash_table.pk]),
        once({"note-1000": "2", "chip-1000": "2"}),
    )
    assert response.status_code == 400 and not CashIn.objects.exists()
    duty = Client()
    duty.force_login(crew["duty"])
    response = duty.post(
        reverse("cashdesk:drop"),
        once({"table": cash_table.pk, "amount": "2000", "gaming_day": today().isoformat()}),
    )
    assert response.status_code == 400 and not DropCount.objects.exists()


def test_an_unusual_tip_raises_an_alert(dealer, cash_table, settings, crew):
    settings.TIP_ALERT_AMOUNT = 10000
    url = reverse("cashdesk:tip", args=[cash_table.pk])
    dealer.post(url, once({"box": "3", "amount": "9999.99", "note": "a regular"}))
    assert not Alert.objects.filter(kind="tip_large").exists()
    dealer.post(url, once({"box": "2", "amount": "10000", "note": "a regular"}))
    alert = Alert.objects.get(kind="tip_large")
    assert alert.params["box"] == 2 and alert.raised_by == crew["dealer"]
    assert alert.table == cash_table


def test_an_unusual_slip_raises_an_alert(client, cash_table, crew, settings):
    settings.SLIP_ALERT_AMOUNT = 50000
    client.force_login(crew["inspector"])
    url = reverse("cashdesk:slip_request", args=[cash_table.pk])
    client.post(url, once({"kind": "fill", "chip-5000": "10"}))
    assert Slip.objects.get().total == Decimal("50000")
    assert Alert.objects.get(kind="slip_large").params["amount"] == "50000.00"


@pytest.mark.postgres_only
@pytest.mark.django_db(transaction=True)
def test_the_same_tip_posted_twice_at_once_is_recorded_once(cash_table, crew):
    """Two requests with one token racing on PostgreSQL: one tip, and both answered."""
    browser = Client()
    browser.force_login(crew["dealer"])
    cookie = browser.cookies[django_settings.SESSION_COOKIE_NAME].value
    post = {"box": "3", "amount": "250", "note": "a regular", "submission": token()}
    barrier = threading.Barrier(2)
    statuses = []

    def send():
        client = Client()
        client.cookies[django_settings.SESSION_COOKIE_NAME] = cookie
        try:
            barrier.wait()
            statuses.append(
                client.post(reverse("cashdesk:tip", args=[cash_table.pk]), post).status_code
            )
        finally:
            connection.close()

    threads = [threading.Thread(target=send) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert statuses == [302, 302]
    assert Tip.objects.count() == 1
