"""Read paths for pits, tables, their history, checklists, reservations and alerts."""

from django.db.models import Q

from floor.models import Alert
from staff.roles import Role
from staff.selectors import inspector_table_ids
from tables.models import ChipCount, Reservation, Table, TableChange


def floor_tables():
    return Table.objects.select_related("pit").order_by("number")


def inspector_tables(*, user):
    """The tables ``user`` oversees now as an inspector, by number."""
    return Table.objects.filter(pk__in=inspector_table_ids(user=user)).order_by("number")


def active_reservations(*, table: Table):
    """The tokens on the table's boxes now, by box."""
    return (
        Reservation.objects.filter(table=table, ended_at__isnull=True)
        .select_related("placed_by")
        .order_by("box")
    )


def reserved_boxes(*, table: Table) -> set[int]:
    return set(
        Reservation.objects.filter(table=table, ended_at__isnull=True).values_list("box", flat=True)
    )


def reservation_history(*, table: Table, limit: int = 50):
    return (
        Reservation.objects.filter(table=table)
        .select_related("placed_by", "ended_by")
        .order_by("-placed_at", "-pk")[:limit]
    )


def table_history(*, table: Table, limit: int = 50):
    return (
        TableChange.objects.filter(table=table)
        .select_related("changed_by")
        .order_by("-changed_at", "-pk")[:limit]
    )


def last_chip_count(*, table: Table, kind: str) -> ChipCount | None:
    """The latest count of ``kind`` (``opener``, ``closer``, ``spot``) at ``table``, as it
    is in force: a confirmed correction of it stands in for it (a pending one does not)."""
    latest = (
        ChipCount.objects.filter(table=table, kind=kind, replaces__isnull=True)
        .select_related("counted_by")
        .order_by("-counted_at", "-pk")
        .first()
    )
    if latest is None:
        return None
    chain = ChipCount.objects.filter(table=table, kind=kind, counted_at=latest.counted_at)
    return counts_in_force(chain.select_related("counted_by"))[latest.pk][1]


def counts_in_force(rows) -> dict[int, tuple[ChipCount, ChipCount]]:
    """For each first count among ``rows`` (counts and their corrections, which share the
    counted moment): its newest version and the version in force — the newest that is the
    first count or a confirmed correction. They differ while a correction awaits its
    second signature. A correction whose first count is not among ``rows`` is left out."""
    root: dict[int, int] = {}
    out: dict[int, tuple[ChipCount, ChipCount]] = {}
    for count in sorted(rows, key=lambda c: c.pk):
        origin = count.pk if count.replaces_id is None else root.get(count.replaces_id)
        if origin is None:
            continue
        root[count.pk] = origin
        in_force = out.get(origin, (count, count))[1]
        out[origin] = (count, count if count.in_force else in_force)
    return out


def alerts_visible_to(*, user):
    """The alerts a person may read: the duty administrator every alert, an inspector those
    of the tables they oversee now (and alerts of no table); nobody else any."""
    alerts = Alert.objects.select_related("table", "raised_by", "acknowledged_by")
    if user.has_role(Role.DUTY_ADMINISTRATOR):
        return alerts
    if user.has_role(Role.INSPECTOR):
        return alerts.filter(Q(table_id__in=inspector_table_ids(user=user)) | Q(table__isnull=True))
    return alerts.none()


def alert_history(*, user, table: int | None = None, kind: str = "", open_only: bool = False):
    """The alert history screen: newest first, filtered by table, kind and open/all."""
    alerts = alerts_visible_to(user=user)
    if table:
        alerts = alerts.filter(table_id=table)
    if kind:
        alerts = alerts.filter(kind=kind)
    if open_only:
        alerts = alerts.filter(acknowledged_at__isnull=True)
    return alerts.order_by("-created_at", "-pk")


def open_alerts(*, limit: int = 20):
    """Alerts not yet acknowledged, newest first, for the duty administrator's home."""
    return list(
        Alert.objects.filter(acknowledged_at__isnull=True)
        .select_related("table")
        .order_by("-created_at")[:limit]
    )
