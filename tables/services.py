"""Write paths for pits, tables, their lifecycle and checklists, reservations and alerts.

Refusals are ``ValidationError`` with a translated message and a stable ``code`` (the live
table's commands translate the codes again in ``game/messages.py``).
"""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal, InvalidOperation

from django.contrib.auth import authenticate
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from staff.roles import Role, TableRole
from staff.throttle import sign_in_name, throttled_message
from tables.checklists import step_codes
from tables.models import (
    Alert,
    Checklist,
    ChecklistStep,
    ChipCount,
    Reservation,
    Table,
    TableChange,
)

# The inspector is warned this long before a reservation runs out.
RESERVATION_WARNING = timedelta(minutes=2)

CONFIG_FIELDS = (
    "number",
    "name",
    "pit",
    "boxes",
    "min_bet",
    "max_bet",
    "rules",
    "card_entry",
    "chip_denominations",
    "par_float",
    "reservation_minutes",
    "reservation_seconds",
)


def _refuse(code: str, message: str) -> ValidationError:
    return ValidationError(message, code=code)


def publish_on_commit(table_id: int) -> None:
    def publish():
        from game.publish import publish_table

        publish_table(table_id)

    transaction.on_commit(publish)


def live_version_bump(table: Table) -> None:
    """A change outside a command still moves the screens' version, so a screen that missed
    the push heals at its next resync."""
    from django.db.models import F

    from game.models import LiveTable

    LiveTable.objects.get_or_create(table=table)
    LiveTable.objects.filter(pk=table.pk).update(version=F("version") + 1)


# -- alerts -------------------------------------------------------------------------------


def alert_raise(
    *,
    table: Table | None,
    kind: str,
    params: dict | None = None,
    severity: str = Alert.Severity.WARNING,
    raised_by=None,
    publish: bool = True,
) -> Alert:
    """Record an alert for the inspector and the duty administrator and push it live.

    ``kind`` is a stable code (its message is translated on the screens, see
    ``tables/alerts.py``); ``params`` holds what the message needs (JSON-safe values).
    ``publish=False`` when the caller publishes the table anyway (a live command), so the
    screens are rendered once per change.
    """
    alert = Alert(
        table=table, kind=kind, params=params or {}, severity=severity, raised_by=raised_by
    )
    alert.full_clean()
    alert.save()
    if table is not None and publish:
        live_version_bump(table)  # a new state: screens drop pushes of a version they have
        publish_on_commit(table.pk)
    transaction.on_commit(_publish_duty)
    return alert


def _publish_duty() -> None:
    """The duty administrator's home lists open alerts: refresh it."""
    from cashdesk.publish import publish_duty

    publish_duty()


def alert_acknowledge(*, alert_id: int, by, note: str) -> Alert:
    """The inspector of the alert's table acknowledges it with a note; kept for good.

    Refused (``ValidationError``, nothing changed) without a note (``note_required``), twice
    (``already_acknowledged``), or by anyone but a current inspector of that table
    (``PermissionDenied``; an alert without a table: any inspector).
    """
    from django.core.exceptions import PermissionDenied

    from staff.selectors import inspector_tables

    note = (note or "").strip()
    with transaction.atomic():
        alert = Alert.objects.select_for_update().filter(pk=alert_id).first()
        if alert is None:
            raise _refuse("no_such_alert", _("There is no such alert."))
        if not by.has_role(Role.INSPECTOR) or (
            alert.table_id is not None
            and not inspector_tables(user=by).filter(pk=alert.table_id).exists()
        ):
            raise PermissionDenied(_("Only the inspector of this table acknowledges its alerts."))
        if alert.acknowledged_at is not None:
            raise _refuse(
                "already_acknowledged",
                _("This alert was already acknowledged by %(who)s at %(when)s.")
                % {
                    "who": alert.acknowledged_by.display_name,
                    "when": timezone.localtime(alert.acknowledged_at).strftime("%H:%M:%S"),
                },
            )
        if not note:
            raise _refuse("note_required", _("Write a note: what was done about it."))
        alert.acknowledged_by = by
        alert.acknowledged_at = timezone.now()
        alert.acknowledgement_note = note[:2000]
        alert.full_clean()
        alert.save(update_fields=["acknowledged_by", "acknowledged_at", "acknowledgement_note"])
        if alert.table_id is not None:
            live_version_bump(alert.table)
            publish_on_commit(alert.table_id)
        transaction.on_commit(_publish_duty)
    return alert


