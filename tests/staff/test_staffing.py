"""The pit boss and the duty administrator staff the tables without /admin/: assign,
replace, release, plan the rotation and relieve — croupiers only between rounds."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from floor.models import TableFeed
from staff import selectors, services
from staff.models import TableAssignment
from staff.roles import Role, TableRole


@pytest.fixture
def spare(make_user):
    return make_user("spare", [Role.DEALING_CROUPIER], full_name="Spare Dealer")


def _current(table, role):
    return TableAssignment.objects.get(table=table, role=role, ends_at__isnull=True)


@pytest.mark.parametrize("who", ["pitboss", "duty"])
def test_the_pit_boss_or_duty_replaces_a_dealer_between_rounds(crew, table, spare, who):
    services.staff_assign(
        table=table, role=TableRole.DEALING_CROUPIER, user=spare, assigned_by=crew[who]
    )
    current = _current(table, TableRole.DEALING_CROUPIER)
    assert current.user == spare and current.assigned_by == crew[who]
    ended = TableAssignment.objects.get(table=table, user=crew["dealer"])
    assert ended.ends_at == current.starts_at


@pytest.mark.parametrize("who", ["dealer", "inspector", "observer"])
def test_no_one_else_assigns(crew, table, spare, who):
    with pytest.raises(ValidationError) as refusal:
        services.staff_assign(
            table=table, role=TableRole.DEALING_CROUPIER, user=spare, assigned_by=crew[who]
        )
    assert refusal.value.code == "not_staffing"
    assert _current(table, TableRole.DEALING_CROUPIER).user == crew["dealer"]


def test_a_croupier_is_not_changed_during_a_round(crew, table, spare):
    TableFeed.objects.update_or_create(
        pk=table.pk, defaults={"round_open": True, "round_number": 7}
    )
    with pytest.raises(ValidationError) as refusal:
        services.staff_assign(
            table=table, role=TableRole.DEALING_CROUPIER, user=spare, assigned_by=crew["pitboss"]
        )
    assert refusal.value.code == "round_open"
    with pytest.raises(ValidationError):
        services.staff_release(
            assignment=_current(table, TableRole.DEALING_CROUPIER), released_by=crew["pitboss"]
        )
    assert _current(table, TableRole.DEALING_CROUPIER).user == crew["dealer"]
    # the inspector may change at any time
    other = crew["inspector"].__class__.objects.create_user(username="insp2", password="x")
    services.user_grant_roles(user=other, roles=[Role.INSPECTOR])
    services.staff_assign(
        table=table, role=TableRole.INSPECTOR, user=other, assigned_by=crew["pitboss"]
    )
    assert _current(table, TableRole.INSPECTOR).user == other


def test_the_rotation_plan_names_the_relief_and_the_relief_takes_over(crew, table, spare):
    services.rotation_plan_set(table=table, break_every_minutes=40, planned_by=crew["pitboss"])
    dealer = _current(table, TableRole.DEALING_CROUPIER)
    services.relief_plan(assignment=dealer, relief=spare, planned_by=crew["pitboss"])

    board = selectors.staff_board(tables=[table])[0]
    row = next(r for r in board["rows"] if r["role"] == TableRole.DEALING_CROUPIER)
    assert board["every"] == 40
    assert row["assignment"].relief == spare
    assert (row["break_due"] - dealer.starts_at).total_seconds() == 40 * 60

    services.staff_relieve(assignment=dealer, relieved_by=crew["pitboss"])
    assert _current(table, TableRole.DEALING_CROUPIER).user == spare
    # the dealer on a break is free again: he may relieve someone else
    assert crew["dealer"] in selectors.free_people(role=TableRole.DEALING_CROUPIER)


@pytest.mark.parametrize("minutes", [5, 500])
def test_a_break_every_few_or_too_many_minutes_is_refused(crew, table, minutes):
    with pytest.raises(ValidationError):
        services.rotation_plan_set(
            table=table, break_every_minutes=minutes, planned_by=crew["duty"]
        )


def test_a_relief_must_hold_the_role_and_be_another_person(crew, table):
    dealer = _current(table, TableRole.DEALING_CROUPIER)
    with pytest.raises(ValidationError) as refusal:
        services.relief_plan(assignment=dealer, relief=crew["observer"], planned_by=crew["duty"])
    assert refusal.value.code == "wrong_role"
    with pytest.raises(ValidationError) as refusal:
        services.relief_plan(assignment=dealer, relief=crew["dealer"], planned_by=crew["duty"])
    assert refusal.value.code == "same_person"


def test_the_staff_screen_assigns_and_shows_who_works_where(client, crew, table, spare):
    client.force_login(crew["pitboss"])
    url = reverse("tables:staff_board")
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200
    assert (
        "Dealer" in page.content.decode() and crew["dealer"].display_name in page.content.decode()
    )

    response = client.post(
        url,
        {"op": "assign", "table": table.pk, "role": TableRole.DEALING_CROUPIER, "person": spare.pk},
    )
    assert response.status_code == 302
    assert _current(table, TableRole.DEALING_CROUPIER).user == spare
    page = client.get(url)
    assert "Spare Dealer" in page.content.decode()


def test_the_staff_screen_refuses_nonsense_with_a_message_and_changes_nothing(client, crew, table):
    client.force_login(crew["duty"])
    url = reverse("tables:staff_board")
    for data in (
        {"op": "assign", "table": table.pk, "role": "croupier", "person": crew["dealer"].pk},
        {"op": "assign", "table": "x", "role": TableRole.INSPECTOR, "person": 1},
        {"op": "plan", "table": table.pk, "minutes": "often"},
        {"op": "relieve", "assignment": "99999"},
        {"op": "dance"},
    ):
        response = client.post(url, data, follow=True)
        assert response.status_code == 200
        assert list(response.context["messages"])[0].level_tag == "error", data
    assert _current(table, TableRole.DEALING_CROUPIER).user == crew["dealer"]
