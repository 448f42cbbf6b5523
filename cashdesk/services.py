"""Write paths of the cash desk. Every function is keyword-only, checks who acts, validates,
then saves inside one transaction; nothing here edits a signed record."""

import datetime as dt
from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.utils.translation import ngettext

from cashdesk.gaming import CENT, counts, day_window, gaming_day_of, money, shift_of
from cashdesk.models import (
    CashIn,
    CashInChipsGiven,
    CashInRegistration,
    DropCount,
    GamingDayClose,
    PlayerCardDay,
    Resolution,
    RoundResult,
    Slip,
    SlipCounter,
    Submission,
    Tip,
)
from cashdesk.selectors import (
    corrected_cash_ins,
    day_close_objections,
    exception_of,
    figure_authors,
)
from floor.alerts import alert_raise
from floor.changes import duty_changed, table_changed
from floor.errors import Refused
from floor.forms import player_card_value
from floor.ledger import day_seal, day_verify
from floor.models import Alert
from floor.parsing import box_number
from staff.permissions import at, may
from staff.roles import Role
from tables.formats import money as money_text
from tables.models import Table
from tables.services import signer_authenticate
from tables.services.signatures import second_signer


def _require_table_act(act: str, actor, table: Table) -> str:
    """The person's role at ``table`` when they may do the table act ``act`` there
    (staff.permissions), else a refusal."""
    place = at(actor, table)
    if not may(act, actor, place):
        raise Refused("forbidden", _("You are not allowed to do this at this table."))
    return place.role


def _require_act(act: str, actor) -> None:
    """A refusal unless the person may do the floor act ``act`` (staff.permissions)."""
    if not may(act, actor):
        raise Refused("forbidden", _("You are not allowed to do this."))


def _standing_close(day: dt.date) -> GamingDayClose | None:
    """The day's close, unless it was reopened."""
    return GamingDayClose.objects.filter(gaming_day=day, reopened_at__isnull=True).first()


def _require_day_open(day: dt.date) -> None:
    if _standing_close(day) is not None:
        raise Refused(
            "day_closed", _("The gaming day %(day)s is closed.") % {"day": day.isoformat()}
        )


def _lock_table(table_id: int) -> Table:
    """Lock the table's row. The day close locks every table's row, so whatever a writer
    reads about the day (closed or not) after this lock stays true until it commits.

    ``FOR NO KEY UPDATE`` (not ``FOR UPDATE``): it excludes the other cash-desk writers and
    the day close all the same, but not the check PostgreSQL makes when another transaction
    commits rows pointing at this table (``FOR KEY SHARE``) — a dealer's command commits
    such rows after moving the table's screen sequence, which this writer moves next: with
    ``FOR UPDATE`` the two deadlocked."""
    return Table.objects.select_for_update(no_key=True).get(pk=table_id)


def _record_day(now: dt.datetime) -> tuple[dt.date, int]:
    """The gaming day and shift of a new record made at ``now``: its own — or, when that
    day is already closed (the duty administrator closed the current day and a table opened
    again before its end), the next gaming day, in its first shift. A closed day's figures
    never change; the next day cannot be closed yet (only a past or the current day can).
    Call it under ``_lock_table``."""
    day = gaming_day_of(now)
    if _standing_close(day) is not None:
        return day + dt.timedelta(days=1), 1
    return day, shift_of(now)


def _lock_player_card_day(day: dt.date, card: str) -> None:
    """Take the card's day lock: cash-ins with one card add up one after another."""
    PlayerCardDay.objects.get_or_create(gaming_day=day, player_card=card)
    PlayerCardDay.objects.select_for_update().get(gaming_day=day, player_card=card)


_EXCEPTION_MODELS = {
    Resolution.Kind.CASH_IN: CashIn,
    Resolution.Kind.SLIP: Slip,
    Resolution.Kind.DROP: DropCount,
}


def _save(obj) -> None:
    obj.full_clean()
    obj.save()


def _bounded(amount: Decimal) -> None:
    """Refuse an amount above ``CASH_AMOUNT_MAX`` (a typing error or an attack, never a
    real cash-in, tip, slip or drop)."""
    limit = Decimal(settings.CASH_AMOUNT_MAX)
    if amount > limit:
        raise Refused(
            "amount_too_large",
            _("%(amount)s is more than the largest amount accepted (%(limit)s): check the figure.")
            % {"amount": money_text(amount), "limit": money_text(limit)},
        )