# -- configuration ------------------------------------------------------------------------


def _jsonable(value):
    if isinstance(value, Decimal):
        return str(value)
    if hasattr(value, "pk"):
        return value.pk
    return value


def table_configure(*, table: Table, changed_by, **fields) -> TableChange | None:
    """Change a table's configuration; only while it is closed. Returns the history row
    (``None`` when nothing changed). The rule set is validated by the engine."""
    from game.engine import Rules, RulesError

    unknown = set(fields) - set(CONFIG_FIELDS)
    if unknown:
        raise _refuse("bad_field", _("Unknown setting: %(name)s") % {"name": sorted(unknown)[0]})
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table.pk)
        if table.status != Table.Status.CLOSED:
            raise _refuse(
                "table_not_closed",
                _("The table's settings and rules change only while the table is closed."),
            )
        changes = {}
        for name, value in fields.items():
            old = getattr(table, name)
            if old != value:
                changes[name] = [_jsonable(old), _jsonable(value)]
                setattr(table, name, value)
        if not changes:
            return None
        try:
            Rules.from_json(table.rules or "standard")
        except RulesError as error:
            raise ValidationError({"rules": error.message}, code="bad_rules")
        table_validate_chips(table=table)
        table.full_clean()
        table.save()
        change = TableChange(
            table=table, kind=TableChange.Kind.CONFIG, changes=changes, changed_by=changed_by
        )
        change.full_clean()
        change.save()
    return change


def table_validate_chips(*, table: Table) -> None:
    """Denominations are positive amounts; the par float counts only those denominations."""
    denominations = []
    for raw in table.chip_denominations or []:
        try:
            value = Decimal(str(raw))
        except InvalidOperation:
            value = Decimal(0)
        if value <= 0:
            raise ValidationError(
                {"chip_denominations": _("%(value)s is not a chip value.") % {"value": raw}}
            )
        denominations.append(str(raw))
    for key, count in (table.par_float or {}).items():
        if key not in denominations:
            raise ValidationError(
                {"par_float": _("%(value)s is not in the chip set.") % {"value": key}}
            )
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise ValidationError(
                {"par_float": _("The par float of %(value)s is not a count.") % {"value": key}}
            )


# -- lifecycle ----------------------------------------------------------------------------

TRANSITIONS = {
    Table.Status.CLOSED: Table.Status.OPENING,
    Table.Status.OPENING: Table.Status.OPEN,
    Table.Status.OPEN: Table.Status.CLOSING,
    Table.Status.CLOSING: Table.Status.CLOSED,
}


def _move(table: Table, to_status: str, by) -> TableChange:
    from_status = table.status
    if TRANSITIONS.get(from_status) != to_status:
        raise _refuse(
            "bad_transition",
            _("A %(from)s table cannot become %(to)s.")
            % {
                "from": Table.Status(from_status).label,
                "to": Table.Status(to_status).label,
            },
        )
    table.status = to_status
    table.save(update_fields=["status"])
    change = TableChange(
        table=table,
        kind=TableChange.Kind.STATUS,
        from_status=from_status,
        to_status=to_status,
        changed_by=by,
    )
    change.full_clean()
    change.save()
    live_version_bump(table)
    publish_on_commit(table.pk)
    return change


def checklist_start(*, table: Table, kind: str, started_by) -> Checklist:
    """Begin opening (closed → opening) or closing (open → closing) a table."""
    target = {
        Checklist.Kind.OPENING: Table.Status.OPENING,
        Checklist.Kind.CLOSING: Table.Status.CLOSING,
    }[kind]
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table.pk)
        _move(table, target, started_by)
        checklist = Checklist(table=table, kind=kind, started_by=started_by)
        checklist.full_clean()
        checklist.save()
    return checklist


