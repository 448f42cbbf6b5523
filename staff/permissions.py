"""Who may do what: every act of the house, declared once (django-rules).

One predicate per act, registered under the act's name (``"game.void"``,
``"cashdesk.recount"``); views (``staff.access.permission_required``,
``tables.access.table_required``), consumers (``admit``), services and templates ask
:func:`may` — none compares a role itself. A control a role may not use is not rendered
for it (the table's fragment is rendered per kind of screen, ``game.screens.publish``).

Two kinds of act:

- **a table act** is judged from the person's role at one table (:class:`At`): the dealing
  or observing croupier and the inspector only at a table they are assigned to now, the
  duty administrator and the pit boss at every table (``staff.selectors.table_role_for``).
  The role is read once — by :func:`at`, or by the live table's lock in the same statement
  as the lock itself (``game.services``) — and handed to the predicate, so asking costs no
  query;
- **a floor act** is judged from the roles the person holds (``User.has_role``).

Finer rules about *which* person (two signatures by two people, one seat per person per
table, who acknowledges an alert) stay with their services and ``staff.seats``: these say
which role may try.

``tests/staff/test_permission_matrix.py`` asks every act for every role at its own table
and at another one.
"""

from __future__ import annotations

from dataclasses import dataclass

import rules

from staff.roles import Role, TableRole
from staff.selectors import table_role_for

DEALER = TableRole.DEALING_CROUPIER
OBSERVER = TableRole.OBSERVING_CROUPIER
INSPECTOR = TableRole.INSPECTOR
DUTY = Role.DUTY_ADMINISTRATOR
PIT_BOSS = Role.PIT_BOSS


@dataclass(frozen=True)
class At:
    """A person's role at one table as read once (``role`` None: none there)."""

    table_id: int | None
    role: str | None


def at(user, table) -> At:
    """``user``'s role at ``table``, read now (``table_role_for``: one query)."""
    table_id = getattr(table, "pk", table)
    return At(table_id, table_role_for(user=user, table=table_id))


def _at_table(*roles: str):
    """A table act: the role read at the table is one of ``roles``."""

    def held(_user, place) -> bool:
        return isinstance(place, At) and place.role in roles

    return rules.predicate(held, name="at table: " + " or ".join(roles))


def _holds(*roles: str):
    """A floor act: the person holds one of ``roles``."""

    def holds(user) -> bool:
        return bool(getattr(user, "is_authenticated", False)) and any(
            user.has_role(role) for role in roles
        )

    return rules.predicate(holds, name="holds: " + " or ".join(roles))


# act → predicate. A table act takes an At; a floor act the person alone.
TABLE_ACTS = {
    # the live table (game.services.command_submit: COMMAND_ACTS says which command is which act)
    "game.follow_table": _at_table(DEALER, OBSERVER, INSPECTOR, DUTY, PIT_BOSS),
    "game.watch_table": _at_table(OBSERVER, INSPECTOR, DUTY, PIT_BOSS),
    "game.deal": _at_table(DEALER),
    "game.void": _at_table(INSPECTOR),
    "game.flag": _at_table(OBSERVER),
    "game.flag_seen": _at_table(DEALER, INSPECTOR),
    "game.reserve": _at_table(OBSERVER),
    # docs/sources.md#box-reservation: longer than one absence allows, only the inspector
    "game.renew_reservation": _at_table(INSPECTOR),
    "game.seat_player": _at_table(DEALER, OBSERVER),
    # the table's cash (cashdesk.services, cashdesk.corrections)
    "cashdesk.table_cash": _at_table(DEALER, OBSERVER, INSPECTOR, DUTY, PIT_BOSS),
    "cashdesk.cash_in": _at_table(DEALER),
    "cashdesk.tip": _at_table(DEALER),
    "cashdesk.recount": _at_table(OBSERVER),
    "cashdesk.cash_in_confirm": _at_table(INSPECTOR),
    "cashdesk.cash_in_chips": _at_table(DEALER),
    "cashdesk.cash_in_correct": _at_table(INSPECTOR, DUTY),
    "cashdesk.chip_count_correct": _at_table(INSPECTOR, DUTY, PIT_BOSS),
    "cashdesk.slip_request": _at_table(INSPECTOR),
    "cashdesk.slip_receive": _at_table(DEALER, OBSERVER),
    "cashdesk.slip_void": _at_table(INSPECTOR, DUTY),
    # people (staff.replacements.replacement_request)
    "staff.replacement_request": _at_table(INSPECTOR),
}
FLOOR_ACTS = {
    "game.dealer_home": _holds(DEALER),
    "game.observer_home": _holds(OBSERVER),
    "game.inspector_home": _holds(INSPECTOR),
    "game.pit_overview": _holds(PIT_BOSS, DUTY),
    "game.replay": _holds(INSPECTOR, DUTY),
    "game.players": _holds(INSPECTOR, DUTY),
    "game.dealer_figures": _holds(DUTY, PIT_BOSS),
    "game.table_configure": _holds(PIT_BOSS),
    "tables.pit": _holds(PIT_BOSS),
    "tables.staff_tables": _holds(PIT_BOSS, DUTY),
    "tables.alerts": _holds(INSPECTOR, DUTY),
    "cashdesk.duty_desk": _holds(DUTY),
    "cashdesk.reports": _holds(DUTY, PIT_BOSS),
    "staff.lockouts": _holds(DUTY),
    "staff.replacements": _holds(DUTY, INSPECTOR),
    "staff.replacement_decide": _holds(DUTY),
}
ACTS = {**TABLE_ACTS, **FLOOR_ACTS}
for _name, _predicate in ACTS.items():
    rules.set_perm(_name, _predicate)


def may(act: str, user, place: At | None = None) -> bool:
    """Whether ``user`` may do ``act`` (at ``place``, for a table act)."""
    return rules.has_perm(act, user, place)


def acts_at(user, place: At) -> dict[str, bool]:
    """Every table act at ``place``, by its short name (``may.void``, ``may.recount``):
    what a screen of that table renders controls for."""
    return {name.split(".", 1)[1]: may(name, user, place) for name in TABLE_ACTS}
