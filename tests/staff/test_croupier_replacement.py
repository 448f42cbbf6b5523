"""The inspector requests a croupier replacement; the duty administrator decides it live;
the tablet hands over at the next round boundary; every request is kept."""

from contextlib import contextmanager

import pytest
from channels.db import database_sync_to_async
from django.core.exceptions import ValidationError
from django.urls import reverse

from staff import replacements, services
from staff.models import ReplacementRequest
from staff.roles import Role, TableRole
from staff.selectors import table_staff
from tests.conftest import ws_communicator
from tests.game.conftest import Desk

pytestmark = pytest.mark.django_db


@contextmanager
def refused(code: str):
    """The service refuses with ``code`` (the message itself is translated)."""
    with pytest.raises(ValidationError) as caught:
        yield
    assert caught.value.code == code, caught.value


@pytest.fixture
def spare(make_user):
    """A dealing croupier working no table: the replacement."""
    return make_user("spare", [Role.DEALING_CROUPIER])


def _request(crew, table, reason="Slow and makes payout errors"):
    return replacements.replacement_request(
        table=table,
        role=TableRole.DEALING_CROUPIER,
        reason=reason,
        requested_by=crew["inspector"],
    )


def test_approved_with_no_round_open_hands_over_at_once(crew, table, spare, dealer_desk):
    request = _request(crew, table)
    assert request.status == "requested"
    assert request.current_person == crew["dealer"]
    decided = replacements.replacement_approve(
        request_id=request.pk, decided_by=crew["duty"], replacement=spare, note="Take a break"
    )
    assert decided.status == "done"
    assert decided.handed_over_at is not None
    assert table_staff(table=table)[TableRole.DEALING_CROUPIER] == spare
    refused = dealer_desk.send("shuffle", reason="new_shoe", cards_behind_cut=80)
    assert not refused.ok and refused.code == "not_your_action"


def test_approved_during_a_round_hands_over_when_the_round_closes(crew, table, spare, dealer_desk):
    dealer_desk.start_round({1: 100})
    dealer_desk.ok("close-bets")
    dealer_desk.cards("Th", "6d", "9c")
    request = _request(crew, table)
    decided = replacements.replacement_approve(
        request_id=request.pk, decided_by=crew["duty"], replacement=spare
    )
    assert decided.status == "approved"
    # The round goes on with the croupier who started it.
    dealer_desk.ok("stand")
    dealer_desk.cards("Ks", "Qd")
    assert table_staff(table=table)[TableRole.DEALING_CROUPIER] == crew["dealer"]
    dealer_desk.ok("confirm-settlement")  # the round boundary
    request.refresh_from_db()
    assert request.status == "done" and request.handed_over_at is not None
    assert table_staff(table=table)[TableRole.DEALING_CROUPIER] == spare
    refused = dealer_desk.send("open-round")
    assert not refused.ok and refused.code == "not_your_action"
    Desk(table, spare).ok("open-round")


def test_a_voided_round_is_a_boundary_too(crew, table, spare, dealer_desk, inspector_desk):
    dealer_desk.start_round({1: 100})
    request = _request(crew, table)
    replacements.replacement_approve(
        request_id=request.pk, decided_by=crew["duty"], replacement=spare
    )
    inspector_desk.ok("void", reason="Misdeal")
    request.refresh_from_db()
    assert request.status == "done"
    assert table_staff(table=table)[TableRole.DEALING_CROUPIER] == spare


def test_rejected_with_a_note_changes_nothing_at_the_table(crew, table):
    request = _request(crew, table)
    with pytest.raises(ValidationError):
        replacements.replacement_reject(request_id=request.pk, decided_by=crew["duty"], note=" ")
    replacements.replacement_reject(
        request_id=request.pk, decided_by=crew["duty"], note="No one free this hour"
    )
    request.refresh_from_db()
    assert request.status == "rejected" and request.decision_note == "No one free this hour"
    assert table_staff(table=table)[TableRole.DEALING_CROUPIER] == crew["dealer"]


def test_deciding_twice_is_refused_and_changes_nothing(crew, table, spare, make_user):
    request = _request(crew, table)
    replacements.replacement_reject(request_id=request.pk, decided_by=crew["duty"], note="Not now")
    other_duty = make_user("duty2", [Role.DUTY_ADMINISTRATOR])
    with refused("already_decided"):
        replacements.replacement_approve(
            request_id=request.pk, decided_by=other_duty, replacement=spare
        )
    with refused("already_decided"):
        replacements.replacement_reject(request_id=request.pk, decided_by=other_duty, note="x")
    request.refresh_from_db()
    assert request.status == "rejected" and request.decided_by == crew["duty"]
    assert request.decision_note == "Not now" and request.replacement is None
    assert table_staff(table=table)[TableRole.DEALING_CROUPIER] == crew["dealer"]