class Repeated(Exception):
    """Not an error: this form was sent before; ``answer`` is what it was told then."""

    def __init__(self, answer: str):
        super().__init__(answer)
        self.answer = answer


def submitted_once(*, token: str, actor, kind: str, act, answer) -> str:
    """Run ``act()`` (a service call) once per idempotency ``token`` and return
    ``answer(result)``, the message for the person; kept with the token in the same
    transaction. A repeat of the token raises :class:`Repeated` with the first answer and
    records nothing — also when it arrives while the first is still being written (the
    token's unique index makes it wait for the first to commit). A token of another
    person's form is refused. A refused first try leaves no token: the form may be sent
    again."""
    with transaction.atomic():
        try:
            with transaction.atomic():
                row = Submission.objects.create(token=token, kind=kind, actor=actor)
        except IntegrityError:
            first = Submission.objects.filter(token=token).first()
            if first is None or first.actor_id != actor.pk or first.kind != kind:
                raise Refused("token_used", _("This form was already used: reload the page."))
            raise Repeated(first.answer)
        result = act()
        row.answer = str(answer(result))
        row.record = f"{result._meta.label_lower}:{result.pk}" if hasattr(result, "_meta") else ""
        row.save(update_fields=["answer", "record"])
    return row.answer


def cash_in_record(
    *,
    table: Table,
    actor,
    notes: dict,
    chips: dict,
    player_card: str = "",
    destination: str = CashIn.Destination.CASH_BOX,
) -> CashIn:
    """The dealing croupier's entry of a player's cash (notes by denomination) and the chips
    given for it. Raises the large cash-in and per-player-card alerts."""
    _require_table_act("cashdesk.cash_in", actor, table)
    if table.status != Table.Status.OPEN:
        raise Refused("table_closed", _("The table is not open."))
    note_counts, amount = counts(notes, settings.CASH_NOTE_DENOMINATIONS, what=_("notes"))
    chip_counts, chips_total = counts(chips, table.chip_denominations, what=_("chips"))
    _bounded(amount)
    if chips_total != amount:
        raise Refused(
            "chips_differ",
            _("Chips given (%(chips)s) must equal the cash (%(cash)s).")
            % {"chips": money_text(chips_total), "cash": money_text(amount)},
        )
    if destination not in CashIn.Destination.values:
        raise Refused("bad_destination", _("Choose where the cash goes."))
    player_card = player_card_value(player_card)
    now = timezone.now()
    with transaction.atomic():
        if _lock_table(table.pk).status != Table.Status.OPEN:
            raise Refused("table_closed", _("The table is not open."))
        day, shift = _record_day(now)
        cash_in = CashIn(
            table=table,
            gaming_day=day,
            shift=shift,
            notes=note_counts,
            amount=amount,
            chips=chip_counts,
            chips_total=chips_total,
            player_card=player_card,
            destination=destination,
            entered_by=actor,
            entered_at=now,
        )
        _save(cash_in)
        if amount >= settings.CASH_IN_ALERT_AMOUNT:
            alert_raise(
                table_id=table.pk,
                kind="cash_in_large",
                params={"amount": str(amount), "threshold": settings.CASH_IN_ALERT_AMOUNT},
                raised_by=actor,
            )
        if player_card:
            _lock_player_card_day(day, player_card)  # the sum below sees every earlier one
            total = player_day_total(day, player_card)
            player_day_alert(
                table_id=table.pk, card=player_card, before=total - amount, now=total, actor=actor
            )
        table_changed(table.pk, duty=True)  # the tile shows the shift's cash-ins
    return cash_in


def player_day_total(day: dt.date, card: str) -> Decimal:
    """What a player's card brought in on gaming day ``day``: its cash-ins at their amounts
    in force (a confirmed correction counts, not the amount entered). Call it under the
    card's day lock (``_lock_player_card_day``)."""
    rows = CashIn.objects.filter(gaming_day=day, player_card=card)
    entered = rows.aggregate(s=Sum("amount"))["s"] or Decimal(0)
    return entered + sum((c["delta"] for c in corrected_cash_ins(rows)), Decimal(0))