def checklist_current(*, table: Table) -> Checklist | None:
    """The checklist under way (the table is opening or closing), or None."""
    if table.status not in (Table.Status.OPENING, Table.Status.CLOSING):
        return None
    kind = Checklist.Kind.OPENING if table.status == Table.Status.OPENING else "closing"
    return (
        Checklist.objects.filter(table=table, kind=kind, completed_at__isnull=True)
        .order_by("-started_at", "-pk")
        .first()
    )


def chip_count_record(*, table: Table, kind: str, counts: dict, counted_by) -> ChipCount:
    """Record a count of the chip float: ``counts`` is {denomination: number of chips}."""
    allowed = [str(d) for d in table.chip_denominations or []]
    if not allowed:
        raise _refuse("no_chip_set", _("Set the table's chip set before counting its float."))
    clean = {}
    total = Decimal(0)
    for denomination in allowed:
        raw = counts.get(denomination, 0)
        try:
            number = int(str(raw).strip() or 0)
        except ValueError:
            number = -1
        if not 0 <= number <= 1_000_000:  # no tray holds a million chips: a typing error
            raise _refuse(
                "bad_count",
                _("The count of %(value)s chips must be a whole number, zero or more.")
                % {"value": denomination},
            )
        clean[denomination] = number
        total += Decimal(denomination) * number
    extra = set(counts) - set(allowed)
    if extra:
        raise _refuse(
            "bad_count", _("%(value)s is not in the chip set.") % {"value": sorted(extra)[0]}
        )
    count = ChipCount(
        table=table,
        kind=kind,
        counts=clean,
        total=total.quantize(Decimal("0.01")),
        counted_by=counted_by,
        counted_at=timezone.now(),
    )
    count.full_clean()
    count.save()
    return count


def _step_details(checklist: Checklist, step: str, data: dict, by) -> dict:
    from staff.selectors import table_staff

    table = checklist.table
    opening = checklist.kind == Checklist.Kind.OPENING
    if step == "chip_float":
        kind = ChipCount.Kind.OPENER if opening else ChipCount.Kind.CLOSER
        reference = None
        if opening:
            reference = (
                ChipCount.objects.filter(table=table, kind=ChipCount.Kind.CLOSER)
                .order_by("-counted_at", "-pk")
                .first()
            )
        count = chip_count_record(
            table=table, kind=kind, counts=data.get("counts") or {}, counted_by=by
        )
        details = {"chip_count": count.pk, "counts": count.counts, "total": str(count.total)}
        if reference is not None:
            difference = count.total - reference.total
            by_denomination = {
                d: count.counts.get(d, 0) - reference.counts.get(d, 0)
                for d in sorted(set(count.counts) | set(reference.counts), key=Decimal)
                if count.counts.get(d, 0) != reference.counts.get(d, 0)
            }
            details.update(
                reference=str(reference.total),
                difference=str(difference),
                by_denomination=by_denomination,
            )
            if difference or by_denomination:
                alert_raise(
                    table=table,
                    kind="float_difference",
                    params={
                        "opener": str(count.total),
                        "closer": str(reference.total),
                        "difference": str(difference),
                    },
                    severity=Alert.Severity.CRITICAL,
                    raised_by=by,
                )
        return details
    if step == "cards":
        try:
            decks = int(str(data.get("decks") or "").strip())
        except ValueError:
            decks = 0
        if not 1 <= decks <= 8:
            raise _refuse("bad_decks", _("Enter the number of decks (1 to 8)."))
        if not data.get("spread_checked"):
            raise _refuse(
                "spread_unchecked",
                _("The opening player must check the spread (every card of the set present)."),
            )
        return {"decks": decks, "spread_checked": True}
    if step == "cash_box":
        seal = str(data.get("seal") or "").strip()[:64]
        if not seal:
            raise _refuse("seal_required", _("Enter the seal number."))
        if not data.get("tip_box"):
            raise _refuse("tip_box_missing", _("The tip box must be in place."))
        return {"seal": seal, "tip_box": True}
    if step == "staff":
        staff = table_staff(table=table)
        missing = [role for role in TableRole.values if role not in staff]
        if missing:
            raise _refuse(
                "staff_missing",
                _("Assign a dealing croupier, an observing croupier and an inspector first."),
            )
        return {role: staff[role].display_name for role in TableRole.values}
    if step == "last_round":
        from game.models import LiveTable

        live_row = LiveTable.objects.filter(pk=table.pk).select_related("current_round").first()
        current = live_row.current_round if live_row else None
        if current is not None and current.is_open:
            raise _refuse("round_in_progress", _("A round is still in progress: finish it first."))
        return {"round": current.number if current else None}
    if step == "reservations":
        return {"cleared": reservations_clear(table=table, by=by)}
    if step == "drop_box":
        from staff.models import User

        seal = str(data.get("seal") or "").strip()[:64]
        if not seal:
            raise _refuse("seal_required", _("Enter the seal number."))
        removed_by = User.objects.filter(pk=_id(data.get("removed_by"))).first()
        witness = User.objects.filter(pk=_id(data.get("witness"))).first()
        if removed_by is None or witness is None:
            raise _refuse("people_required", _("Name who removed the drop box and the witness."))
        if removed_by == witness:
            raise _refuse(
                "same_person", _("The witness must be another person than the one removing it.")
            )
        return {
            "seal": seal,
            "removed_by": removed_by.display_name,
            "removed_by_id": removed_by.pk,
            "witness": witness.display_name,
            "witness_id": witness.pk,
        }
    return {}


