"""Corrections of a counted figure, and their second signature (issue 19, item 4;
docs/cashdesk.md, "Corrections of a counted figure").

A counted figure — a table's drop (``DropCount``), a count of its chip float
(``tables.ChipCount``: opener, closer, spot), a cash-in's amount after the observer's blind
recount (``CashInCorrection``) — is never edited. A correction is a new record pointing at
the one it corrects, signed by its author with a note, and it counts only once a second
person has confirmed it with his own name and password: another duty administrator or the
table's inspector, never the author of the correction or of any earlier version of the
figure, never a croupier of the table (``tables.services.signatures.second_signer``). Until
then it is an open exception (``cashdesk.selectors.open_exceptions``) that keeps the day
from closing, and the reports keep the figure in force, marked as pending.

A newer correction of the same figure supersedes a pending one (a mistyped correction); only
the newest can be confirmed. The password is checked before anything is locked (a wrong one
is counted by the sign-in throttle and never rolled back with a refusal); the record is
checked again under its table's row lock, which the day close takes too.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cashdesk.gaming import counts, gaming_day_of
from cashdesk.models import CashIn, CashInCorrection, DropCount, GamingDayClose
from cashdesk.selectors import figure_authors
from cashdesk.services import (
    _bounded,
    _lock_player_card_day,
    _lock_table,
    _require_act,
    _require_day_open,
    _save,
    player_day_alert,
    player_day_total,
)
from floor.changes import table_changed
from floor.errors import Refused
from staff.permissions import at, may
from tables.models import ChipCount
from tables.services.chips import chip_count_record
from tables.services.signatures import second_signer


def _require_author(act: str, actor, table) -> None:
    """Who may enter a correction (staff.permissions): of a chip count, the table's
    inspector, a duty administrator or the pit boss (who counts the float at the
    checklists); of a cash-in, the inspector (who registers the table's cash) or a duty
    administrator."""
    if not may(act, actor, at(actor, table)):
        raise Refused("forbidden", _("You are not allowed to correct this figure."))


def _note(note: str) -> str:
    note = (note or "").strip()[:2000]
    if not note:
        raise Refused("no_note", _("A correction needs a note saying why."))
    return note


def _require_pending(row) -> None:
    """``row`` is a correction awaiting its confirmation, the newest of its figure."""
    if not row.correction:
        raise Refused("not_a_correction", _("This is the first count, not a correction."))
    if row.confirmed_at is not None:
        raise Refused("signed", _("This correction is already confirmed."))
    if hasattr(row, "replaced_by"):
        raise Refused(
            "superseded",
            _("A newer correction replaced this one: confirm the newest, or correct it again."),
        )


def _confirm(
    row, *, model, table_id: int, day: dt.date, author, authors, signature: dict, then=None
):
    """The shared second signature: check, authenticate the second person, then record him
    under the table's lock after checking the record again. ``then(other)``: what the
    confirmation sets off, in the same transaction (``other``: the second person)."""
    _require_day_open(day)
    _require_pending(row)
    other = second_signer(first=author, table_id=table_id, authors=authors, **signature)
    with transaction.atomic():
        _lock_table(table_id)  # no new correction or day close in between
        row = model.objects.select_for_update().get(pk=row.pk)
        _require_day_open(day)
        _require_pending(row)
        before = then.before() if then else None
        row.confirmed_by = other
        row.confirmed_at = timezone.now()
        _save(row)
        if then:
            then.after(before, actor=other)
        table_changed(table_id, duty=True)
    return row


def _signature(request, second: str, second_password: str) -> dict:
    return {"request": request, "identifier": second, "secret": second_password}


# -- the drop -------------------------------------------------------------------------------


def drop_correction_confirm(
    *, drop: DropCount, actor, request=None, second: str = "", second_password: str = ""
) -> DropCount:
    """The second signature of a drop correction (``cashdesk.services.drop_enter`` records
    it): ``second`` with his own password, never an author of any version of the figure.
    ``actor`` is the duty administrator at the screen."""
    _require_act("cashdesk.duty_desk", actor)
    row = DropCount.objects.select_related("counted_by").get(pk=drop.pk)
    return _confirm(
        row,
        model=DropCount,
        table_id=row.table_id,
        day=row.gaming_day,
        author=row.counted_by,
        authors=figure_authors({"kind": "drop", "object": row}),
        signature=_signature(request, second, second_password),
    )


# -- chip counts ----------------------------------------------------------------------------


def count_day(moment: dt.datetime) -> dt.date:
    """The gaming day a chip count counted at ``moment`` belongs to: its own, or the next
    when its own was already closed then (as every record made after a close:
    ``cashdesk.services._record_day``)."""
    day = gaming_day_of(moment)
    closed = GamingDayClose.objects.filter(gaming_day=day, reopened_at__isnull=True).first()
    if closed is not None and moment > closed.closed_at:
        day += dt.timedelta(days=1)
    return day


def _newest(row):
    while hasattr(row, "replaced_by"):
        row = row.replaced_by
    return row


def chip_count_authors(row: ChipCount) -> set[int]:
    """Whoever counted or corrected any version of a chip count."""
    ids = set()
    while row is not None:
        ids.add(row.counted_by_id)
        row = row.replaces
    return ids


def chip_count_correct(*, count: ChipCount, counts: dict, note: str, actor) -> ChipCount:
    """Correct a chip count (opener, closer or spot): a new count of the same kind and
    moment, by denomination, pointing at the newest version of the count (a pending
    correction is superseded), with a note; it counts once confirmed
    (:func:`chip_count_correction_confirm`)."""
    _require_author("cashdesk.chip_count_correct", actor, count.table)
    note = _note(note)
    with transaction.atomic():
        table = _lock_table(count.table_id)
        newest = _newest(ChipCount.objects.get(pk=count.pk))
        _require_day_open(count_day(newest.counted_at))
        correction = chip_count_record(
            table=table,
            kind=newest.kind,
            counts=counts,
            counted_by=actor,
            counted_at=newest.counted_at,
            replaces=newest,
            note=note,
        )
        table_changed(table.pk, duty=True)  # an open exception until confirmed
    return correction


def chip_count_correction_confirm(
    *, count: ChipCount, actor, request=None, second: str = "", second_password: str = ""
) -> ChipCount:
    """The second signature of a chip count's correction (see the module's doc)."""
    _require_act("cashdesk.duty_desk", actor)
    row = ChipCount.objects.select_related("counted_by").get(pk=count.pk)
    return _confirm(
        row,
        model=ChipCount,
        table_id=row.table_id,
        day=count_day(row.counted_at),
        author=row.counted_by,
        authors=chip_count_authors(row),
        signature=_signature(request, second, second_password),
    )


# -- cash-ins -------------------------------------------------------------------------------


def cash_in_correct(*, cash_in: CashIn, notes: dict, note: str, actor) -> CashInCorrection:
    """Correct a cash-in's amount after the observer's blind recount: the notes counted by
    denomination and a note; it points at the cash-in and at the correction it supersedes,
    and counts once confirmed (:func:`cash_in_correction_confirm`)."""
    _require_author("cashdesk.cash_in_correct", actor, cash_in.table)
    note = _note(note)
    note_counts, amount = counts(notes, settings.CASH_NOTE_DENOMINATIONS, what=_("notes"))
    _bounded(amount)
    with transaction.atomic():
        _lock_table(cash_in.table_id)
        row = CashIn.objects.select_for_update().get(pk=cash_in.pk)
        _require_day_open(row.gaming_day)
        if row.status == CashIn.Status.AWAITING_RECOUNT:
            raise Refused(
                "waiting",
                _("The observer has not recounted this cash-in yet: it is corrected after that."),
            )
        previous = row.corrections.filter(replaced_by__isnull=True).order_by("-pk").first()
        correction = CashInCorrection(
            cash_in=row,
            replaces=previous,
            notes=note_counts,
            amount=amount,
            note=note,
            corrected_by=actor,
            corrected_at=timezone.now(),
        )
        _save(correction)
        table_changed(row.table_id, duty=True)
    return correction


def cash_in_correction_authors(correction: CashInCorrection) -> set[int]:
    """The cash-in's dealer and observer, and every author of a correction of it."""
    cash_in = correction.cash_in
    ids = {cash_in.entered_by_id, cash_in.recounted_by_id}
    ids |= set(cash_in.corrections.values_list("corrected_by_id", flat=True))
    return {i for i in ids if i}


