"""Who asks never decides: a person who is both the table's inspector and a duty
administrator cannot approve or reject the replacement request he made himself."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from staff import replacements, services
from staff.models import ReplacementRequest
from staff.roles import Role, TableRole
from staff.selectors import table_staff

pytestmark = pytest.mark.django_db


@pytest.fixture
def both(make_user, crew, table):
    """Inspector and duty administrator at once, the inspector of ``table`` now."""
    person = make_user("both", [Role.INSPECTOR, Role.DUTY_ADMINISTRATOR])
    services.assignment_start(table=table, user=person, role=TableRole.INSPECTOR, replace=True)
    return person


@pytest.fixture
def spare(make_user):
    return make_user("spare", [Role.DEALING_CROUPIER])


@pytest.fixture
def own_request(both, table):
    return replacements.replacement_request(
        table=table, role=TableRole.DEALING_CROUPIER, reason="Slow", requested_by=both
    )


def test_he_cannot_approve_his_own_request(both, own_request, spare, crew, table):
    with pytest.raises(ValidationError) as refusal:
        replacements.replacement_approve(
            request_id=own_request.pk, decided_by=both, replacement=spare
        )

    assert refusal.value.code == "own_request"
    own_request.refresh_from_db()
    assert own_request.status == ReplacementRequest.Status.REQUESTED
    assert own_request.decided_by is None
    assert table_staff(table=table)[TableRole.DEALING_CROUPIER] == crew["dealer"]


def test_he_cannot_reject_his_own_request(both, own_request):
    with pytest.raises(ValidationError) as refusal:
        replacements.replacement_reject(request_id=own_request.pk, decided_by=both, note="No")

    assert refusal.value.code == "own_request"
    own_request.refresh_from_db()
    assert own_request.status == ReplacementRequest.Status.REQUESTED


def test_the_screen_refuses_it_with_a_clear_message(client_en, both, own_request, spare):
    client_en.force_login(both)

    response = client_en.post(
        reverse("staff:replacement_decide"),
        {"request": own_request.pk, "decision": "approve", "replacement": spare.pk},
    )

    assert response.status_code == 409
    assert "Who asks never decides" in response.content.decode()
    own_request.refresh_from_db()
    assert own_request.status == ReplacementRequest.Status.REQUESTED


def test_another_duty_administrator_decides_it(both, own_request, spare, crew, table):
    decided = replacements.replacement_approve(
        request_id=own_request.pk, decided_by=crew["duty"], replacement=spare
    )

    assert decided.status == ReplacementRequest.Status.DONE
    assert table_staff(table=table)[TableRole.DEALING_CROUPIER] == spare