def checklist_step_record(*, checklist: Checklist, step: str, done_by, data=None) -> ChecklistStep:
    """Record one step as done by ``done_by`` now, with what it needs (see ``_step_details``).

    A step is done once; a refused step changes nothing.
    """
    if step not in step_codes(checklist.kind):
        raise _refuse("bad_step", _("That is not a step of this checklist."))
    with transaction.atomic():
        checklist = (
            Checklist.objects.select_for_update().select_related("table").get(pk=checklist.pk)
        )
        if checklist.completed_at is not None:
            raise _refuse("checklist_done", _("This checklist is already complete."))
        if checklist.pit_boss_signed_by_id or checklist.second_signed_by_id:
            raise _refuse("already_signed", _("The checklist is signed: no step can change."))
        if checklist.steps.filter(step=step).exists():
            raise _refuse("step_done", _("This step is already done."))
        details = _step_details(checklist, step, data or {}, done_by)
        row = ChecklistStep(checklist=checklist, step=step, details=details, done_by=done_by)
        row.full_clean()
        try:
            with transaction.atomic():
                row.save()
        except IntegrityError:
            raise _refuse("step_done", _("This step is already done."))
    return row


def checklist_missing_steps(*, checklist: Checklist) -> list[str]:
    done = set(checklist.steps.values_list("step", flat=True))
    return [code for code in step_codes(checklist.kind) if code not in done]


def signer_authenticate(*, request, identifier: str, secret: str):
    """The person whose own password this is, or a refusal (code ``bad_credential``, or
    ``throttled`` when this device tried too many wrong ones for that name).

    Signers (pit boss, inspector, duty administrator) sign with their password; the check
    goes through ``authenticate(request, ...)``, throttled per source like every sign-in.
    """
    identifier = (identifier or "").strip()
    user = authenticate(request, username=identifier, password=secret or "") if identifier else None
    if user is None:
        if getattr(request, "axes_locked_out", False):
            request.sign_in_explained = True
            raise _refuse("throttled", throttled_message(request, sign_in_name(request, None)))
        raise _refuse("bad_credential", _("Wrong name or password."))
    return user


