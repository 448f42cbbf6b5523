"""What each checklist step records and checks: one handler per step code.

A handler gets the step's context and returns the details kept with the step (shown on the
table's page and in its history); it refuses with ``Refused`` and then nothing is recorded.
Steps without a handler (the spread checked, turned, mixed, shuffled, shoe loaded, sign
out) record only who did them and when.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal

from django.utils.translation import gettext as _

from floor.alerts import alert_raise
from floor.errors import Refused
from floor.models import Alert, TableFeed
from floor.parsing import record_id, whole_number
from staff import seats
from staff.models import User
from staff.roles import Role, TableRole
from staff.selectors import table_staff
from tables.checklists import float_discrepancy_lines
from tables.chips import CENT
from tables.models import Checklist, ChipCount, Table
from tables.selectors import last_chip_count
from tables.services.chips import chip_count_record
from tables.services.reservations import reservations_clear

MAX_DECKS = 8


@dataclass
class Step:
    checklist: Checklist
    data: dict
    by: User

    @property
    def table(self) -> Table:
        return self.checklist.table

    @property
    def opening(self) -> bool:
        return self.checklist.kind == Checklist.Kind.OPENING


def _compare(counts: dict, total: Decimal, reference: dict, reference_total: Decimal) -> tuple:
    """The difference of a count from a reference count: in total, and by denomination
    (only the denominations that differ, as chips counted minus chips expected)."""
    by_denomination = {
        d: counts.get(d, 0) - reference.get(d, 0)
        for d in sorted(set(counts) | set(reference), key=Decimal)
        if counts.get(d, 0) != reference.get(d, 0)
    }
    return str((total - reference_total).quantize(CENT)), by_denomination


def _par(table: Table) -> tuple[dict, Decimal] | None:
    """The table's par float by denomination and its total, or None where none is set."""
    par = {str(d): n for d, n in (table.par_float or {}).items()}
    if not par:
        return None
    return par, sum((Decimal(d) * n for d, n in par.items()), Decimal(0)).quantize(CENT)


def _float_alerts(step: Step, details: dict) -> None:
    """A critical money alert for each reference the opening float differs from (clearing
    one takes two people: tables.services.alerts)."""
    for kind, reference, difference, by in (
        ("float_par_difference", "par", "par_difference", "par_by_denomination"),
        ("float_difference", "reference", "difference", "by_denomination"),
    ):
        if details.get(reference) is None:
            continue
        if details[difference] == "0.00" and not details[by]:
            continue
        params = {"opener": details["total"], "difference": details[difference]}
        params["par" if reference == "par" else "closer"] = details[reference]
        alert_raise(
            table_id=step.table.pk,
            kind=kind,
            params=params,
            severity=Alert.Severity.CRITICAL,
            raised_by=step.by,
        )


def _chip_float(step: Step) -> dict:
    """The float counted by denomination: the closer (the next opener's reference), or the
    opener — compared with the table's par float and with the last closing count. An opener
    that differs from either is a discrepancy: refused without a note saying why (the
    refusal says what differs, by denomination and in total), recorded with the note, a
    critical alert per difference, and the inspector signs the checklist acknowledging it
    (``tables.services.lifecycle.checklist_sign``)."""
    table = step.table
    count = chip_count_record(
        table=table,
        kind=ChipCount.Kind.OPENER if step.opening else ChipCount.Kind.CLOSER,
        counts=step.data.get("counts") or {},
        counted_by=step.by,
    )
    details = {"chip_count": count.pk, "counts": count.counts, "total": str(count.total)}
    if not step.opening:
        return details
    reference = last_chip_count(table=table, kind=ChipCount.Kind.CLOSER)
    if reference is not None:
        difference, by = _compare(count.counts, count.total, reference.counts, reference.total)
        details.update(reference=str(reference.total), difference=difference, by_denomination=by)
    par = _par(table)
    if par is not None:
        difference, by = _compare(count.counts, count.total, *par)
        details.update(par=str(par[1]), par_difference=difference, par_by_denomination=by)
    lines = float_discrepancy_lines(details)
    details["discrepancy"] = bool(lines)
    if lines:
        note = str(step.data.get("note") or "").strip()[:500]
        if not note:
            raise Refused(
                "float_note_required",
                _(
                    "The chip float differs. %(what)s Count it again, or write a note saying "
                    "why to record it: the inspector and the duty administrator are alerted."
                )
                % {"what": " ".join(lines)},
            )
        details["note"] = note
        _float_alerts(step, details)
    return details


