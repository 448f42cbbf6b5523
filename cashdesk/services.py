"""Write paths of the cash desk. Every function is keyword-only, checks who acts, validates,
then saves inside one transaction; nothing here edits a signed record."""

import datetime as dt
from decimal import Decimal

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from cashdesk.gaming import CENT, counts, gaming_day_of, shift_of
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
    Submission,
    Tip,
)
from cashdesk.selectors import (
    corrected_cash_ins,
)
from floor.alerts import alert_raise
from floor.changes import duty_changed, table_changed
from floor.errors import Refused
from floor.forms import amount_value, player_card_value
from floor.models import Alert
from floor.parsing import box_number
from staff.permissions import at, may
from tables.formats import money as money_text
from tables.models import Table


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
        match = row.recounted() == CashIn.Status.CONFIRMED
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
    value = amount_value(amount)
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


def drop_enter(*, table: Table, gaming_day: dt.date, amount, actor, note: str = "") -> DropCount:
    """The counted drop of a table for a gaming day. A second entry is a correction: it
    needs a note, points at the latest entry (a correction still pending is superseded:
    only the newest can be confirmed) and counts only once a second person confirms it
    (:func:`drop_correction_confirm`); until then it is an open exception and the reports
    keep the figure in force."""
    _require_act("cashdesk.duty_desk", actor)
    value = amount_value(amount)
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
    """A closed round's figures for the reports, written when the live table says the round
    closed (``floor.signals.round_closed``: ``cashdesk.receivers``) in the transaction that
    closes the round: exactly once per round, with it or not at all.
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
