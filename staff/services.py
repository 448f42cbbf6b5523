"""Write paths for people, roles, PINs and table assignments."""

import re

from django.conf import settings
from django.contrib.auth.hashers import check_password, make_password
from django.contrib.auth.models import Group, Permission
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from staff.models import TableAssignment, User
from staff.roles import ROLE_PERMISSIONS, Role, TableRole

# ASCII digits only: \d would also take other scripts' digits, and $ a trailing newline.
PIN_RE = re.compile(r"^[0-9]{4,6}\Z")


class PinError(Exception):
    """A PIN sign-in was refused; ``str(error)`` is the message for the screen."""


def role_group(role: str) -> Group:
    """The group of ``role`` with its permission (created by a migration; made again if
    a database flush removed it)."""
    group, created = Group.objects.get_or_create(name=role)
    if created:
        codename = ROLE_PERMISSIONS[Role(role)][0]
        group.permissions.add(
            Permission.objects.get(codename=codename, content_type__app_label="staff")
        )
    return group


def user_grant_roles(*, user: User, roles: list[str]) -> None:
    """Add the person to the groups of ``roles`` (idempotent)."""
    for role in roles:
        if role not in Role.values:
            raise ValidationError(_("Unknown role: %(role)s") % {"role": role})
        user.groups.add(role_group(role))
    user._roles_cache = None


def pin_set(*, user: User, pin: str) -> None:
    """Store a new table PIN (4 to 6 digits), hashed, and clear any lockout."""
    if not PIN_RE.match(pin or ""):
        raise ValidationError(_("A PIN is 4 to 6 digits."))
    user.pin_hash = make_password(pin)
    user.pin_failures = 0
    user.pin_locked_at = None
    user.save(update_fields=["pin_hash", "pin_failures", "pin_locked_at"])


def pin_authenticate(*, identifier: str, pin: str) -> User:
    """Return the active person whose username or employee number and PIN match.

    Every wrong PIN counts against that person; after ``PIN_MAX_FAILURES`` wrong tries the
    PIN is locked until a duty administrator unlocks it. Raises :class:`PinError`.
    """
    identifier = (identifier or "").strip()
    generic = PinError(_("Wrong name or PIN."))
    if not identifier or not pin:
        raise generic
    with transaction.atomic():
        user = (
            User.objects.select_for_update()
            .filter(Q(username__iexact=identifier) | Q(employee_number=identifier), is_active=True)
            .first()
        )
        if user is None or not user.pin_hash:
            raise generic
        if user.pin_locked_at is not None:
            raise PinError(
                _("This PIN is locked after too many wrong tries. Ask the duty administrator.")
            )
        if PIN_RE.match(pin) and check_password(pin, user.pin_hash):
            if user.pin_failures:
                user.pin_failures = 0
                user.save(update_fields=["pin_failures"])
            return user
        user.pin_failures += 1
        fields = ["pin_failures"]
        if user.pin_failures >= settings.PIN_MAX_FAILURES:
            user.pin_locked_at = timezone.now()
            fields.append("pin_locked_at")
        user.save(update_fields=fields)
    if user.pin_locked_at is not None:
        raise PinError(
            _("Too many wrong tries: this PIN is now locked. Ask the duty administrator.")
        )
    left = settings.PIN_MAX_FAILURES - user.pin_failures
    raise PinError(_("Wrong name or PIN. Tries left before the lock: %(left)d.") % {"left": left})


def pin_unlock(*, user: User, unlocked_by: User) -> None:
    """Clear a PIN lockout (the duty administrator's action)."""
    if not unlocked_by.has_role(Role.DUTY_ADMINISTRATOR) and not unlocked_by.is_superuser:
        raise ValidationError(_("Only the duty administrator unlocks a PIN."))
    user.pin_failures = 0
    user.pin_locked_at = None
    user.save(update_fields=["pin_failures", "pin_locked_at"])


def user_set_language(*, user: User, language: str) -> None:
    if language not in dict(settings.LANGUAGES):
        raise ValidationError(_("Unknown language."))
    user.preferred_language = language
    user.save(update_fields=["preferred_language"])


