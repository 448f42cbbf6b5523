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
