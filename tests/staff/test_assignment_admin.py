"""Assigning people to tables in the admin follows the same rules as everywhere else."""

import pytest
from django.urls import reverse

from staff import selectors
from staff.models import TableAssignment
from staff.roles import Role, TableRole

ADD_URL = reverse("admin:staff_tableassignment_add")


@pytest.fixture
def admin_client_en(client_en, django_user_model):
    root = django_user_model.objects.create_superuser("root", "r@example.invalid", "pw-12345")
    client_en.force_login(root)
    client_en.root = root
    return client_en


def _add(client, table, user, role, replace=False):
    data = {"table": table.pk, "user": user.pk, "role": role}
    if replace:
        data["replace"] = "on"
    return client.post(ADD_URL, data, follow=True)


def test_admin_assignment_starts_now_and_records_who_assigned(admin_client_en, make_user, table):
    dealer = make_user("dealer", [Role.DEALING_CROUPIER])

    response = _add(admin_client_en, table, dealer, TableRole.DEALING_CROUPIER)

    assert response.status_code == 200
    assignment = TableAssignment.objects.get()
    assert assignment.user == dealer and assignment.is_current
    assert assignment.assigned_by == admin_client_en.root


def test_admin_refuses_a_second_dealer_with_the_service_message(admin_client_en, make_user, table):
    first = make_user("first", [Role.DEALING_CROUPIER], full_name="Anna First")
    second = make_user("second", [Role.DEALING_CROUPIER])
    _add(admin_client_en, table, first, TableRole.DEALING_CROUPIER)

    response = _add(admin_client_en, table, second, TableRole.DEALING_CROUPIER)

    assert "Anna First already holds this role at this table." in response.content.decode()
    assert selectors.table_staff(table=table)[TableRole.DEALING_CROUPIER] == first


def test_admin_replace_ends_the_old_assignment(admin_client_en, make_user, table):
    first = make_user("first", [Role.DEALING_CROUPIER])
    second = make_user("second", [Role.DEALING_CROUPIER])
    _add(admin_client_en, table, first, TableRole.DEALING_CROUPIER)

    _add(admin_client_en, table, second, TableRole.DEALING_CROUPIER, replace=True)

    assert selectors.table_staff(table=table)[TableRole.DEALING_CROUPIER] == second
    assert TableAssignment.objects.count() == 2