def _id(value) -> int | None:
    """A database id from a form, or None (never an exception)."""
    text = str(value if value is not None else "").strip()
    return int(text) if text.isascii() and text.isdigit() else None


SIGNER_ROLES = {
    "pit_boss": (Role.PIT_BOSS,),
    "second": (Role.INSPECTOR,),
}
CLOSING_SECOND_ROLES = (Role.INSPECTOR, Role.DUTY_ADMINISTRATOR)


def _inspects(person, table) -> bool:
    """Whether ``person`` is a current inspector of ``table`` (an inspector signs only the
    tables they oversee)."""
    from staff.selectors import inspector_tables

    return inspector_tables(user=person).filter(pk=table.pk).exists()


def checklist_sign(*, checklist: Checklist, slot: str, signer) -> Checklist:
    """Sign ``checklist`` in ``slot`` (``pit_boss`` or ``second``: the inspector; at closing
    the inspector or the duty administrator). ``signer`` must have proved their own credential
    (:func:`signer_authenticate`). Every step must be done; two different people sign."""
    if slot not in SIGNER_ROLES:
        raise _refuse("bad_slot", _("Unknown signature."))
    with transaction.atomic():
        checklist = Checklist.objects.select_for_update().get(pk=checklist.pk)
        if checklist.completed_at is not None:
            raise _refuse("checklist_done", _("This checklist is already complete."))
        if checklist_missing_steps(checklist=checklist):
            raise _refuse("steps_missing", _("Sign only when every step is done."))
        mine = "pit_boss_signed_by_id" if slot == "pit_boss" else "second_signed_by_id"
        other = "second_signed_by_id" if slot == "pit_boss" else "pit_boss_signed_by_id"
        if getattr(checklist, mine) is not None:
            raise _refuse("already_signed", _("This signature is already given."))
        roles = SIGNER_ROLES[slot]
        if slot == "second" and checklist.kind == Checklist.Kind.CLOSING:
            roles = CLOSING_SECOND_ROLES
        if not any(signer.has_role(role) for role in roles):
            raise _refuse(
                "wrong_signer",
                _("%(name)s cannot sign here: this signature needs the role %(role)s.")
                % {
                    "name": signer.display_name,
                    "role": ", ".join(str(Role(r).label) for r in roles),
                },
            )
        if getattr(checklist, other) == signer.pk:
            raise _refuse("same_signer", _("The two signatures must be of two different people."))
        duty_may_sign = Role.DUTY_ADMINISTRATOR in roles and signer.has_role(
            Role.DUTY_ADMINISTRATOR
        )
        if slot == "second" and not duty_may_sign and not _inspects(signer, checklist.table):
            raise _refuse(
                "not_this_table",
                _("%(name)s is not an inspector of this table.") % {"name": signer.display_name},
            )
        setattr(checklist, mine, signer.pk)
        setattr(checklist, mine.replace("_by_id", "_at"), timezone.now())
        checklist.full_clean()
        checklist.save()
    return checklist


def _complete(table: Table, kind: str, to_status: str, by) -> Table:
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table.pk)
        checklist = checklist_current(table=table)
        if checklist is None or checklist.kind != kind:
            raise _refuse("no_checklist", _("Start the checklist first."))
        if checklist_missing_steps(checklist=checklist):
            raise _refuse("steps_missing", _("Every step of the checklist must be done first."))
        if not checklist.signed:
            raise _refuse("unsigned", _("The checklist needs both signatures first."))
        checklist.completed_at = timezone.now()
        checklist.save(update_fields=["completed_at"])
        _move(table, to_status, by)
    return table


def table_open(*, table: Table, opened_by) -> Table:
    """Open the table: every opening step done and both signatures given."""
    return _complete(table, Checklist.Kind.OPENING, Table.Status.OPEN, opened_by)


def table_close(*, table: Table, closed_by) -> Table:
    """Close the table: every closing step done and both signatures given."""
    return _complete(table, Checklist.Kind.CLOSING, Table.Status.CLOSED, closed_by)


