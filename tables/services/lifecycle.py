"""A table's lifecycle: closed → opening → open → closing → closed, through the opening and
closing checklists (docs/sources.md#opening-procedure, docs/sources.md#closing-procedure), each
signed by two people."""

from __future__ import annotations

from django.contrib.auth import authenticate
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django_fsm import TransitionNotAllowed

from floor.changes import table_changed
from floor.errors import Refused
from staff.roles import Role
from staff.selectors import inspects
from staff.throttle import sign_in_name, throttled_message
from tables.checklists import CARD_SEQUENCE, float_discrepancy_lines, step_codes, step_label
from tables.formats import number_text
from tables.models import Checklist, ChecklistStep, Table, TableChange
from tables.services.steps import Step, step_details

# Each status move is a transition of the table (tables.models.Table: opening_start, open,
# closing_start, close — declared there once, with their guards).
MOVES = {
    Table.Status.OPENING: Table.opening_start,
    Table.Status.OPEN: Table.open,
    Table.Status.CLOSING: Table.closing_start,
    Table.Status.CLOSED: Table.close,
}


def _move(table: Table, to_status: str, by) -> TableChange:
    from_status = table.status
    try:
        MOVES[to_status](table)
    except TransitionNotAllowed:
        raise Refused(
            "bad_transition",
            _("A %(from)s table cannot become %(to)s.")
            % {"from": Table.Status(from_status).label, "to": Table.Status(to_status).label},
        )
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
    table_changed(table.pk, duty=True)
    return change


def checklist_start(*, table: Table, kind: str, started_by) -> Checklist:
    """Begin opening (closed → opening) or closing (open → closing) a table."""
    target = {
        Checklist.Kind.OPENING: Table.Status.OPENING,
        Checklist.Kind.CLOSING: Table.Status.CLOSING,
    }[kind]
    with transaction.atomic():
        table = Table.objects.select_for_update(no_key=True).get(pk=table.pk)
        _move(table, target, started_by)
        checklist = Checklist(table=table, kind=kind, started_by=started_by)
        checklist.full_clean()
        checklist.save()
    return checklist


def checklist_current(*, table: Table) -> Checklist | None:
    """The checklist under way (the table is opening or closing), or None."""
    return table.checklist_under_way()


def checklist_step_record(*, checklist: Checklist, step: str, done_by, data=None) -> ChecklistStep:
    """Record one step as done by ``done_by`` now, with what it needs
    (``tables.services.steps``). A step is done once; a refused step changes nothing."""
    if step not in step_codes(checklist.kind):
        raise Refused("bad_step", _("That is not a step of this checklist."))
    with transaction.atomic():
        checklist = (
            Checklist.objects.select_for_update().select_related("table").get(pk=checklist.pk)
        )
        # Steps are recorded only while the checklist is in progress (Checklist.Status).
        if checklist.status == Checklist.Status.COMPLETED:
            raise Refused("checklist_done", _("This checklist is already complete."))
        if checklist.status != Checklist.Status.IN_PROGRESS:
            raise Refused("already_signed", _("The checklist is signed: no step can change."))
        done = set(checklist.steps.values_list("step", flat=True))
        if step in done:
            raise Refused("step_done", _("This step is already done."))
        _in_order(checklist, step, done)
        details = step_details(Step(checklist=checklist, data=data or {}, by=done_by), step)
        row = ChecklistStep(checklist=checklist, step=step, details=details, done_by=done_by)
        row.full_clean()
        try:
            with transaction.atomic():
                row.save()
        except IntegrityError:
            raise Refused("step_done", _("This step is already done."))
    return row


def _in_order(checklist: Checklist, step: str, done: set) -> None:
    """docs/sources.md#opening-procedure: the cards are prepared in the order the procedure
    writes (``CARD_SEQUENCE``): a step waits for the one before it (``step_out_of_order``)."""
    if checklist.kind != Checklist.Kind.OPENING or step not in CARD_SEQUENCE:
        return
    before = CARD_SEQUENCE[: CARD_SEQUENCE.index(step)]
    missing = [code for code in before if code not in done]
    if missing:
        raise Refused(
            "step_out_of_order",
            _(
                "First: %(step)s. The cards are prepared in this order: spread, the opening "
                "player's check, turned over, mixed, shuffled, cut, the cut card, the shoe."
            )
            % {"step": step_label(checklist.kind, missing[0])},
        )