def player_day_alert(*, table_id: int, card: str, before: Decimal, now: Decimal, actor) -> None:
    """Alert once when a card's day total crosses the threshold (a cash-in, or a confirmed
    correction of one)."""
    limit = settings.CASH_IN_PLAYER_DAY_ALERT_AMOUNT
    if now >= limit > before:
        alert_raise(
            table_id=table_id,
            kind="cash_in_player_day",
            params={"card": card, "amount": str(now.quantize(CENT)), "threshold": limit},
            raised_by=actor,
        )


def cash_in_recount(*, cash_in: CashIn, actor, notes: dict) -> CashIn:
    """The observing croupier's blind recount: confirmed when it matches the dealer's
    figure, otherwise a mismatch alert for the inspector and the duty administrator."""
    _require_table_act("cashdesk.recount", actor, cash_in.table)
    note_counts, amount = counts(notes, settings.CASH_NOTE_DENOMINATIONS, what=_("notes"))
    with transaction.atomic():
        row = CashIn.objects.select_for_update().get(pk=cash_in.pk)
        _require_day_open(row.gaming_day)
        if row.status != CashIn.Status.AWAITING_RECOUNT:
            raise Refused("signed", _("This cash-in is already recounted."))
        if row.entered_by_id == actor.pk:
            raise Refused("same_person", _("The same person cannot recount his own entry."))
        row.recount_notes = note_counts
        row.recount_amount = amount
        row.recounted_by = actor
        row.recounted_at = timezone.now()
        match = amount == row.amount and note_counts == row.notes
        row.status = CashIn.Status.CONFIRMED if match else CashIn.Status.MISMATCH
        _save(row)
        if not match:
            alert_raise(
                table_id=row.table_id,
                kind="recount_mismatch",
                params={"entered": str(row.amount), "recounted": str(amount), "cash_in": row.pk},
                severity=Alert.Severity.CRITICAL,
                raised_by=actor,
            )
        table_changed(row.table_id, duty=True)
    return row


def cash_in_inspector_confirm(*, cash_in: CashIn, actor) -> CashInRegistration:
    """The inspector registers a cash-in: one tap, his name and the time, for every cash-in
    that reaches the table (docs/sources.md#inspector-registers-cash) — for one going to the
    pit cash desk it also says he took the notes there (docs/sources.md#cash-in). Once."""
    _require_table_act("cashdesk.cash_in_confirm", actor, cash_in.table)
    with transaction.atomic():
        row = CashIn.objects.select_for_update().get(pk=cash_in.pk)
        _require_day_open(row.gaming_day)
        if CashInRegistration.objects.filter(cash_in=row).exists():
            raise Refused("signed", _("This cash-in is already registered."))
        registration = CashInRegistration(
            cash_in=row, registered_by=actor, registered_at=timezone.now()
        )
        _save(registration)
        table_changed(row.table_id, duty=True)
    return registration


def cash_in_chips_give(*, cash_in: CashIn, actor) -> CashInChipsGiven:
    """The dealing croupier gives the player the chips for his cash (docs/sources.md#cash-in:
    the notes are recounted by the observing croupier and dropped into the cash box, «после
    чего крупье выдает чипы»): refused before the recount (``chips_before_recount``), after
    a recount that differs until a correction of it is confirmed (``chips_after_mismatch``),
    and — for a cash-in going to the pit cash desk — before the inspector took the notes
    (``chips_before_inspector``); once (``chips_given``)."""
    _require_table_act("cashdesk.cash_in_chips", actor, cash_in.table)
    with transaction.atomic():
        row = CashIn.objects.select_for_update().get(pk=cash_in.pk)
        _require_day_open(row.gaming_day)
        _chips_may_be_given(row)
        given = CashInChipsGiven(cash_in=row, given_by=actor, given_at=timezone.now())
        _save(given)
        table_changed(row.table_id, duty=True)
    return given


