"""Fill and credit slips: numbered per gaming day, three signatures by three people, never
edited, voided with a reason and two signatures."""

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from cashdesk import slips
from cashdesk.models import Slip


def _request(table, crew, kind="fill", counts=None):
    return slips.slip_request(
        table=table,
        actor=crew["inspector"],
        kind=kind,
        counts_by_denomination=counts or {"1000": 10, "500": 4},
    )


def test_slips_are_numbered_sequentially_per_kind_and_gaming_day(cash_table, crew):
    fills = [_request(cash_table, crew) for _ in range(3)]
    credit = _request(cash_table, crew, kind="credit")
    assert [s.number for s in fills] == [1, 2, 3]
    assert credit.number == 1
    assert fills[0].total == Decimal("12000")
    assert fills[1].label.startswith("F-") and fills[1].label.endswith("-0002")


def test_three_signatures_by_three_people(cash_table, crew):
    slip = _request(cash_table, crew)
    slip = slips.slip_issue(slip=slip, actor=crew["duty"])
    slip = slips.slip_receive(slip=slip, actor=crew["dealer"])
    assert slip.complete
    assert (slip.requested_by, slip.issued_by, slip.received_by) == (
        crew["inspector"],
        crew["duty"],
        crew["dealer"],
    )


def test_a_step_cannot_be_signed_twice(cash_table, crew, make_user):
    from staff.roles import Role

    slip = _request(cash_table, crew)
    slips.slip_issue(slip=slip, actor=crew["duty"])
    other_duty = make_user("duty2", [Role.DUTY_ADMINISTRATOR])
    with pytest.raises(ValidationError):
        slips.slip_issue(slip=slip, actor=other_duty)
    slip.refresh_from_db()
    assert slip.issued_by == crew["duty"]


def test_one_person_cannot_sign_a_slip_twice(cash_table, crew, client):
    """The inspector who requested is also a duty administrator: he may not issue it."""
    from staff import services as staff_services
    from staff.roles import Role

    inspector = crew["inspector"]
    staff_services.user_grant_roles(user=inspector, roles=[Role.INSPECTOR, Role.DUTY_ADMINISTRATOR])
    inspector = type(inspector).objects.get(pk=inspector.pk)
    slip = _request(cash_table, crew)
    client.force_login(inspector)
    response = client.post(reverse("cashdesk:slip_issue"), {"slip": slip.pk})
    assert response.status_code == 400
    slip.refresh_from_db()
    assert slip.issued_at is None


def test_received_only_after_issued(cash_table, crew):
    slip = _request(cash_table, crew)
    with pytest.raises(ValidationError):
        slips.slip_receive(slip=slip, actor=crew["dealer"])


def test_denomination_outside_the_chip_set_is_refused(cash_table, crew):
    with pytest.raises(ValidationError):
        _request(cash_table, crew, counts={"25": 40})
    assert not Slip.objects.exists()


def test_void_needs_a_reason_and_two_different_people(cash_table, crew):
    slip = _request(cash_table, crew)
    with pytest.raises(ValidationError):
        slips.slip_void(slip=slip, actor=crew["inspector"], reason="  ")
    slip = slips.slip_void(slip=slip, actor=crew["inspector"], reason="wrong table")
    assert slip.status == Slip.Status.VOID_PENDING and not slip.voided
    with pytest.raises(ValidationError):
        slips.slip_void(slip=slip, actor=crew["inspector"])
    slip = slips.slip_void(slip=slip, actor=crew["duty"])
    assert slip.voided and slip.status == Slip.Status.VOIDED
    assert (slip.voided_by, slip.void_confirmed_by) == (crew["inspector"], crew["duty"])
    assert slip.counts == {"1000": 10, "500": 4} and slip.number == 1
    with pytest.raises(ValidationError):
        slips.slip_void(slip=slip, actor=crew["duty"])


def test_a_croupier_cannot_void(cash_table, crew):
    slip = _request(cash_table, crew)
    with pytest.raises(ValidationError):
        slips.slip_void(slip=slip, actor=crew["dealer"], reason="x")


def test_signed_records_cannot_be_edited_in_the_admin(client, cash_table, crew, make_user):
    slip = _request(cash_table, crew)
    admin = make_user("root", is_staff=True, is_superuser=True)
    client.force_login(admin)
    url = reverse("admin:cashdesk_slip_change", args=[slip.pk])
    client.post(url, {"total": "1", "counts": "{}"})
    slip.refresh_from_db()
    assert slip.total == Decimal("12000")
    assert client.get(reverse("admin:cashdesk_slip_add")).status_code == 403