def checklist_missing_steps(*, checklist: Checklist) -> list[str]:
    return checklist.missing_steps()


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
            raise Refused("throttled", throttled_message(request, sign_in_name(request, None)))
        raise Refused("bad_credential", _("Wrong name or password."))
    return user


def witness_authenticate(*, request, identifier: str, secret: str):
    """The drop box's witness proves who he is with his own password (throttled like every
    sign-in): the person, or a refusal in words naming the witness."""
    if not (identifier or "").strip() or not secret:
        raise Refused(
            "witness_unproven", _("The witness enters his own name and password on the form.")
        )
    try:
        return signer_authenticate(request=request, identifier=identifier, secret=secret)
    except Refused as refusal:
        if refusal.code != "bad_credential":
            raise
        raise Refused("witness_bad_credential", _("The witness's name or password is wrong."))


SIGNER_ROLES = {
    "pit_boss": (Role.PIT_BOSS,),
    "second": (Role.INSPECTOR,),
}
CLOSING_SECOND_ROLES = (Role.INSPECTOR, Role.DUTY_ADMINISTRATOR)


def _signer_roles(checklist: Checklist, slot: str) -> tuple:
    if slot == "second" and checklist.kind == Checklist.Kind.CLOSING:
        return CLOSING_SECOND_ROLES
    return SIGNER_ROLES[slot]


def _check_signer(checklist: Checklist, slot: str, signer) -> None:
    """The signer holds the slot's role, is not the other signer, and — as the inspector —
    oversees this table (at closing the duty administrator may sign instead)."""
    roles = _signer_roles(checklist, slot)
    if not any(signer.has_role(role) for role in roles):
        raise Refused(
            "wrong_signer",
            _("%(name)s cannot sign here: this signature needs the role %(role)s.")
            % {
                "name": signer.display_name,
                "role": ", ".join(str(Role(r).label) for r in roles),
            },
        )
    other = "second_signed_by_id" if slot == "pit_boss" else "pit_boss_signed_by_id"
    if getattr(checklist, other) == signer.pk:
        raise Refused("same_signer", _("The two signatures must be of two different people."))
    duty_may_sign = Role.DUTY_ADMINISTRATOR in roles and signer.has_role(Role.DUTY_ADMINISTRATOR)
    if (
        slot == "second"
        and not duty_may_sign
        and not inspects(user=signer, table_id=checklist.table_id)
    ):
        raise Refused(
            "not_this_table",
            _("%(name)s is not an inspector of this table.") % {"name": signer.display_name},
        )


def float_discrepancy(checklist: Checklist) -> dict | None:
    """The opening float's discrepancy (its step's details) when it differs from the par
    or the last closing count, else None."""
    if checklist.kind != Checklist.Kind.OPENING:
        return None
    step = checklist.steps.filter(step="chip_float").first()
    if step is None or not step.details.get("discrepancy"):
        return None
    return step.details


def _acknowledgement(checklist: Checklist, slot: str, acknowledge: bool) -> dict:
    """What the inspector's signature acknowledges: the opening float's discrepancy, which
    he signs for only explicitly (``acknowledge``), or nothing."""
    found = float_discrepancy(checklist) if slot == "second" else None
    if found is None:
        return {}
    if not acknowledge:
        raise Refused(
            "discrepancy_unacknowledged",
            _(
                "The chip float differs: %(what)s The inspector signs only acknowledging "
                "it (tick the box above the signature)."
            )
            % {"what": " ".join(float_discrepancy_lines(found))},
        )
    return found


