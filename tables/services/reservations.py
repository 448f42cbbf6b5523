"""Reservation tokens on boxes (docs/sources.md#box-reservation: a token holds a box for a
player who stepped away, no more than twenty minutes) and their expiry."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

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
# The tokens one absence is looked for in, newest first (a longer run is held already).
ABSENCE_TOKENS = 20

# "Did the box play (a stake on it in a round) after this moment?": told by the live table,
# which knows the rounds (game sits above this app).
PlayedAfter = Callable[[datetime], bool]


def absence_held(
    *, table: Table, box: int, seat: str = "", played_after: PlayedAfter | None = None
) -> tuple[timedelta, Reservation | None]:
    """docs/sources.md#box-reservation: how long ``box`` has been held already in its
    player's present absence, and the last token of that absence (None: no absence goes
    on). An absence is the tokens put on the box one after another for the same player (the
    same seat, or no seat named) since the table opened, each ended by its time running out
    or by the inspector's renewal; it ends when a token is released (the player came back),
    cleared at closing, or when the box played after a token ended (``played_after``)."""
    held, last = timedelta(0), None
    tokens = Reservation.objects.filter(table=table, box=box, ended_at__isnull=False).order_by(
        "-placed_at", "-pk"
    )[:ABSENCE_TOKENS]
    for token in tokens:
        if token.end_reason not in (
            Reservation.EndReason.EXPIRED,
            Reservation.EndReason.RENEWED,
        ):
            break
        if table.opened_at is not None and token.placed_at < table.opened_at:
            break
        if seat and token.seat and token.seat != seat:
            break
        if played_after is not None and played_after(token.ended_at):
            break
        held += min(token.ended_at, token.expires_at) - token.placed_at
        last = last or token
        seat = seat or token.seat
    return held, last


def reservation_place(
    *,
    table: Table,
    box: int,
    placed_by,
    seat: str = "",
    duration: timedelta | None = None,
    played_after: PlayedAfter | None = None,
) -> Reservation:
    """Put a reservation token on ``box`` for the table's reservation time (at most twenty
    minutes, docs/sources.md#box-reservation), or the shorter ``duration`` the observer chose
    — and never beyond the table's time in one absence of the player (``absence_held``): a
    new token right after one ran out holds only what is left of it, and none when nothing
    is (``reservation_absence_over``: only the inspector renews it, with a note).

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
    held, _last = absence_held(table=table, box=box, seat=seat, played_after=played_after)
    left = table.reservation_time - held
    if left < timedelta(seconds=1):
        raise Refused(
            "reservation_absence_over",
            _(
                "Box %(box)s has been held %(minutes)s minutes in this player's absence: "
                "%(most)s at most. Only the inspector can hold it longer, with a note."
            )
            % {"box": box, "minutes": round(held.total_seconds() / 60), "most": _most(table)},
            box=box,
            minutes=round(held.total_seconds() / 60),
            most=_most(table),
        )
    now = timezone.now()
    reservation = Reservation(
        table=table,
        box=box,
        seat=seat,
        placed_by=placed_by,
        placed_at=now,
        expires_at=now + min(duration or table.reservation_time, table.reservation_time, left),
    )
    reservation.full_clean(validate_constraints=False)
    try:
        with transaction.atomic():
            reservation.save()
    except IntegrityError:
        raise Refused("box_reserved", _("Box %(box)s is reserved.") % {"box": box}, box=box)
    table_changed(table.pk)
    return reservation


def _most(table: Table) -> int:
    return round(table.reservation_time.total_seconds() / 60)


def reservation_renew(
    *,
    table: Table,
    box: int,
    renewed_by,
    note: str,
    duration: timedelta | None = None,
    played_after: PlayedAfter | None = None,
) -> Reservation:
    """The inspector holds a box longer than one absence allows
    (docs/sources.md#box-reservation), with a note saying why: the token on the box, or the
    last one of the absence going on, is followed by a new one for the same player, for the
    table's time or the shorter ``duration``, marked with the inspector and his note.

    Called inside the live table's command transaction (``game.services``), which checks
    the inspector's role at the table."""
    note = str(note or "").strip()
    if not note:
        raise Refused("renewal_note_required", _("Write why the box is held longer."))
    if table.status != Table.Status.OPEN:
        raise Refused("table_not_open", _("The table is not open."))
    now = timezone.now()
    active = (
        Reservation.objects.select_for_update()
        .filter(table=table, box=box, ended_at__isnull=True)
        .first()
    )
    if active is not None:
        seat = active.seat
        active.ended_at, active.ended_by = now, renewed_by
        active.end_reason = Reservation.EndReason.RENEWED
        active.save(update_fields=["ended_at", "ended_by", "end_reason"])
    else:
        _held, last = absence_held(table=table, box=box, played_after=played_after)
        if last is None:
            raise Refused(
                "nothing_to_renew",
                _(
                    "Box %(box)s holds no token and no player's absence goes on: the "
                    "observing croupier puts a token."
                )
                % {"box": box},
                box=box,
            )
        seat = last.seat
    reservation = Reservation(
        table=table,
        box=box,
        seat=seat,
        placed_by=renewed_by,
        placed_at=now,
        expires_at=now + min(duration or table.reservation_time, table.reservation_time),
        renewed_by=renewed_by,
        renewal_note=note[:500],
    )
    reservation.full_clean(validate_constraints=False)
    reservation.save()
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