def _chips_may_be_given(row: CashIn) -> None:
    if CashInChipsGiven.objects.filter(cash_in=row).exists():
        raise Refused("chips_given", _("The chips for this cash-in are already given."))
    if row.status == CashIn.Status.AWAITING_RECOUNT:
        raise Refused(
            "chips_before_recount",
            _(
                "Not yet: the observing croupier recounts the notes and drops them into the "
                "cash box first; then give the chips."
            ),
        )
    if (
        row.status == CashIn.Status.MISMATCH
        and not row.corrections.filter(confirmed_by__isnull=False).exists()
    ):
        raise Refused(
            "chips_after_mismatch",
            _(
                "The recount differs from the entry: no chips until the inspector or the duty "
                "administrator corrects the amount and a second person confirms it."
            ),
        )
    unregistered = not CashInRegistration.objects.filter(cash_in=row).exists()
    if row.destination == CashIn.Destination.PIT_CASH_DESK and unregistered:
        raise Refused(
            "chips_before_inspector",
            _(
                "Not yet: the inspector takes the notes to the pit cash desk and confirms "
                "first; then give the chips."
            ),
        )


def tip_record(*, table: Table, actor, box, amount, note: str = "") -> Tip:
    """Chips given to the dealing croupier into the tip box (docs/sources.md#tips): only at an
    open table, and — a tip being a part of a win — from a box that won the table's last
    round, or with a note saying why."""
    _require_table_act("cashdesk.tip", actor, table)
    if table.status != Table.Status.OPEN:
        raise Refused("table_closed", _("The table is not open."))
    value = money(amount)
    _bounded(value)
    number = box_number(box)
    if number is None:
        raise Refused("bad_box", _("Choose a box."))
    if number not in table.box_numbers:
        raise Refused("bad_box", _("There is no box %(box)s at this table.") % {"box": number})
    note = (note or "").strip()[:500]
    last = (
        RoundResult.objects.filter(table=table, voided=False).order_by("-closed_at", "-pk").first()
    )
    if not note and (last is None or number not in last.winning_boxes):
        raise Refused(
            "tip_note_required",
            _(
                "Box %(box)s did not win the last round: a tip is part of a win. Write a "
                "note saying why to record it."
            )
            % {"box": number},
        )
    now = timezone.now()
    with transaction.atomic():
        _lock_table(table.pk)
        day, shift = _record_day(now)
        tip = Tip(
            table=table,
            gaming_day=day,
            shift=shift,
            box=number,
            amount=value,
            recorded_by=actor,
            recorded_at=now,
            note=note,
        )
        _save(tip)
        if value >= settings.TIP_ALERT_AMOUNT:
            alert_raise(
                table_id=table.pk,
                kind="tip_large",
                params={
                    "amount": str(value),
                    "box": number,
                    "threshold": settings.TIP_ALERT_AMOUNT,
                },
                raised_by=actor,
            )
        table_changed(table.pk, duty=True)  # the tile shows the shift's tips
    return tip


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
        else:
            if actor.pk == row.voided_by_id:
                raise Refused("same_person", _("One person cannot sign a slip twice."))
            row.void_confirmed_by = actor
            row.void_confirmed_at = now
        _save(row)
        duty_changed()
    return row


def drop_enter(*, table: Table, gaming_day: dt.date, amount, actor, note: str = "") -> DropCount:
    """The counted drop of a table for a gaming day. A second entry is a correction: it
    needs a note, points at the latest entry (a correction still pending is superseded:
    only the newest can be confirmed) and counts only once a second person confirms it
    (:func:`drop_correction_confirm`); until then it is an open exception and the reports
    keep the figure in force."""
    _require_act("cashdesk.duty_desk", actor)
    value = money(amount)
    _bounded(value)
    with transaction.atomic():
        # Lock the table's row: two entries for one table take turns (the current drop is
        # found through a reverse one-to-one, an outer join that cannot be locked itself),
        # and the day close (which locks every table) waits for this entry or refuses it.
        _lock_table(table.pk)
        _require_day_open(gaming_day)
        current = DropCount.objects.filter(
            table=table, gaming_day=gaming_day, replaced_by__isnull=True
        ).first()
        if current is not None and not (note or "").strip():
            raise Refused("signed", _("The drop is already entered: a correction needs a note."))
        drop = DropCount(
            table=table,
            gaming_day=gaming_day,
            amount=value,
            note=(note or "").strip(),
            counted_by=actor,
            entered_at=timezone.now(),
            replaces=current,
        )
        _save(drop)
        duty_changed()  # a correction is an open exception until confirmed
    return drop


