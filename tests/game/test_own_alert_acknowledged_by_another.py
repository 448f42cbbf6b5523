"""A critical alert raised by a person's own action is acknowledged by someone else (issue
11, row 9): the inspector who voided a round cannot acknowledge its alert himself; the duty
administrator does."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils import translation

from floor.alerts import alert_raise
from floor.models import Alert
from staff import services as staff_services
from staff.roles import Role
from tables.services import alert_acknowledge
from tests.cashdesk.conftest import signed_by


@pytest.fixture
def voided(dealer_desk, inspector_desk, table):
    dealer_desk.start_round({1: 100})
    dealer_desk.ok("close-bets")
    inspector_desk.ok("void", reason="Misdeal")
    alert = Alert.objects.get(table=table, kind="round_voided")
    assert alert.raised_by == inspector_desk.user
    assert alert.severity == Alert.Severity.CRITICAL
    return alert


def test_the_inspector_who_voided_a_round_cannot_acknowledge_its_alert(voided, crew):
    with pytest.raises(ValidationError) as refused, translation.override("en"):
        alert_acknowledge(alert_id=voided.pk, by=crew["inspector"], note="All fine")
    assert refused.value.code == "own_alert"
    assert "the duty administrator" in str(refused.value)
    assert Alert.objects.get(pk=voided.pk).open


def test_holding_the_duty_role_too_does_not_help(voided, crew):
    staff_services.user_grant_roles(user=crew["inspector"], roles=[Role.DUTY_ADMINISTRATOR])
    with pytest.raises(ValidationError) as refused:
        alert_acknowledge(alert_id=voided.pk, by=crew["inspector"], note="As duty")
    assert refused.value.code == "own_alert"
    assert Alert.objects.get(pk=voided.pk).open


def test_the_duty_administrator_acknowledges_it(voided, crew):
    alert_acknowledge(alert_id=voided.pk, by=crew["duty"], note="Checked the misdeal on camera")
    alert = Alert.objects.get(pk=voided.pk)
    assert not alert.open and alert.acknowledged_by == crew["duty"]


def test_the_duty_administrator_still_leaves_ordinary_alerts_to_the_inspector(crew, table):
    alert = alert_raise(
        table_id=table.pk, kind="flag", params={"note": "x"}, raised_by=crew["observer"]
    )
    with pytest.raises(PermissionDenied):
        alert_acknowledge(alert_id=alert.pk, by=crew["duty"], note="duty")
    alert_acknowledge(alert_id=alert.pk, by=crew["inspector"], note="Checked")


def test_a_critical_alert_raised_by_someone_else_the_inspector_acknowledges(crew, table):
    alert = alert_raise(
        table_id=table.pk,
        kind="float_difference",
        params={"opener": "100", "closer": "90", "difference": "10"},
        severity=Alert.Severity.CRITICAL,
        raised_by=crew["pitboss"],
    )
    # A float that differs is a money alert: the duty administrator signs as the second.
    alert_acknowledge(
        alert_id=alert.pk, by=crew["inspector"], note="Recounted", **signed_by(crew["duty"])
    )
    alert = Alert.objects.get(pk=alert.pk)
    assert not alert.open and alert.acknowledgement_second_by == crew["duty"]


def test_the_refusal_is_shown_on_the_dashboard_in_both_languages(client, voided, crew):
    client.force_login(crew["inspector"])
    url = reverse("tables:alert_acknowledge")
    for language, words in (("en", "duty administrator"), ("ru", "дежурный администратор")):
        response = client.post(
            url,
            {"alert": voided.pk, "note": "Mine"},
            HTTP_HX_REQUEST="true",
            HTTP_ACCEPT_LANGUAGE=language,
        )
        page = response.content.decode()
        assert 'data-outcome="refused"' in page and words in page, page
    assert Alert.objects.get(pk=voided.pk).open


def test_the_history_page_offers_it_to_the_duty_administrator_not_to_its_raiser(
    client, voided, crew
):
    client.force_login(crew["inspector"])
    page = client.get(reverse("tables:alerts"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-testid="ack-own"' in page and 'data-testid="ack-form"' not in page
    refused = client.post(
        reverse("tables:alert_acknowledge"),
        {"alert": voided.pk, "note": "Mine"},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert refused.status_code == 400
    assert "duty administrator" in refused.content.decode()
    client.force_login(crew["duty"])
    page = client.get(reverse("tables:alerts"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-testid="ack-form"' in page
    done = client.post(
        reverse("tables:alert_acknowledge"), {"alert": voided.pk, "note": "Seen on camera"}
    )
    assert done.status_code == 302
    assert Alert.objects.get(pk=voided.pk).acknowledged_by == crew["duty"]
