"""Reservation tokens on boxes (docs/sources.md#box-reservation: a token holds a box for a
player who stepped away, no more than twenty minutes) and their expiry."""

from __future__ import annotations

from datetime import timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from floor.alerts import alert_raise
from floor.changes import table_changed
from floor.errors import Refused
from floor.forms import seat_value
from floor.models import Alert
from tables.models import Reservation, Table

# The inspector is warned this long before a reservation runs out.
RESERVATION_WARNING = timedelta(minutes=2)


def reservation_place(
    *, table: Table, box: int, placed_by, seat: str = "", duration: timedelta | None = None
) -> Reservation:
    """Put a reservation token on ``box`` for the table's reservation time (at most twenty
    minutes, docs/sources.md#box-reservation), or the shorter ``duration`` the observer chose.

    Called inside the live table's command transaction (``game.services``), which checks the
    role and that the box is not in play in the current round. ``seat`` is read by the one
    parser (``floor.parsing.seat_label``): refused beyond 24 characters, never cut.
    """
    seat = seat_value(seat, required=False)
    if table.status != Table.Status.OPEN:
        raise Refused("table_not_open", _("The table is not open."))
    if box not in table.box_numbers:
        raise Refused(
            "unknown_box", _("There is no box %(box)s at this table.") % {"box": box}, box=box
        )
    if Reservation.objects.filter(table=table, box=box, ended_at__isnull=True).exists():
        raise Refused("box_reserved", _("Box %(box)s is reserved.") % {"box": box}, box=box)
    now = timezone.now()
    reservation = Reservation(
        table=table,
        box=box,
        seat=seat,
        placed_by=placed_by,
        placed_at=now,
        expires_at=now + min(duration or table.reservation_time, table.reservation_time),
    )
    reservation.full_clean(validate_constraints=False)
    try:
        with transaction.atomic():
            reservation.save()
    except IntegrityError:
        raise Refused("box_reserved", _("Box %(box)s is reserved.") % {"box": box}, box=box)
    table_changed(table.pk)
    return reservation


def reservation_release(*, table: Table, box: int, released_by) -> Reservation:
    """The player came back: take the token off ``box``."""
    reservation = (
        Reservation.objects.select_for_update()
        .filter(table=table, box=box, ended_at__isnull=True)
        .first()
    )
    if reservation is None:
        raise Refused("not_reserved", _("Box %(box)s is not reserved.") % {"box": box}, box=box)
    reservation.ended_at = timezone.now()
    reservation.ended_by = released_by
    reservation.end_reason = Reservation.EndReason.RELEASED
    reservation.save(update_fields=["ended_at", "ended_by", "end_reason"])
    table_changed(table.pk)
    return reservation


def reservations_clear(*, table: Table, by) -> int:
    """End every reservation of the table (closing). Returns how many were ended."""
    now = timezone.now()
    count = Reservation.objects.filter(table=table, ended_at__isnull=True).update(
        ended_at=now, ended_by=by, end_reason=Reservation.EndReason.CLEARED
    )
    if count:
        table_changed(table.pk)
    return count


def _expire_one(pk: int, now) -> bool:
    """End reservation ``pk`` if its time is up, or warn once before; True if it changed."""
    with transaction.atomic():
        reservation = (
            Reservation.objects.select_for_update()
            .select_related("table")
            .filter(pk=pk, ended_at__isnull=True)
            .first()
        )
        if reservation is None:
            return False
        table = reservation.table
        params = {"box": reservation.box, "seat": reservation.seat or "—", "table": str(table)}
        if reservation.expires_at <= now:
            reservation.ended_at = now
            reservation.end_reason = Reservation.EndReason.EXPIRED
            reservation.save(update_fields=["ended_at", "end_reason"])
            alert_raise(table_id=table.pk, kind="reservation_expired", params=params)
            return True
        if reservation.warned_at is None:
            reservation.warned_at = now
            reservation.save(update_fields=["warned_at"])
            alert_raise(
                table_id=table.pk,
                kind="reservation_expiring",
                params={**params, "minutes": int(RESERVATION_WARNING.total_seconds() // 60)},
                severity=Alert.Severity.INFO,
            )
            return True
    return False


def reservation_expire_due(*, now=None, table_id: int | None = None) -> int:
    """End the reservations whose time is up and warn the inspector of those about to end.

    Run every second by ``manage.py run_reservation_expiry`` (so expiry happens on time with
    no screen open); screens also call it for their table when a countdown reaches zero.
    Returns the number of reservations that changed (warned or expired).
    """
    now = now or timezone.now()
    due = Reservation.objects.filter(
        ended_at__isnull=True, expires_at__lte=now + RESERVATION_WARNING
    )
    if table_id is not None:
        due = due.filter(table_id=table_id)
    return sum(_expire_one(pk, now) for pk in list(due.values_list("pk", flat=True)))