def assignment_start(
    *, table, user: User, role: str, assigned_by: User | None = None, replace: bool = False
) -> TableAssignment:
    """Put a person on a table in a table role from now on.

    At most one person holds each table role at a time; ``replace`` ends the current holder's
    assignment first (a croupier replacement). A croupier works one table at a time; an
    inspector may oversee several.
    """
    if role not in TableRole.values:
        raise ValidationError(_("Unknown table role: %(role)s") % {"role": role})
    if not user.has_role(role):
        raise ValidationError(
            _("%(person)s does not hold the role %(role)s.")
            % {"person": user.display_name, "role": TableRole(role).label}
        )
    now = timezone.now()
    with transaction.atomic():
        current = (
            TableAssignment.objects.select_for_update()
            .filter(table=table, role=role, ends_at__isnull=True)
            .first()
        )
        if current is not None:
            if current.user_id == user.pk:
                return current
            if not replace:
                raise ValidationError(
                    _("%(person)s already holds this role at this table.")
                    % {"person": current.user.display_name}
                )
            current.ends_at = now
            current.save(update_fields=["ends_at"])
            _revoke_screens_on_commit(table_id=table.pk, user_id=current.user_id)
        if role != TableRole.INSPECTOR:
            elsewhere = TableAssignment.objects.filter(
                user=user,
                ends_at__isnull=True,
                role__in=[TableRole.DEALING_CROUPIER, TableRole.OBSERVING_CROUPIER],
            )
            if elsewhere.exists():
                raise ValidationError(
                    _("%(person)s is already working at another table or role.")
                    % {"person": user.display_name}
                )
        assignment = TableAssignment(
            table=table, user=user, role=role, starts_at=now, assigned_by=assigned_by
        )
        assignment.full_clean()
        assignment.save()
    return assignment


def assignment_end(*, assignment: TableAssignment) -> None:
    """End a current assignment now (history is kept)."""
    if assignment.ends_at is None:
        assignment.ends_at = timezone.now()
        assignment.save(update_fields=["ends_at"])
        _revoke_screens_on_commit(table_id=assignment.table_id, user_id=assignment.user_id)


def _revoke_screens_on_commit(*, table_id: int, user_id: int) -> None:
    """A person whose assignment ended loses the table's live screens at once (their open
    sockets close with 4403), not only their right to send commands."""

    def revoke():
        from asgiref.sync import async_to_sync
        from channels.layers import get_channel_layer

        from game.publish import table_group

        async_to_sync(get_channel_layer().group_send)(
            table_group(table_id),
            {"type": "table.revoke", "table_id": table_id, "user_id": user_id},
        )

    transaction.on_commit(revoke)


# -- croupier replacement -------------------------------------------------------------------

CROUPIER_ROLES = (TableRole.DEALING_CROUPIER, TableRole.OBSERVING_CROUPIER)


def _publish_replacements_on_commit(table_id: int | None = None) -> None:
    """After the write commits: the duty administrators' panel, and the table's screens
    (whose staff line changes when a croupier hands over)."""

    def publish():
        from staff.publish import publish_replacements

        publish_replacements()
        if table_id is not None:
            from game.publish import publish_table

            publish_table(table_id)

    transaction.on_commit(publish)


