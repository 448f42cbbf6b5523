"""Read paths for people, roles and assignments."""

from datetime import timedelta

from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import QuerySet
from django.utils import timezone

from staff.models import TableAssignment, User
from staff.roles import Role, TableRole
from staff.throttle import delay_after


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


def throttled_sources() -> list[dict]:
    """Sign-in sources (address and name) that wait before their next try or are stopped,
    with the seconds left, longest first."""
    since = timezone.now() - settings.AXES_COOLOFF_TIME
    rows = []
    for attempt in AccessAttempt.objects.filter(
        attempt_time__gte=since, failures_since_start__gt=settings.SIGN_IN_FREE_TRIES
    ).order_by("-attempt_time")[:200]:
        stopped = attempt.failures_since_start >= settings.AXES_FAILURE_LIMIT
        pause = (
            settings.AXES_COOLOFF_TIME
            if stopped
            else timedelta(seconds=delay_after(attempt.failures_since_start))
        )
        left = (attempt.attempt_time + pause - timezone.now()).total_seconds()
        if left > 0:
            rows.append(
                {"attempt": attempt, "stopped": stopped, "until": attempt.attempt_time + pause}
            )
    return rows


def replacement_requests(*, tables=None, limit: int | None = None):
    """Croupier replacement requests, newest first (``tables``: only those tables)."""
    from staff.models import ReplacementRequest

    rows = ReplacementRequest.objects.select_related(
        "table", "current_person", "requested_by", "decided_by", "replacement"
    )
    if tables is not None:
        rows = rows.filter(table__in=tables)
    return rows[:limit] if limit else rows


def replacement_open(*, tables=None):
    """Requests still waiting: for a decision, or (approved) for the round boundary."""
    from staff.models import ReplacementRequest

    return replacement_requests(tables=tables).filter(
        status__in=[ReplacementRequest.Status.REQUESTED, ReplacementRequest.Status.APPROVED]
    )


def replacement_candidates(*, role: str) -> QuerySet[User]:
    """People holding croupier ``role`` who work no table now: who may take over."""
    busy = TableAssignment.objects.filter(
        ends_at__isnull=True, role__in=[TableRole.DEALING_CROUPIER, TableRole.OBSERVING_CROUPIER]
    ).values("user")
    return (
        User.objects.filter(is_active=True, groups__name=role)
        .exclude(pk__in=busy)
        .order_by("full_name", "username")
    )


def replacement_panel() -> list[dict]:
    """The duty administrator's open requests, each with who may take over."""
    return [
        {"request": r, "candidates": list(replacement_candidates(role=r.role))}
        for r in replacement_open()
    ]