WAITING_REFUSALS = {
    "confirmation": _lazy("the correction awaits a second person's confirmation"),
    "recount": _lazy("the observing croupier's blind recount is not done"),
    "inspector": _lazy("the inspector has not confirmed the cash-in at the pit cash desk"),
    "signatures": _lazy("the slip is not signed by all three"),
    "void": _lazy("the void awaits its second signature"),
}


def _resolvable(kind: str, object_id: int, seen: str | None) -> dict:
    """The open exception of the record, in the state the person saw (``seen``, its hash),
    and not waiting for what would finish it; else a refusal."""
    exception = exception_of(kind=kind, object_id=object_id)
    if exception is None:
        if Resolution.objects.filter(kind=kind, object_id=object_id).exists():
            raise Refused("signed", _("This exception is already resolved."))
        raise Refused(
            "no_exception", _("This record is not an open exception: nothing to resolve.")
        )
    if exception["waiting"]:
        raise Refused(
            "waiting",
            _("This record is not finished: %(what)s. It cannot be resolved before that.")
            % {"what": WAITING_REFUSALS[exception["waiting"]]},
        )
    if seen is not None and seen != exception["state_hash"]:
        raise Refused(
            "changed",
            _("This record changed since your page showed it: look at it again, then resolve."),
        )
    return exception


def exception_resolve(
    *,
    kind: str,
    object_id: int,
    actor,
    note: str,
    request=None,
    second: str = "",
    second_password: str = "",
    state: str | None = None,
) -> Resolution:
    """The duty administrator closes one open exception with a note, in the state it is in
    (``state``: the hash of the state his page showed; a record changed since is refused).
    It is signed by two people: he, and a second person with his own password (``second``:
    another duty administrator or the inspector of the record's table), and the second is
    never a person who entered or corrected the figure. Refused: a record that does not
    exist (yet), one that is no exception, one already resolved in this state, and one
    still waiting (a recount not done, a slip not signed, a void not confirmed, a pit-desk
    cash-in not confirmed by the inspector) — a resolution never accepts what is not there
    yet. Any later change of the record reopens the exception (``cashdesk.selectors``)."""
    _require_act("cashdesk.duty_desk", actor)
    if not (note or "").strip():
        raise Refused("no_note", _("Write what was done about it."))
    if _EXCEPTION_MODELS.get(kind) is None or object_id is None:
        raise Refused("no_exception", _("No such exception."))
    if not _EXCEPTION_MODELS[kind].objects.filter(pk=object_id).exists():
        raise Refused("no_exception", _("No such exception."))
    seen = _resolvable(kind, object_id, state)
    _require_day_open(seen["day"])
    other = second_signer(
        request=request,
        identifier=second,
        secret=second_password,
        first=actor,
        table_id=seen["table"].pk,
        authors=figure_authors(seen),
    )
    return _resolution_save(seen, actor=actor, note=note.strip(), second=other)


def _resolution_save(seen: dict, *, actor, note: str, second) -> Resolution:
    """Record the resolution of the exception ``seen`` in the state it is in, read again
    under the record's row lock (a recount or a signature cannot slip in between)."""
    kind, object_id = seen["kind"], seen["object"].pk
    try:
        with transaction.atomic():
            row = _EXCEPTION_MODELS[kind].objects.select_for_update().get(pk=object_id)
            _require_day_open(row.gaming_day)
            exception = _resolvable(kind, object_id, seen["state_hash"])
            resolution = Resolution(
                kind=kind,
                object_id=object_id,
                note=note,
                resolved_by=actor,
                resolved_at=timezone.now(),
                state=exception["state"],
                state_hash=exception["state_hash"],
                second_by=second,
            )
            _save(resolution)
            duty_changed()  # the duty screen lists the open exceptions
    except (IntegrityError, ValidationError) as error:
        if isinstance(error, Refused):
            raise
        if Resolution.objects.filter(
            kind=kind, object_id=object_id, state_hash=seen["state_hash"]
        ).exists():  # resolved a moment ago by another submit
            raise Refused("signed", _("This exception is already resolved."))
        raise
    return resolution


SECOND_DAY_ROLES = (Role.PIT_BOSS, Role.DUTY_ADMINISTRATOR)
REOPEN_SECOND_ROLES = SECOND_DAY_ROLES