def checklist_sign(
    *, checklist: Checklist, slot: str, signer, acknowledge: bool = False
) -> Checklist:
    """Sign ``checklist`` in ``slot`` (``pit_boss`` or ``second``: the inspector; at closing
    the inspector or the duty administrator). ``signer`` must have proved their own credential
    (:func:`signer_authenticate`). Every step must be done; two different people sign.
    Where the opening float differs from the par or the last closing count, the inspector
    signs only with ``acknowledge`` and his signature keeps what he acknowledged."""
    if slot not in SIGNER_ROLES:
        raise Refused("bad_slot", _("Unknown signature."))
    with transaction.atomic():
        checklist = Checklist.objects.select_for_update().get(pk=checklist.pk)
        if checklist.status == Checklist.Status.COMPLETED:
            raise Refused("checklist_done", _("This checklist is already complete."))
        if checklist_missing_steps(checklist=checklist):
            raise Refused("steps_missing", _("Sign only when every step is done."))
        mine = "pit_boss_signed_by_id" if slot == "pit_boss" else "second_signed_by_id"
        if getattr(checklist, mine) is not None:
            raise Refused("already_signed", _("This signature is already given."))
        _check_signer(checklist, slot, signer)
        acknowledged = _acknowledgement(checklist, slot, acknowledge)
        if acknowledged:
            checklist.acknowledged = acknowledged
        setattr(checklist, mine, signer.pk)
        setattr(checklist, mine.replace("_by_id", "_at"), timezone.now())
        checklist.sign()  # its guard: every step done, this signature given
        checklist.full_clean()
        checklist.save()
    return checklist


def player_edge(table: Table) -> bool:
    """Whether the table's rule set gives the players the edge (a negative house edge, as the
    open-cards game read literally: about +0.37 % for the player, docs/sources.md#presets)."""
    return table.house_edge is not None and table.house_edge < 0


def _complete(
    table: Table, kind: str, to_status: str, by, accept_player_edge: bool = False
) -> Table:
    with transaction.atomic():
        table = Table.objects.select_for_update(no_key=True).get(pk=table.pk)
        checklist = checklist_current(table=table)
        if checklist is None or checklist.kind != kind:
            raise Refused("no_checklist", _("Start the checklist first."))
        if checklist_missing_steps(checklist=checklist):
            raise Refused("steps_missing", _("Every step of the checklist must be done first."))
        if not checklist.signed:
            raise Refused("unsigned", _("The checklist needs both signatures first."))
        opening = to_status == Table.Status.OPEN
        if opening and player_edge(table) and not accept_player_edge:
            raise Refused(
                "player_edge",
                _(
                    "With this rule set the players have the edge (house edge %(edge)s %%): "
                    "confirm that the table opens with it."
                )
                % {"edge": number_text(table.house_edge * 100, 2)},
            )
        change = _move(table, to_status, by)  # its guard: this checklist, done and signed
        checklist.completed_at = timezone.now()
        checklist.complete()  # its guard: both signatures, every step done
        checklist.save(update_fields=["completed_at", "status"])
        if opening:
            # Every shoe shuffled before this moment belongs to an earlier opening: the
            # live table starts a new one (game.services refuses a round on an older shoe).
            table.opened_at = change.changed_at
            table.save(update_fields=["opened_at"])
            if player_edge(table):
                change.changes = {"player_edge_accepted": str(table.house_edge)}
                change.save(update_fields=["changes"])
    return table


def table_open(*, table: Table, opened_by, accept_player_edge: bool = False) -> Table:
    """Open the table: every opening step done and both signatures given; where the rule
    set gives the players the edge, only with ``accept_player_edge`` (recorded with the
    opening in the table's history)."""
    return _complete(
        table,
        Checklist.Kind.OPENING,
        Table.Status.OPEN,
        opened_by,
        accept_player_edge=accept_player_edge,
    )


def table_close(*, table: Table, closed_by) -> Table:
    """Close the table: every closing step done and both signatures given."""
    return _complete(table, Checklist.Kind.CLOSING, Table.Status.CLOSED, closed_by)