def replacement_request(*, table, role: str, reason: str, requested_by: User):
    """The inspector of ``table`` asks for its croupier in ``role`` to be replaced.

    Refused when the person asking does not oversee the table now, when nobody holds the
    role, when the reason is empty, or when a request for that role is already open.
    """
    from staff.models import ReplacementRequest
    from staff.selectors import table_staff

    reason = (reason or "").strip()
    if role not in CROUPIER_ROLES:
        raise ValidationError(_("Only a croupier can be replaced this way."), code="bad_role")
    if (
        not requested_by.has_role(Role.INSPECTOR)
        or not TableAssignment.objects.filter(
            table=table, user=requested_by, role=TableRole.INSPECTOR, ends_at__isnull=True
        ).exists()
    ):
        raise ValidationError(
            _("Only the inspector of this table can request a replacement."), code="not_inspector"
        )
    if not reason:
        raise ValidationError(_("Give the reason for the replacement."), code="reason_required")
    with transaction.atomic():
        current = table_staff(table=table).get(role)
        if current is None:
            raise ValidationError(_("Nobody holds this role at this table."), code="nobody")
        open_request = ReplacementRequest.objects.select_for_update().filter(
            table=table,
            role=role,
            status__in=[ReplacementRequest.Status.REQUESTED, ReplacementRequest.Status.APPROVED],
        )
        if open_request.exists():
            raise ValidationError(
                _("A replacement for this role at this table is already open."),
                code="already_open",
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
        _publish_replacements_on_commit()
    return request


def _decided(request_id: int, decided_by: User):
    from staff.models import ReplacementRequest

    if not decided_by.has_role(Role.DUTY_ADMINISTRATOR):
        raise ValidationError(
            _("Only the duty administrator decides a replacement."), code="not_duty"
        )
    # No select_related: PostgreSQL refuses FOR UPDATE on the nullable side of an outer join.
    request = ReplacementRequest.objects.select_for_update().get(pk=request_id)
    if request.status != ReplacementRequest.Status.REQUESTED:
        raise ValidationError(
            _("This request was already decided (%(status)s by %(person)s): nothing changed.")
            % {
                "status": request.get_status_display(),
                "person": request.decided_by.display_name if request.decided_by else "—",
            },
            code="already_decided",
        )
    if request.requested_by_id == decided_by.pk:
        raise ValidationError(
            _("Who asks never decides: another duty administrator decides your own request."),
            code="own_request",
        )
    return request


def replacement_approve(*, request_id: int, decided_by: User, replacement: User, note: str = ""):
    """The duty administrator approves, naming the croupier who takes over.

    The replacement must hold the role and work no other table; the hand-over happens at
    once when no round is open at the table, otherwise when its round closes or is voided
    (:func:`replacement_hand_over_due`). Deciding a request twice is refused.
    """
    from staff.models import ReplacementRequest

    with transaction.atomic():
        request = _decided(request_id, decided_by)
        if replacement is None or not replacement.is_active:
            raise ValidationError(_("Name the croupier who takes over."), code="no_replacement")
        if not replacement.has_role(request.role):
            raise ValidationError(
                _("%(person)s does not hold the role %(role)s.")
                % {"person": replacement.display_name, "role": request.get_role_display()},
                code="role_missing",
            )
        if replacement.pk == request.current_person_id:
            raise ValidationError(_("The replacement must be another person."), code="same_person")
        if TableAssignment.objects.filter(
            user=replacement, ends_at__isnull=True, role__in=CROUPIER_ROLES
        ).exists():
            raise ValidationError(
                _("%(person)s is already working at another table or role.")
                % {"person": replacement.display_name},
                code="busy",
            )
        request.status = ReplacementRequest.Status.APPROVED
        request.decided_by = decided_by
        request.decided_at = timezone.now()
        request.replacement = replacement
        request.decision_note = (note or "").strip()[:1000]
        request.full_clean()
        request.save()
        replacement_hand_over_due(table=request.table)
        _publish_replacements_on_commit(request.table_id)
    request.refresh_from_db()
    return request


def replacement_reject(*, request_id: int, decided_by: User, note: str):
    """The duty administrator rejects a request, saying why. Deciding twice is refused."""
    from staff.models import ReplacementRequest

    note = (note or "").strip()
    if not note:
        raise ValidationError(_("Say why the request is rejected."), code="note_required")
    with transaction.atomic():
        request = _decided(request_id, decided_by)
        request.status = ReplacementRequest.Status.REJECTED
        request.decided_by = decided_by
        request.decided_at = timezone.now()
        request.decision_note = note[:1000]
        request.full_clean()
        request.save()
        _publish_replacements_on_commit()
    return request


def replacement_hand_over_due(*, table) -> list:
    """Hand over every approved replacement of ``table`` if no round is open there.

    Called when a request is approved and by ``game.services`` when a round is closed or
    voided (inside that command's transaction, so the next command is already refused to
    the old croupier). A hand-over that cannot happen (the replacement took another table
    meanwhile) stays approved and is tried again at the next boundary; it never blocks the
    round's own command.
    """
    from game.models import LiveTable
    from staff.models import ReplacementRequest

    live_row = LiveTable.objects.filter(table=table).select_related("current_round").first()
    if live_row is not None and live_row.current_round and live_row.current_round.is_open:
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
                request.status = ReplacementRequest.Status.DONE
                request.handed_over_at = timezone.now()
                request.save(update_fields=["status", "handed_over_at"])
        except ValidationError:
            continue
        done.append(request)
    if done:
        _publish_replacements_on_commit(table.pk)
    return done
