"""Fill and credit slips: requested by the inspector, issued by the duty administrator,
received at the table, voided by two more signatures with a reason (docs/cashdesk.md)."""

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cashdesk.gaming import counts
from cashdesk.models import (
    Slip,
    SlipCounter,
)
from cashdesk.services import (
    _bounded,
    _lock_table,
    _record_day,
    _require_act,
    _require_day_open,
    _require_table_act,
    _save,
)
from floor.alerts import alert_raise
from floor.changes import duty_changed
from floor.errors import Refused
from staff.permissions import at, may
from tables.models import Table


def slip_request(*, table: Table, actor, kind: str, counts_by_denomination: dict) -> Slip:
    """The inspector asks for a fill or a credit: the slip gets the next number of the
    gaming day for its kind."""
    _require_table_act("cashdesk.slip_request", actor, table)
    if kind not in Slip.Kind.values:
        raise Refused("bad_kind", _("Choose fill or credit."))
    chip_counts, total = counts(counts_by_denomination, table.chip_denominations, what=_("chips"))
    _bounded(total)
    now = timezone.now()
    with transaction.atomic():
        _lock_table(table.pk)
        day, _shift = _record_day(now)
        SlipCounter.objects.get_or_create(gaming_day=day, kind=kind)
        counter = SlipCounter.objects.select_for_update().get(gaming_day=day, kind=kind)
        counter.last += 1
        counter.save(update_fields=["last"])
        slip = Slip(
            kind=kind,
            gaming_day=day,
            number=counter.last,
            table=table,
            counts=chip_counts,
            total=total,
            requested_by=actor,
            requested_at=now,
        )
        _save(slip)
        if total >= settings.SLIP_ALERT_AMOUNT:
            alert_raise(
                table_id=table.pk,
                kind="slip_large",
                params={
                    "slip": slip.label,
                    "amount": str(total),
                    "threshold": settings.SLIP_ALERT_AMOUNT,
                },
                raised_by=actor,
            )
        duty_changed()
    return slip


def _locked(slip: Slip) -> Slip:
    _lock_table(slip.table_id)  # a void (an exception) cannot race the day close
    row = Slip.objects.select_for_update(of=("self",)).select_related("table").get(pk=slip.pk)
    _require_day_open(row.gaming_day)
    return row


def _signers(slip: Slip) -> set:
    ids = {slip.requested_by_id, slip.issued_by_id, slip.received_by_id}
    return {i for i in ids if i}


def slip_issue(*, slip: Slip, actor) -> Slip:
    """The duty administrator's signature: the chips are issued (fill) or taken (credit)."""
    _require_act("cashdesk.duty_desk", actor)
    return _slip_sign(slip, actor, "issued")


def slip_receive(*, slip: Slip, actor) -> Slip:
    """A croupier of the table signs that the chips arrived (fill) or left (credit)."""
    _require_table_act("cashdesk.slip_receive", actor, slip.table)
    return _slip_sign(slip, actor, "received")


def _slip_sign(slip: Slip, actor, step: str) -> Slip:
    """A slip's ``issued`` or ``received`` signature (the caller checked the role): once per
    step, in order (received after issued), never on a voided slip, never a second
    signature of one person."""
    with transaction.atomic():
        row = _locked(slip)
        if row.voided_at or getattr(row, f"{step}_at"):
            raise Refused("signed", _("This slip is already signed at this step."))
        if step == "received" and not row.issued_at:
            raise Refused("not_issued", _("The slip is not issued yet."))
        if actor.pk in _signers(row):
            raise Refused("same_person", _("One person cannot sign a slip twice."))
        setattr(row, f"{step}_by", actor)
        setattr(row, f"{step}_at", timezone.now())
        if step == "issued":
            row.issue()
        else:
            row.receive()
        _save(row)
        duty_changed()
    return row


def slip_void(*, slip: Slip, actor, reason: str = "") -> Slip:
    """Void a slip: the first signature gives the reason, a second person confirms. The
    slip itself is never changed otherwise and keeps its number."""
    with transaction.atomic():
        row = _locked(slip)
        if not may("cashdesk.slip_void", actor, at(actor, row.table)):
            raise Refused("forbidden", _("You are not allowed to do this."))
        now = timezone.now()
        if row.void_confirmed_at:
            raise Refused("signed", _("This slip is already voided."))
        if row.voided_at is None:
            if not (reason or "").strip():
                raise Refused("no_reason", _("Give the reason for the void."))
            row.void_reason = reason.strip()
            row.voided_by = actor
            row.voided_at = now
            row.void_request()
        else:
            if actor.pk == row.voided_by_id:
                raise Refused("same_person", _("One person cannot sign a slip twice."))
            row.void_confirmed_by = actor
            row.void_confirmed_at = now
            row.void_confirm()
        _save(row)
        duty_changed()
    return row
