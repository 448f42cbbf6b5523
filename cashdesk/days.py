"""The gaming day: its exceptions resolved (two people where the figure needs it), the day
closed — refused while a controller would object, or with what is still open waived — and
sealed, and reopened (docs/cashdesk.md)."""

import datetime as dt

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.utils.translation import ngettext

from cashdesk.gaming import day_window, gaming_day_of
from cashdesk.models import (
    GamingDayClose,
    Resolution,
)
from cashdesk.selectors import (
    day_close_objections,
    exception_of,
    figure_authors,
)
from cashdesk.services import (
    _EXCEPTION_MODELS,
    _require_act,
    _require_day_open,
    _save,
)
from floor.changes import duty_changed
from floor.errors import Refused
from floor.ledger import day_seal, day_verify
from staff.roles import Role
from tables.models import Table
from tables.services import signer_authenticate
from tables.services.signatures import second_signer

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
                status=GamingDayClose.Status.OPEN,
                gaming_day=gaming_day,
                closed_by=actor,
                closed_at=timezone.now(),
                waiver_reason=waiver_reason if waived else "",
                waiver_second_by=other if waived else None,
                waived=waived,
            )
            close.close()
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
        close.reopen()
        _save(close)
        duty_changed()
    return close