def cash_in_correction_confirm(
    *,
    correction: CashInCorrection,
    actor,
    request=None,
    second: str = "",
    second_password: str = "",
) -> CashInCorrection:
    """The second signature of a cash-in's correction (see the module's doc)."""
    _require_act("cashdesk.duty_desk", actor)
    row = CashInCorrection.objects.select_related("cash_in", "corrected_by").get(pk=correction.pk)
    return _confirm(
        row,
        model=CashInCorrection,
        table_id=row.cash_in.table_id,
        day=row.cash_in.gaming_day,
        author=row.corrected_by,
        authors=cash_in_correction_authors(row),
        signature=_signature(request, second, second_password),
        then=_PlayerDay(row.cash_in) if row.cash_in.player_card else None,
    )


class _PlayerDay:
    """A confirmed correction changes the player's day total: it may cross the threshold
    the cash-in alone did not (or no longer crosses it: the alert raised stays raised)."""

    def __init__(self, cash_in: CashIn):
        self.cash_in = cash_in

    def before(self) -> Decimal:
        c = self.cash_in
        _lock_player_card_day(c.gaming_day, c.player_card)
        return player_day_total(c.gaming_day, c.player_card)

    def after(self, before: Decimal, *, actor) -> None:
        c = self.cash_in
        now = player_day_total(c.gaming_day, c.player_card)
        player_day_alert(
            table_id=c.table_id, card=c.player_card, before=before, now=now, actor=actor
        )