def _cards(step: Step) -> dict:
    decks = whole_number(step.data.get("decks"), low=1, high=MAX_DECKS)
    if decks is None:
        raise Refused("bad_decks", _("Enter the number of decks (1 to 8)."))
    if decks != step.table.decks:
        raise Refused(
            "decks_differ",
            _(
                "The table's rule set plays %(rules)s decks, not %(counted)s: load "
                "%(rules)s decks, or change the rule set first."
            )
            % {"rules": step.table.decks, "counted": decks},
        )
    return {"decks": decks}


def _cut(step: Step) -> dict:
    """Where the pack was cut: the cards above the cut, about — the position is recorded
    (docs/sources.md#opening-procedure)."""
    size = step.table.decks * 52
    above = whole_number(step.data.get("cut_at"), low=1, high=size - 1)
    if above is None:
        raise Refused(
            "bad_cut_position",
            _("Enter where the pack was cut: the cards above the cut, 1 to %(most)s.")
            % {"most": size - 1},
        )
    return {"cut_at": above}


def _cut_card(step: Step) -> dict:
    """The cards behind the cut card, within the rule set's window
    (docs/sources.md#cut-card-position)."""
    least, most = step.table.cut_window
    behind = whole_number(step.data.get("cards_behind_cut"), low=least, high=most)
    if behind is None:
        raise Refused(
            "bad_cut",
            _("The cut card must leave between %(low)s and %(high)s cards behind it.")
            % {"low": least, "high": most},
        )
    return {"cards_behind_cut": behind}


def _cash_box(step: Step) -> dict:
    seal = str(step.data.get("seal") or "").strip()[:64]
    if not seal:
        raise Refused("seal_required", _("Enter the seal number."))
    if not step.data.get("tip_box"):
        raise Refused("tip_box_missing", _("The tip box must be in place."))
    return {"seal": seal, "tip_box": True}


def _staff(step: Step) -> dict:
    crew = seats.crew_refusal(step.table)  # three different people in the three seats
    if crew is not None:
        raise crew
    staff = table_staff(table=step.table)
    return {role: staff[role].display_name for role in TableRole.values}


def _last_round(step: Step) -> dict:
    feed = TableFeed.objects.filter(pk=step.table.pk).first()
    if feed is not None and feed.round_open:
        raise Refused("round_in_progress", _("A round is still in progress: finish it first."))
    return {"round": feed.round_number if feed else None}


def _reservations(step: Step) -> dict:
    return {"cleared": reservations_clear(table=step.table, by=step.by)}


# Who may witness the drop box leaving the table: not a croupier of the floor.
WITNESS_ROLES = (Role.INSPECTOR, Role.DUTY_ADMINISTRATOR, Role.PIT_BOSS)


def _drop_box(step: Step) -> dict:
    """The seal, who removed the box (an active person) and the witness. The witness proved
    who he is: ``data["witness"]`` is the person whose own password was typed on the form
    (``tables.services.witness_authenticate``), never a name picked from a list; he is
    active, holds a role that may witness and is not the one removing the box."""
    seal = str(step.data.get("seal") or "").strip()[:64]
    if not seal:
        raise Refused("seal_required", _("Enter the seal number."))
    removed_by = User.objects.filter(
        pk=record_id(step.data.get("removed_by")), is_active=True
    ).first()
    witness = step.data.get("witness")
    if removed_by is None:
        raise Refused("people_required", _("Name who removed the drop box and the witness."))
    if not isinstance(witness, User) or witness.pk is None:
        raise Refused(
            "witness_unproven", _("The witness enters his own name and password on the form.")
        )
    witness = User.objects.filter(pk=witness.pk, is_active=True).first()
    if witness is None or not any(witness.has_role(role) for role in WITNESS_ROLES):
        raise Refused(
            "witness_role",
            _(
                "%(name)s cannot witness the drop box: only an active inspector, duty "
                "administrator or pit boss may."
            )
            % {"name": step.data["witness"].display_name},
        )
    if removed_by == witness:
        raise Refused(
            "same_person", _("The witness must be another person than the one removing it.")
        )
    return {
        "seal": seal,
        "removed_by": removed_by.display_name,
        "removed_by_id": removed_by.pk,
        "witness": witness.display_name,
        "witness_id": witness.pk,
    }


STEP_HANDLERS: dict[str, Callable[[Step], dict]] = {
    "chip_float": _chip_float,
    "cards": _cards,
    "cut": _cut,
    "cut_card": _cut_card,
    "cash_box": _cash_box,
    "staff": _staff,
    "last_round": _last_round,
    "reservations": _reservations,
    "drop_box": _drop_box,
}


def step_details(step: Step, code: str) -> dict:
    """Check and record what step ``code`` needs; ``{}`` for a step that needs nothing."""
    handler = STEP_HANDLERS.get(code)
    return handler(step) if handler is not None else {}
