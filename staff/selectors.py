"""Read paths for people, roles and assignments."""

from django.db.models import QuerySet

from staff.models import TableAssignment, User
from staff.roles import Role, TableRole


def current_assignments(*, user: User) -> QuerySet[TableAssignment]:
    return TableAssignment.objects.filter(user=user, ends_at__isnull=True).select_related("table")


def current_table_for(*, user: User, role: str):
    """The table this person works now in ``role``, or None."""
    assignment = current_assignments(user=user).filter(role=role).first()
    return assignment.table if assignment else None


def inspector_tables(*, user: User):
    from tables.models import Table

    return Table.objects.filter(
        assignments__user=user,
        assignments__role=TableRole.INSPECTOR,
        assignments__ends_at__isnull=True,
    ).order_by("number")


def table_role_for(*, user: User, table) -> str | None:
    """The role under which ``user`` may open ``table``'s live screens, or None.

    Table roles need a current assignment to that table; the duty administrator and the
    pit boss see every table of the floor (read-only).
    """
    if not user.is_authenticated or not user.is_active:
        return None
    assigned = set(
        TableAssignment.objects.filter(user=user, table=table, ends_at__isnull=True).values_list(
            "role", flat=True
        )
    )
    for role in (TableRole.DEALING_CROUPIER, TableRole.OBSERVING_CROUPIER, TableRole.INSPECTOR):
        if role in assigned and user.has_role(role):
            return role
    for role in (Role.DUTY_ADMINISTRATOR, Role.PIT_BOSS):
        if user.has_role(role):
            return role
    return None


def table_staff(*, table) -> dict[str, User]:
    """The current holder of each table role."""
    return {
        a.role: a.user
        for a in TableAssignment.objects.filter(table=table, ends_at__isnull=True).select_related(
            "user"
        )
    }


def locked_pins() -> QuerySet[User]:
    return User.objects.filter(pin_locked_at__isnull=False).order_by("-pin_locked_at")
