"""Read paths for pits, tables, their history, checklists and reservations."""

from tables.models import ChipCount, Reservation, Table, TableChange


def floor_tables():
    return Table.objects.select_related("pit").order_by("number")


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
    """The latest count of ``kind`` (``opener``, ``closer``, ``spot``) at ``table``."""
    return (
        ChipCount.objects.filter(table=table, kind=kind)
        .select_related("counted_by")
        .order_by("-counted_at", "-pk")
        .first()
    )
