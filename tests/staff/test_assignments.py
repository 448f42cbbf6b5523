"""Table assignments: one person per table role at a time, history kept, a croupier on one
table at a time, an inspector over several."""

import pytest
from django.core.exceptions import ValidationError

from staff import selectors
from staff import services as staff_services
from staff.models import TableAssignment
from staff.roles import Role, TableRole
from tables import selectors as tables_selectors

ONE_PER_TABLE = [TableRole.DEALING_CROUPIER, TableRole.OBSERVING_CROUPIER, TableRole.INSPECTOR]


pytestmark = pytest.mark.usefixtures("english")  # tests/conftest.py


@pytest.mark.parametrize("role", ONE_PER_TABLE)
def test_second_person_in_a_taken_table_role_is_refused_with_a_message(make_user, table, role):
    first = make_user("first", [role], full_name="Anna First")
    second = make_user("second", [role])
    staff_services.assignment_start(table=table, user=first, role=role)

    with pytest.raises(ValidationError) as refused:
        staff_services.assignment_start(table=table, user=second, role=role)

    assert "Anna First already holds this role at this table." in refused.value.messages
    assert selectors.table_staff(table=table)[role] == first


@pytest.mark.parametrize("role", ONE_PER_TABLE)
def test_replace_ends_the_old_assignment_and_keeps_it_in_history(make_user, table, role):
    first = make_user("first", [role])
    second = make_user("second", [role])
    old = staff_services.assignment_start(table=table, user=first, role=role)

    new = staff_services.assignment_start(table=table, user=second, role=role, replace=True)

    old.refresh_from_db()
    assert old.ends_at is not None and old.ends_at <= new.starts_at
    assert selectors.table_staff(table=table)[role] == second
    history = TableAssignment.objects.filter(table=table, role=role).order_by("starts_at")
    assert [a.user for a in history] == [first, second]


def test_assigning_the_current_holder_again_changes_nothing(make_user, table):
    dealer = make_user("dealer", [Role.DEALING_CROUPIER])
    first = staff_services.assignment_start(
        table=table, user=dealer, role=TableRole.DEALING_CROUPIER
    )

    again = staff_services.assignment_start(
        table=table, user=dealer, role=TableRole.DEALING_CROUPIER
    )

    assert again == first
    assert TableAssignment.objects.count() == 1


def test_the_three_table_roles_are_held_by_three_people_at_once(crew, table):
    assert set(selectors.table_staff(table=table)) == set(ONE_PER_TABLE)


def test_an_inspector_may_oversee_several_tables(make_user, make_table):
    inspector = make_user("inspector", [Role.INSPECTOR])
    tables = [make_table(n) for n in (1, 2, 3)]

    for table in tables:
        staff_services.assignment_start(table=table, user=inspector, role=TableRole.INSPECTOR)

    assert list(tables_selectors.inspector_tables(user=inspector)) == tables


@pytest.mark.parametrize(
    ("first_role", "second_role"),
    [
        (TableRole.DEALING_CROUPIER, TableRole.DEALING_CROUPIER),
        (TableRole.DEALING_CROUPIER, TableRole.OBSERVING_CROUPIER),
        (TableRole.OBSERVING_CROUPIER, TableRole.DEALING_CROUPIER),
    ],
)
def test_a_croupier_cannot_work_two_tables_at_once(make_user, make_table, first_role, second_role):
    croupier = make_user(
        "croupier", [Role.DEALING_CROUPIER, Role.OBSERVING_CROUPIER], full_name="Boris Busy"
    )
    one, two = make_table(1), make_table(2)
    staff_services.assignment_start(table=one, user=croupier, role=first_role)

    with pytest.raises(ValidationError) as refused:
        staff_services.assignment_start(table=two, user=croupier, role=second_role)

    assert "Boris Busy is already working at another table or role." in refused.value.messages
    assert not TableAssignment.objects.filter(table=two).exists()


def test_a_croupier_freed_from_one_table_may_go_to_another(make_user, make_table):
    croupier = make_user("croupier", [Role.DEALING_CROUPIER])
    one, two = make_table(1), make_table(2)
    first = staff_services.assignment_start(
        table=one, user=croupier, role=TableRole.DEALING_CROUPIER
    )
    staff_services.assignment_end(assignment=first)

    staff_services.assignment_start(table=two, user=croupier, role=TableRole.DEALING_CROUPIER)

    assert selectors.current_table_for(user=croupier, role=TableRole.DEALING_CROUPIER) == two


@pytest.mark.parametrize("role", ONE_PER_TABLE)
def test_a_person_without_the_role_cannot_be_assigned(make_user, table, role):
    outsider = make_user("outsider", [Role.PIT_BOSS], full_name="Olga Outsider")

    with pytest.raises(ValidationError) as refused:
        staff_services.assignment_start(table=table, user=outsider, role=role)

    assert f"Olga Outsider does not hold the role {TableRole(role).label}." in (
        refused.value.messages
    )
    assert not TableAssignment.objects.exists()


def test_a_non_table_role_cannot_be_assigned_to_a_table(make_user, table):
    boss = make_user("boss", [Role.PIT_BOSS])

    with pytest.raises(ValidationError):
        staff_services.assignment_start(table=table, user=boss, role=Role.PIT_BOSS)
