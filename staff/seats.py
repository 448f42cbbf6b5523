"""One seat per person per table: the rules, in one place (docs/architecture.md, "Access").

A table has three seats — the dealing croupier, the observing croupier, the inspector — and
each is held by a different person: the observer checks the dealer and the inspector checks
both, which one person in two seats cannot do. So:

- **one seat per person per table**: an assignment that would give a person a second seat
  at a table is refused (:func:`seat_refusal`, asked by ``staff.services.assignment_start``
  — every assignment, replacement and relief goes through it — and by the replacement's
  approval); a croupier works one table at a time, an inspector may oversee several;
- **three distinct people to deal**: a round opens (and the opening checklist's staff step
  passes) only when the three seats are held by three different people
  (:func:`crew_refusal`);
- **nobody acknowledges an alert of a table at which he deals or observes**
  (:func:`acknowledgement_refusal`): not as its inspector, not as a duty administrator.

Each rule is a plain predicate of a person and a table (``may_*``: a bool, as a
django-rules predicate is) with its twin ``*_refusal`` giving the reason, a
:class:`floor.errors.Refused` with the message in the active language, or None. Views,
consumers and services ask these; none re-derives them.
"""

from django.utils.translation import gettext as _

from floor.errors import Refused
from staff.models import TableAssignment, User
from staff.roles import TableRole

SEATS = (TableRole.DEALING_CROUPIER, TableRole.OBSERVING_CROUPIER, TableRole.INSPECTOR)
CROUPIER_SEATS = (TableRole.DEALING_CROUPIER, TableRole.OBSERVING_CROUPIER)


def _table_id(table) -> int:
    return getattr(table, "pk", table)


def seats_held(person: User, table) -> set[str]:
    """The seats (table roles) ``person`` holds at ``table`` now."""
    return set(
        TableAssignment.objects.filter(
            user=person, table_id=_table_id(table), ends_at__isnull=True
        ).values_list("role", flat=True)
    )


def seat_refusal(person: User, table, role: str) -> Refused | None:
    """Why ``person`` may not take the seat ``role`` at ``table`` now, or None.

    ``two_seats``: he holds another seat at this table (release it first); ``busy``: a
    croupier seat while he holds a croupier seat at another table.
    """
    other = seats_held(person, table) - {role}
    if other:
        held = TableRole(sorted(other)[0]).label
        return Refused(
            "two_seats",
            _(
                "%(person)s already works at this table as %(seat)s: one person holds one "
                "seat at a table. Release that seat first."
            )
            % {"person": person.display_name, "seat": held},
            person=person.display_name,
            seat=held,
        )
    if role in CROUPIER_SEATS and (
        TableAssignment.objects.filter(user=person, ends_at__isnull=True, role__in=CROUPIER_SEATS)
        .exclude(table_id=_table_id(table))
        .exists()
    ):
        return Refused(
            "busy",
            _("%(person)s is already working at another table or role.")
            % {"person": person.display_name},
        )
    return None


def may_take_seat(person: User, table, role: str) -> bool:
    """Whether ``person`` may take the seat ``role`` at ``table`` now."""
    return seat_refusal(person, table, role) is None


def crew_refusal(table) -> Refused | None:
    """Why ``table`` may not deal a round now for want of its crew, or None.

    ``staff_missing``: a seat is empty; ``crew_not_distinct``: one person holds two seats
    (assignments made before this rule, or written around it).
    """
    holders = dict(
        TableAssignment.objects.filter(table_id=_table_id(table), ends_at__isnull=True).values_list(
            "role", "user_id"
        )
    )
    if any(seat not in holders for seat in SEATS):
        return Refused(
            "staff_missing",
            _("Assign a dealing croupier, an observing croupier and an inspector first."),
        )
    people = [holders[seat] for seat in SEATS]
    if len(set(people)) < len(SEATS):
        twice = next(user_id for user_id in people if people.count(user_id) > 1)
        name = User.objects.get(pk=twice).display_name
        return Refused(
            "crew_not_distinct",
            _(
                "%(person)s holds two seats at this table: a round needs three different "
                "people as the dealing croupier, the observing croupier and the inspector."
            )
            % {"person": name},
            person=name,
        )
    return None


def may_deal_round(person: User, table) -> bool:
    """Whether ``person`` may open a round at ``table``: he is its dealing croupier and its
    three seats are held by three different people."""
    return TableRole.DEALING_CROUPIER in seats_held(person, table) and crew_refusal(table) is None


def croupier_table_ids(person: User) -> set[int]:
    """The tables at which ``person`` deals or observes now (for a list of alerts: one query
    instead of one per alert)."""
    return set(
        TableAssignment.objects.filter(
            user=person, ends_at__isnull=True, role__in=CROUPIER_SEATS
        ).values_list("table_id", flat=True)
    )


def acknowledgement_refusal(person: User, table, *, croupier_tables=None) -> Refused | None:
    """Why ``person`` may not acknowledge an alert of ``table`` (None: an alert of no
    table) for being one of its croupiers, or None. ``croupier_tables``: the person's
    :func:`croupier_table_ids`, when the caller has read them already."""
    if table is None:
        return None
    seated = croupier_table_ids(person) if croupier_tables is None else croupier_tables
    if _table_id(table) not in seated:
        return None
    return Refused(
        "own_table",
        _(
            "You work at this table as a croupier: an alert of the table where you deal or "
            "observe is acknowledged by someone else."
        ),
    )


def may_acknowledge_alerts_of(person: User, table) -> bool:
    """Whether the seat rule lets ``person`` acknowledge an alert of ``table`` (his role —
    its inspector, a duty administrator for a critical one — is checked by the service)."""
    return acknowledgement_refusal(person, table) is None
