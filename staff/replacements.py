"""Croupier replacement: the inspector asks, the duty administrator decides, the tablet is
handed over at the next round boundary (docs/architecture.md, "Croupier replacement";
docs/sources.md#croupier-replacement). The request's lifecycle is declared on its model
(``ReplacementRequest.approve``, ``reject``, ``hand_over``)."""

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from floor.changes import table_changed
from floor.errors import Refused
from floor.models import TableFeed
from staff.models import ReplacementRequest, User
from staff.permissions import at, may
from staff.roles import TableRole
from staff.seats import seat_refusal
from staff.selectors import table_staff
from staff.services import assignment_start

CROUPIER_ROLES = (TableRole.DEALING_CROUPIER, TableRole.OBSERVING_CROUPIER)


def replacement_request(*, table, role: str, reason: str, requested_by: User):
    """The inspector of ``table`` asks for its croupier in ``role`` to be replaced.

    Refused when the person asking does not oversee the table now, when nobody holds the
    role, when the reason is empty, or when a request for that role is already open.
    """
    reason = (reason or "").strip()
    if role not in CROUPIER_ROLES:
        raise Refused("bad_role", _("Only a croupier can be replaced this way."))
    if not may("staff.replacement_request", requested_by, at(requested_by, table)):
        raise Refused(
            "not_inspector", _("Only the inspector of this table can request a replacement.")
        )
    if not reason:
        raise Refused("reason_required", _("Give the reason for the replacement."))
    with transaction.atomic():
        current = table_staff(table=table).get(role)
        if current is None:
            raise Refused("nobody", _("Nobody holds this role at this table."))
        open_request = ReplacementRequest.objects.select_for_update().filter(
            table=table,
            role=role,
            status__in=[ReplacementRequest.Status.REQUESTED, ReplacementRequest.Status.APPROVED],
        )
        if open_request.exists():
            raise Refused(
                "already_open", _("A replacement for this role at this table is already open.")
            )
        request = ReplacementRequest(
            table=table,
            role=role,
            current_person=current,
            reason=reason[:1000],
            requested_by=requested_by,
        )
        request.full_clean()
        request.save()
        table_changed(table.pk, duty=True)
    return request


def _decided(request_id: int, decided_by: User):
    if not may("staff.replacement_decide", decided_by):
        raise Refused("not_duty", _("Only the duty administrator decides a replacement."))
    # No select_related: PostgreSQL refuses FOR UPDATE on the nullable side of an outer join.
    request = ReplacementRequest.objects.select_for_update().get(pk=request_id)
    if request.status != ReplacementRequest.Status.REQUESTED:
        raise Refused(
            "already_decided",
            _("This request was already decided (%(status)s by %(person)s): nothing changed.")
            % {
                "status": request.get_status_display(),
                "person": request.decided_by.display_name if request.decided_by else "—",
            },
        )
    if request.requested_by_id == decided_by.pk:
        raise Refused(
            "own_request",
            _("Who asks never decides: another duty administrator decides your own request."),
        )
    return request


def replacement_approve(*, request_id: int, decided_by: User, replacement: User, note: str = ""):
    """The duty administrator approves, naming the croupier who takes over.

    The replacement must hold the role and work no other table; the hand-over happens at
    once when no round is open at the table, otherwise when its round closes or is voided
    (:func:`replacement_hand_over_due`). Deciding a request twice is refused.
    """
    with transaction.atomic():
        request = _decided(request_id, decided_by)
        if replacement is None or not replacement.is_active:
            raise Refused("no_replacement", _("Name the croupier who takes over."))
        if not replacement.has_role(request.role):
            raise Refused(
                "role_missing",
                _("%(person)s does not hold the role %(role)s.")
                % {"person": replacement.display_name, "role": request.get_role_display()},
            )
        if replacement.pk == request.current_person_id:
            raise Refused("same_person", _("The replacement must be another person."))
        refusal = seat_refusal(replacement, request.table, request.role)
        if refusal is not None:
            raise refusal
        request.decided_by = decided_by
        request.decided_at = timezone.now()
        request.replacement = replacement
        request.decision_note = (note or "").strip()[:1000]
        request.approve()
        request.full_clean()
        request.save()
        table_changed(request.table_id, duty=True)
        replacement_hand_over_due(table=request.table)
    request.refresh_from_db()
    return request


def replacement_reject(*, request_id: int, decided_by: User, note: str):
    """The duty administrator rejects a request, saying why. Deciding twice is refused."""
    note = (note or "").strip()
    if not note:
        raise Refused("note_required", _("Say why the request is rejected."))
    with transaction.atomic():
        request = _decided(request_id, decided_by)
        request.decided_by = decided_by
        request.decided_at = timezone.now()
        request.decision_note = note[:1000]
        request.reject()
        request.full_clean()
        request.save()
        table_changed(request.table_id, duty=True)
    return request


def replacement_hand_over_due(*, table) -> list:
    """Hand over every approved replacement of ``table`` if no round is open there.

    Called when a request is approved and by ``game.services`` when a round is closed or
    voided (inside that command's transaction, so the next command is already refused to
    the old croupier). A hand-over that cannot happen (the replacement took another table
    meanwhile) stays approved and is tried again at the next boundary; it never blocks the
    round's own command.
    """
    # Under the feed row's lock: a round cannot open at this table while we hand over.
    feed = TableFeed.objects.select_for_update().filter(pk=table.pk).first()
    if feed is not None and feed.round_open:
        return []
    done = []
    for request in (
        ReplacementRequest.objects.select_for_update()
        .filter(table=table, status=ReplacementRequest.Status.APPROVED)
        .order_by("decided_at")
    ):
        try:
            with transaction.atomic():
                assignment_start(
                    table=table,
                    user=request.replacement,
                    role=request.role,
                    assigned_by=request.decided_by,
                    replace=True,
                )
                request.hand_over()
                request.handed_over_at = timezone.now()
                request.save(update_fields=["status", "handed_over_at"])
        except ValidationError:
            continue
        done.append(request)
    if done:
        table_changed(table.pk, duty=True)
    return done