def _day_signatures(*, request, actor, password: str, second: str, second_password: str):
    """The two signatures of a day's waiver or reopen: the duty administrator again with his
    own password, and a pit boss or another duty administrator with his name and password
    (``authenticate``, throttled like every sign-in). The second person, or a refusal."""
    me = signer_authenticate(request=request, identifier=actor.get_username(), secret=password)
    if me.pk != actor.pk:
        raise Refused("bad_credential", _("Wrong name or password."))
    other = signer_authenticate(request=request, identifier=second, secret=second_password)
    if other.pk == actor.pk:
        raise Refused("same_person", _("The second signature must be another person's, not yours."))
    if not any(other.has_role(role) for role in SECOND_DAY_ROLES):
        raise Refused(
            "forbidden",
            _("The second signature must be a pit boss's or another duty administrator's."),
        )
    return other


def _objections_text(objections: dict) -> str:
    """What keeps a day from closing, in words."""
    parts = []
    if objections["no_drop"]:
        parts.append(
            _("no counted drop for %(tables)s, which played")
            % {"tables": ", ".join(str(t) for t in objections["no_drop"])}
        )
    if objections["exceptions"]:
        n = len(objections["exceptions"])
        parts.append(ngettext("%(n)s open exception", "%(n)s open exceptions", n) % {"n": n})
    if objections["alerts"]:
        n = len(objections["alerts"])
        parts.append(
            ngettext("%(n)s open critical alert", "%(n)s open critical alerts", n) % {"n": n}
        )
    return "; ".join(parts)


def _waived(objections: dict) -> dict:
    """What a waiver accepted, kept with the close (and shown on the day's report)."""
    return {
        "no_drop": [str(t) for t in objections["no_drop"]],
        "exceptions": [
            {
                "kind": e["kind"],
                "record": e["object"].pk,
                "code": e["code"],
                "table": str(e["table"]),
            }
            for e in objections["exceptions"]
        ],
        "alerts": [
            {"alert": a.pk, "kind": a.kind, "table": str(a.table or "")}
            for a in objections["alerts"]
        ],
    }


def _day_close_guard(gaming_day: dt.date, tables: list, waiver: bool) -> dict:
    """Refuse the close while a table of the day is open, or — without a waiver — while a
    table that played has no counted drop, an exception or a critical alert is open. What
    a waiver accepts (or ``{}``)."""
    end = day_window(gaming_day)[1]
    still_open = [
        t
        for t in tables
        if t.status != Table.Status.CLOSED and (t.opened_at is None or t.opened_at < end)
    ]
    if still_open:
        raise Refused(
            "tables_open",
            _("Close every table first: %(tables)s is not closed.")
            % {"tables": ", ".join(str(t) for t in still_open)},
        )
    objections = day_close_objections(gaming_day=gaming_day)
    if not any(objections.values()):
        return {}
    if not waiver:
        raise Refused(
            "controls_open",
            _(
                "The gaming day cannot close yet: %(what)s. Count the drop, resolve the "
                "exceptions and clear the alerts — or close it with a waiver signed by two "
                "people."
            )
            % {"what": _objections_text(objections)},
        )
    return _waived(objections)


def _require_day_begun(gaming_day: dt.date) -> None:
    current = gaming_day_of(timezone.now())
    if gaming_day > current:
        raise Refused(
            "day_not_over",
            _(
                "The gaming day %(day)s has not begun: only a past gaming day or the current "
                "one (%(current)s) can be closed."
            )
            % {"day": gaming_day.isoformat(), "current": current.isoformat()},
        )