def test_approving_twice_through_the_screen_is_a_clear_refusal(client_en, crew, table, spare):
    request = _request(crew, table)
    client_en.force_login(crew["duty"])
    url = reverse("staff:replacement_decide")
    form = {"request": request.pk, "decision": "approve", "replacement": spare.pk}
    assert client_en.post(url, form).status_code == 302
    again = client_en.post(url, {**form, "decision": "reject", "note": "changed my mind"})
    assert again.status_code == 409
    assert "already decided" in again.content.decode()
    request.refresh_from_db()
    assert request.status == "done" and request.decision_note == ""


def test_the_replacement_must_hold_the_role_and_be_free(crew, table, make_user, make_table):
    request = _request(crew, table)
    observer_only = make_user("observer2", [Role.OBSERVING_CROUPIER])
    with refused("role_missing"):
        replacements.replacement_approve(
            request_id=request.pk, decided_by=crew["duty"], replacement=observer_only
        )
    busy = make_user("busy", [Role.DEALING_CROUPIER])
    services.assignment_start(table=make_table(2), user=busy, role=TableRole.DEALING_CROUPIER)
    with refused("busy"):
        replacements.replacement_approve(
            request_id=request.pk, decided_by=crew["duty"], replacement=busy
        )
    request.refresh_from_db()
    assert request.status == "requested"


def test_only_the_tables_inspector_requests_and_only_the_duty_administrator_decides(
    client_en, crew, table, spare, make_user, make_table
):
    with pytest.raises(ValidationError):
        replacements.replacement_request(
            table=table, role="dealing_croupier", reason="x", requested_by=crew["dealer"]
        )
    other_inspector = make_user("inspector2", [Role.INSPECTOR])
    services.assignment_start(table=make_table(2), user=other_inspector, role=TableRole.INSPECTOR)
    with pytest.raises(ValidationError):
        replacements.replacement_request(
            table=table, role="dealing_croupier", reason="x", requested_by=other_inspector
        )
    client_en.force_login(other_inspector)
    url = reverse("staff:replacement_request", args=[table.pk])
    assert client_en.post(url, {"role": "dealing_croupier", "reason": "x"}).status_code == 403
    assert not ReplacementRequest.objects.exists()

    request = _request(crew, table)
    with pytest.raises(ValidationError):
        replacements.replacement_approve(
            request_id=request.pk, decided_by=crew["inspector"], replacement=spare
        )
    client_en.force_login(crew["inspector"])
    decide = reverse("staff:replacement_decide")
    form = {"request": request.pk, "decision": "approve", "replacement": spare.pk}
    assert client_en.post(decide, form).status_code == 403
    request.refresh_from_db()
    assert request.status == "requested"


def test_bad_requests_are_refused(client_en, crew, table):
    client_en.force_login(crew["inspector"])
    url = reverse("staff:replacement_request", args=[table.pk])
    empty = client_en.post(url, {"role": "dealing_croupier", "reason": "  "})
    assert empty.status_code == 400
    assert client_en.post(url, {"role": "inspector", "reason": "x"}).status_code == 400
    assert client_en.post(url, {"role": "dealing_croupier", "reason": "Tired"}).status_code == 302
    twice = client_en.post(url, {"role": "dealing_croupier", "reason": "Tired"})
    assert twice.status_code == 400 and "already open" in twice.content.decode()
    assert ReplacementRequest.objects.count() == 1


def test_history_is_kept_for_the_duty_administrator_and_the_inspector(
    client_en, crew, table, spare
):
    first = _request(crew, table, reason="Reason one")
    replacements.replacement_reject(request_id=first.pk, decided_by=crew["duty"], note="No")
    second = _request(crew, table, reason="Reason two")
    replacements.replacement_approve(
        request_id=second.pk, decided_by=crew["duty"], replacement=spare
    )
    for person in ("duty", "inspector"):
        client_en.force_login(crew[person])
        page = client_en.get(reverse("staff:replacements")).content.decode()
        assert "Reason one" in page and "Reason two" in page
    client_en.force_login(crew["inspector"])
    page = client_en.get(reverse("game:observer", args=[table.pk])).content.decode()
    assert reverse("staff:replacement_request", args=[table.pk]) in page


@pytest.mark.django_db(transaction=True)
async def test_the_duty_administrator_sees_the_request_live(crew, table, spare):
    communicator = await database_sync_to_async(ws_communicator)("/ws/duty/", crew["duty"])
    connected, _ = await communicator.connect()
    try:
        assert connected
        first = await communicator.receive_from(timeout=3)
        assert 'data-testid="live-totals"' in first
        await database_sync_to_async(_request)(crew, table, "Hands shaking")
        pushed = await communicator.receive_from(timeout=3)
        assert 'id="duty-replacements"' in pushed  # inside the duty home's live part
        assert "Hands shaking" in pushed
        assert "approve-" in pushed
    finally:
        await communicator.disconnect()