# -- reservations -------------------------------------------------------------------------


def reservation_place(*, table: Table, box: int, placed_by, seat: str = "") -> Reservation:
    """Put a reservation token on ``box`` for at most the table's reservation time.

    Called inside the live table's command transaction (``game.services``), which checks the
    role and that the box is not in play in the current round.
    """
    if table.status != Table.Status.OPEN:
        raise _refuse("table_not_open", _("The table is not open."))
    if box not in table.box_numbers:
        raise _refuse("unknown_box", _("There is no box %(box)s at this table.") % {"box": box})
    if Reservation.objects.filter(table=table, box=box, ended_at__isnull=True).exists():
        raise _refuse("box_reserved", _("Box %(box)s is reserved.") % {"box": box})
    now = timezone.now()
    reservation = Reservation(
        table=table,
        box=box,
        seat=str(seat or "").strip()[:24],
        placed_by=placed_by,
        placed_at=now,
        expires_at=now + table.reservation_time,
    )
    reservation.full_clean(validate_constraints=False)
    try:
        with transaction.atomic():
            reservation.save()
    except IntegrityError:
        raise _refuse("box_reserved", _("Box %(box)s is reserved.") % {"box": box})
    return reservation


def reservation_release(*, table: Table, box: int, released_by) -> Reservation:
    """The player came back: take the token off ``box``."""
    reservation = (
        Reservation.objects.select_for_update()
        .filter(table=table, box=box, ended_at__isnull=True)
        .first()
    )
    if reservation is None:
        raise _refuse("not_reserved", _("Box %(box)s is not reserved.") % {"box": box})
    reservation.ended_at = timezone.now()
    reservation.ended_by = released_by
    reservation.end_reason = Reservation.EndReason.RELEASED
    reservation.save(update_fields=["ended_at", "ended_by", "end_reason"])
    return reservation


def reservations_clear(*, table: Table, by) -> int:
    """End every reservation of the table (closing). Returns how many were ended."""
    now = timezone.now()
    count = Reservation.objects.filter(table=table, ended_at__isnull=True).update(
        ended_at=now, ended_by=by, end_reason=Reservation.EndReason.CLEARED
    )
    if count:
        live_version_bump(table)
        publish_on_commit(table.pk)
    return count


def reservation_expire_due(*, now=None, table_id: int | None = None) -> int:
    """End the reservations whose time is up and warn the inspector of those about to end.

    Run every second by ``manage.py run_reservation_expiry`` (so expiry happens on time with
    no screen open); screens also call it for their table when a countdown reaches zero.
    Returns the number of reservations that changed (warned or expired).
    """
    now = now or timezone.now()
    due = Reservation.objects.filter(ended_at__isnull=True).filter(
        expires_at__lte=now + RESERVATION_WARNING
    )
    if table_id is not None:
        due = due.filter(table_id=table_id)
    changed = 0
    for pk in list(due.values_list("pk", flat=True)):
        with transaction.atomic():
            reservation = (
                Reservation.objects.select_for_update()
                .select_related("table")
                .filter(pk=pk, ended_at__isnull=True)
                .first()
            )
            if reservation is None:
                continue
            table = reservation.table
            params = {
                "box": reservation.box,
                "seat": reservation.seat or "—",
                "table": str(table),
            }
            if reservation.expires_at <= now:
                reservation.ended_at = now
                reservation.end_reason = Reservation.EndReason.EXPIRED
                reservation.save(update_fields=["ended_at", "end_reason"])
                alert_raise(table=table, kind="reservation_expired", params=params)
            elif reservation.warned_at is None:
                reservation.warned_at = now
                reservation.save(update_fields=["warned_at"])
                alert_raise(
                    table=table,
                    kind="reservation_expiring",
                    params={**params, "minutes": int(RESERVATION_WARNING.total_seconds() // 60)},
                    severity=Alert.Severity.INFO,
                )
            else:
                continue
            changed += 1  # alert_raise moved the table's version on and publishes it
    return changed