def gaming_day_close(
    *,
    gaming_day: dt.date,
    actor,
    request=None,
    waiver_reason: str = "",
    password: str = "",
    second: str = "",
    second_password: str = "",
) -> GamingDayClose:
    """Close a gaming day: only a past or the current one, with every table that opened
    before its end closed again, its record passing the tamper check
    (``floor.ledger.day_verify``), and what a controller asks: a counted drop for every
    table that played, no open exception, no open critical alert of the day. What is
    still open can be closed over only with a waiver: ``waiver_reason`` and two signatures
    (the duty administrator's own ``password``, and ``second``/``second_password`` of a pit
    boss or another duty administrator); the close keeps what was waived. Every table's row
    is locked while the day is checked and closed, so no cash record of the day can slip in
    between."""
    _require_act("cashdesk.duty_desk", actor)
    _require_day_begun(gaming_day)
    waiver_reason = (waiver_reason or "").strip()
    other = None
    if waiver_reason:
        other = _day_signatures(
            request=request,
            actor=actor,
            password=password,
            second=second,
            second_password=second_password,
        )
    try:
        with transaction.atomic():
            tables = list(Table.objects.select_for_update(no_key=True).order_by("number", "pk"))
            _require_day_open(gaming_day)
            waived = _day_close_guard(gaming_day, tables, waiver=other is not None)
            day_verify(gaming_day)  # a tampered record refuses the close (floor/ledger.py)
            close = GamingDayClose(
                gaming_day=gaming_day,
                closed_by=actor,
                closed_at=timezone.now(),
                waiver_reason=waiver_reason if waived else "",
                waiver_second_by=other if waived else None,
                waived=waived,
            )
            try:
                _save(close)
            except ValidationError:
                _require_day_open(gaming_day)  # closed a moment ago by another submit
                raise
            _day_seal(close)
            duty_changed()
    except IntegrityError:  # closed at the same moment by a second submit
        _require_day_open(gaming_day)
        raise
    return close


def _day_seal(close: GamingDayClose) -> None:
    """Seal the closed day (floor.ledger.day_seal): stored with the close by an UPDATE —
    a save would append a change of the close to the very chain being sealed."""
    close.sealed_heads, close.seal_key, close.seal = day_seal(close.gaming_day)
    GamingDayClose.objects.filter(pk=close.pk).update(
        sealed_heads=close.sealed_heads, seal_key=close.seal_key, seal=close.seal
    )


def gaming_day_reopen(
    *,
    request,
    gaming_day: dt.date,
    actor,
    password: str,
    second: str,
    second_password: str,
    reason: str,
) -> GamingDayClose:
    """Undo a gaming day's close, with two signatures: the duty administrator (``actor``,
    signing again with his own password) and a second person — a pit boss or another duty
    administrator — with his own name and password, and a reason. Passwords are checked
    through ``authenticate`` (throttled like every sign-in). The reopen is recorded on the
    close (a recorded change in the day's audit chain); after it the day takes records and
    can be closed again."""
    _require_act("cashdesk.duty_desk", actor)
    reason = (reason or "").strip()
    if not reason:
        raise Refused("no_reason", _("Give the reason for the reopen."))
    other = _day_signatures(
        request=request,
        actor=actor,
        password=password,
        second=second,
        second_password=second_password,
    )
    with transaction.atomic():
        close = (
            GamingDayClose.objects.select_for_update()
            .filter(gaming_day=gaming_day, reopened_at__isnull=True)
            .first()
        )
        if close is None:
            raise Refused(
                "day_not_closed",
                _("The gaming day %(day)s is not closed.") % {"day": gaming_day.isoformat()},
            )
        close.reopen_reason = reason
        close.reopened_by = actor
        close.reopen_confirmed_by = other
        close.reopened_at = timezone.now()
        _save(close)
        duty_changed()
    return close


def round_result_record(
    *,
    round_id: int,
    table_id: int,
    closed_at: dt.datetime,
    hands: int,
    total_bet: Decimal,
    players_net: Decimal,
    theoretical_win: Decimal,
    winning_boxes=(),
    voided: bool = False,
) -> RoundResult:
    """A closed round's figures for the reports, written by the live table's write path in
    the transaction that closes the round: exactly once per round, with it or not at all.
    The round's gaming day and shift are those of its close — or, when that gaming day is
    already closed, the next one (``_record_day``): a played round is never refused, and a
    closed day's figures never change."""
    day, shift = _record_day(closed_at)
    result = RoundResult(
        round_id=round_id,
        table_id=table_id,
        gaming_day=day,
        shift=shift,
        closed_at=closed_at,
        hands=hands,
        total_bet=total_bet,
        players_net=players_net,
        theoretical_win=theoretical_win.quantize(CENT),
        winning_boxes=sorted(winning_boxes),
        voided=voided,
    )
    result.save()
    return result
