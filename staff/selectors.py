"""Read paths for people, roles and assignments."""

from datetime import timedelta

from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import Case, F, IntegerField, OuterRef, QuerySet, Subquery, Value, When
from django.utils import timezone

from staff.models import ReplacementRequest, RotationPlan, TableAssignment, User
from staff.roles import Role, TableRole
from staff.throttle import delay_after

# Which table role counts when a person holds more than one at a table (one seat per person
# per table makes that an old record's case, staff/seats.py).
TABLE_ROLE_ORDER = (TableRole.DEALING_CROUPIER, TableRole.OBSERVING_CROUPIER, TableRole.INSPECTOR)


def current_assignments(*, user: User) -> QuerySet[TableAssignment]:
    return TableAssignment.objects.filter(user=user, ends_at__isnull=True).select_related("table")


def current_table_for(*, user: User, role: str):
    """The table this person works now in ``role``, or None."""
    assignment = current_assignments(user=user).filter(role=role).first()
    return assignment.table if assignment else None


def inspector_table_ids(*, user: User) -> QuerySet:
    """The ids of the tables ``user`` oversees now as an inspector (a subquery: use it as
    ``Table.objects.filter(pk__in=...)``; ``tables.selectors.inspector_tables`` does)."""
    return TableAssignment.objects.filter(
        user=user, role=TableRole.INSPECTOR, ends_at__isnull=True
    ).values("table_id")


def inspects(*, user: User, table_id: int) -> bool:
    """Whether ``user`` is an inspector of ``table_id`` now."""
    return (
        user.has_role(Role.INSPECTOR)
        and TableAssignment.objects.filter(
            user=user, role=TableRole.INSPECTOR, ends_at__isnull=True, table_id=table_id
        ).exists()
    )


def current_assignment(*, user: User, table_id: int, role: str) -> TableAssignment | None:
    """``user``'s current assignment to ``table_id`` in ``role`` (with its table), or None."""
    return current_assignments(user=user).filter(table_id=table_id, role=role).first()


def table_role_for(*, user: User, table) -> str | None:
    """The role under which ``user`` may open ``table``'s live screens, or None.

    Table roles need a current assignment to that table and the role itself, both read
    fresh from the database in one query (every live command asks again: a role taken away
    or a person deactivated acts no more); the duty administrator and the pit boss see every
    table of the floor (read-only).
    """
    if not user.is_authenticated:
        return None
    assigned = set(
        TableAssignment.objects.filter(
            user=user,
            table=table,
            ends_at__isnull=True,
            user__is_active=True,
            user__groups__name=F("role"),
        ).values_list("role", flat=True)
    )
    for role in TABLE_ROLE_ORDER:
        if role in assigned:
            return role
    if not user.is_active:
        return None
    for role in (Role.DUTY_ADMINISTRATOR, Role.PIT_BOSS):
        if user.has_role(role):
            return role
    return None


def table_role_subquery(*, user_id: int, table_ref: str = "pk") -> Subquery:
    """The table role :func:`table_role_for` finds for ``user_id`` (dealing, observing,
    inspector; None: no current assignment held with its role, or the person inactive), as a
    subquery of a query whose rows are tables (``table_ref``: the outer table id) — so the
    live table's lock reads the role in the same statement."""
    order = Case(
        *(When(role=role, then=Value(n)) for n, role in enumerate(TABLE_ROLE_ORDER)),
        default=Value(len(TABLE_ROLE_ORDER)),
        output_field=IntegerField(),
    )
    held = TableAssignment.objects.filter(
        user_id=user_id,
        table_id=OuterRef(table_ref),
        ends_at__isnull=True,
        user__is_active=True,
        user__groups__name=F("role"),
    )
    return Subquery(held.order_by(order).values("role")[:1])


def hand_over_of(*, user: User, table) -> dict | None:
    """When ``user``'s last assignment at ``table`` has ended: its role, when it ended and
    who holds that role since (None if nobody took it); None if ``user`` never worked it."""
    last = (
        TableAssignment.objects.filter(user=user, table=table, ends_at__isnull=False)
        .order_by("-ends_at", "-pk")
        .first()
    )
    if last is None:
        return None
    successor = (
        TableAssignment.objects.filter(table=table, role=last.role, starts_at__gte=last.ends_at)
        .exclude(user=user)
        .select_related("user")
        .order_by("starts_at", "pk")
        .first()
    )
    return {
        "role": last.role,
        "role_label": TableRole(last.role).label,
        "ended_at": last.ends_at,
        "successor": successor.user if successor else None,
    }


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
    ).order_by("-attempt_time"):
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
    """Croupier replacement requests, newest first (``tables``: only those tables, a list of
    tables or ids, or a subquery of ids)."""
    rows = ReplacementRequest.objects.select_related(
        "table", "current_person", "requested_by", "decided_by", "replacement"
    )
    if tables is not None:
        rows = rows.filter(table__in=tables)
    return rows[:limit] if limit else rows


def replacement_open(*, tables=None):
    """Requests still waiting: for a decision, or (approved) for the round boundary."""
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


def rotation_minutes(*, table_id: int) -> int:
    """How long a croupier works ``table_id`` before his break is due: the table's rotation
    plan, or ``settings.ROTATION_MINUTES`` where the table has none."""
    plan = RotationPlan.objects.filter(table_id=table_id).only("break_every_minutes").first()
    return plan.break_every_minutes if plan else settings.ROTATION_MINUTES


def staff_board(*, tables) -> list[dict]:
    """Who works where and since when, for ``tables`` (in their order): per table, each
    table role's current assignment (with its planned relief and when the break is due by
    the table's rotation plan), and the plan itself."""
    tables = list(tables)
    ids = [t.pk for t in tables]
    current = {
        (a.table_id, a.role): a
        for a in TableAssignment.objects.filter(table_id__in=ids, ends_at__isnull=True)
        .select_related("user", "relief", "assigned_by")
        .order_by("starts_at")
    }
    plans = {p.table_id: p for p in RotationPlan.objects.filter(table_id__in=ids)}
    now = timezone.now()
    board = []
    for table in tables:
        plan = plans.get(table.pk)
        every = plan.break_every_minutes if plan else settings.ROTATION_MINUTES
        rows = []
        for role in TableRole:
            assignment = current.get((table.pk, role.value))
            row = {"role": role.value, "label": role.label, "assignment": assignment}
            if assignment is not None:
                row["minutes"] = int((now - assignment.starts_at).total_seconds() // 60)
                if role != TableRole.INSPECTOR:
                    row["break_due"] = assignment.starts_at + timedelta(minutes=every)
                    row["overdue"] = row["break_due"] <= now
            rows.append(row)
        board.append({"table": table, "plan": plan, "every": every, "rows": rows})
    return board


def free_people(*, role: str) -> QuerySet[User]:
    """Who may take ``role`` now: croupiers working no table (a croupier works one table at
    a time), or every active inspector (an inspector oversees several tables)."""
    if role in (TableRole.DEALING_CROUPIER, TableRole.OBSERVING_CROUPIER):
        return replacement_candidates(role=role)
    return User.objects.filter(is_active=True, groups__name=role).order_by("full_name", "username")
