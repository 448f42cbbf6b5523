"""Every act of the house (staff/permissions.py) for every role, at the table the person
works and at another one: one matrix, written here by hand, against the declared rules —
a new act fails here until its row is written."""

import pytest

from staff import permissions
from staff import services as staff_services
from staff.permissions import at, may

ROLES = ("dealer", "observer", "inspector", "duty", "pitboss")
ALL = frozenset(ROLES)
# act -> the roles that may do it at their own table (a floor act: anywhere). At another
# table a table act is left to the duty administrator and the pit boss, who see every table.
MATRIX = {
    "game.follow_table": ALL,
    "game.watch_table": {"observer", "inspector", "duty", "pitboss"},
    "game.deal": {"dealer"},
    "game.void": {"inspector"},
    "game.flag": {"observer"},
    "game.flag_seen": {"dealer", "inspector"},
    "game.reserve": {"observer"},
    "game.renew_reservation": {"inspector"},
    "game.seat_player": {"dealer", "observer"},
    "cashdesk.table_cash": ALL,
    "cashdesk.cash_in": {"dealer"},
    "cashdesk.tip": {"dealer"},
    "cashdesk.recount": {"observer"},
    "cashdesk.cash_in_confirm": {"inspector"},
    "cashdesk.cash_in_chips": {"dealer"},
    "cashdesk.cash_in_correct": {"inspector", "duty"},
    "cashdesk.chip_count_correct": {"inspector", "duty", "pitboss"},
    "cashdesk.slip_request": {"inspector"},
    "cashdesk.slip_receive": {"dealer", "observer"},
    "cashdesk.slip_void": {"inspector", "duty"},
    "staff.replacement_request": {"inspector"},
    "game.dealer_home": {"dealer"},
    "game.observer_home": {"observer"},
    "game.inspector_home": {"inspector"},
    "game.pit_overview": {"pitboss", "duty"},
    "game.replay": {"inspector", "duty"},
    "game.players": {"inspector", "duty"},
    "game.dealer_figures": {"duty", "pitboss"},
    "game.table_configure": {"pitboss"},
    "tables.pit": {"pitboss"},
    "tables.staff_tables": {"pitboss", "duty"},
    "tables.alerts": {"inspector", "duty"},
    "cashdesk.duty_desk": {"duty"},
    "cashdesk.reports": {"duty", "pitboss"},
    "staff.lockouts": {"duty"},
    "staff.replacements": {"duty", "inspector"},
    "staff.replacement_decide": {"duty"},
}
EVERYWHERE = {"duty", "pitboss"}


def test_the_matrix_names_every_act_and_only_those():
    assert set(MATRIX) == set(permissions.ACTS)


@pytest.fixture
def places(crew, table, make_table):
    """Each person's standing at their own table and at another one, read as a screen
    reads it (one query each)."""
    other = make_table(2)
    return {
        person: {"own": at(crew[person], table), "other": at(crew[person], other)}
        for person in ROLES
    }


@pytest.mark.parametrize("act", sorted(MATRIX))
def test_every_role_at_its_own_table_and_at_another(act, crew, places):
    table_act = act in permissions.TABLE_ACTS
    seen, expected = {}, {}
    for person in ROLES:
        for where in ("own", "other"):
            seen[person, where] = may(act, crew[person], places[person][where])
            allowed = person in MATRIX[act]
            if table_act and where == "other":
                allowed = allowed and person in EVERYWHERE
            expected[person, where] = allowed
    assert seen == expected


@pytest.mark.parametrize("act", sorted(MATRIX))
def test_nobody_signed_out_or_without_a_role_may_act(act, make_user, table, django_user_model):
    from django.contrib.auth.models import AnonymousUser

    nobody = make_user("nobody")
    for person in (AnonymousUser(), nobody):
        assert not may(act, person, at(person, table))


def test_a_croupier_whose_assignment_ended_may_no_longer_act(crew, table):
    staff_services.assignment_end(assignment=crew["dealer"].assignments.get(ends_at__isnull=True))
    assert not may("game.deal", crew["dealer"], at(crew["dealer"], table))
