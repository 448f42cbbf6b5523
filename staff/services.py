"""Write paths for people, roles, PINs and table assignments."""

import logging
import re

from axes.models import AccessAttempt, AccessFailureLog
from django.conf import settings
from django.contrib.auth import authenticate
from django.contrib.auth.hashers import check_password, make_password
from django.contrib.auth.models import Group, Permission
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from floor.alerts import alert_raise
from floor.changes import access_changed, table_changed
from floor.errors import Refused
from floor.models import Alert, TableFeed
from staff.models import RotationPlan, TableAssignment, User
from staff.roles import ROLE_PERMISSIONS, Role, TableRole
from staff.seats import seat_refusal
from staff.throttle import name_under_attack, sign_in_name, throttled_message, wait_notice

log = logging.getLogger(__name__)

# ASCII digits only: \d would also take other scripts' digits, and $ a trailing newline.
PIN_RE = re.compile(r"^[0-9]{4,6}\Z")


class PinError(Exception):
    """A PIN sign-in was refused; ``str(error)`` is the message for the screen."""

    def __init__(self, message: str, code: str = "wrong"):
        super().__init__(message)
        self.code = code


# Who signs in with a PIN at the table tablet; everyone else uses a password.
PIN_ROLES = (Role.DEALING_CROUPIER, Role.OBSERVING_CROUPIER)


def may_use_pin(user: User) -> bool:
    return any(user.has_role(role) for role in PIN_ROLES)


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
            raise Refused("unknown_role", _("Unknown role: %(role)s") % {"role": role})
        user.groups.add(role_group(role))
    user._roles_cache = None


def pin_set(*, user: User, pin: str) -> None:
    """Store a new table PIN (4 to 6 digits), hashed, and clear any lockout. Only croupiers
    sign in with a PIN."""
    if not may_use_pin(user):
        raise Refused(
            "not_croupier",
            _("Only croupiers sign in with a PIN; %(person)s signs in with a password.")
            % {"person": user.display_name},
        )
    if not PIN_RE.match(pin or ""):
        raise Refused("bad_pin", _("A PIN is 4 to 6 digits."))
    user.pin_hash = make_password(pin)
    user.pin_locked_at = None
    user.save(update_fields=["pin_hash", "pin_locked_at"])


def pin_check(*, identifier: str, pin: str) -> User:
    """The croupier whose username or employee number and PIN these are, or a
    :class:`PinError` (code ``wrong``, ``locked`` or ``not_croupier``).

    The check behind ``staff.backends.PinBackend``: screens sign in through
    ``django.contrib.auth.authenticate(request, pin_identifier=..., pin=...)``, which
    throttles the source first (staff/throttle.py). An unknown name costs one PIN hash like a
    known one and gets the same answer as a wrong PIN. A locked PIN (or a name under attack
    from several sources) is refused whatever the PIN; a right PIN of someone who is not a
    croupier says to use the password.
    """
    identifier = (identifier or "").strip()
    pin = pin or ""
    user = None
    if identifier and len(identifier) <= 150:
        user = (
            User.objects.filter(
                Q(username__iexact=identifier) | Q(employee_number=identifier), is_active=True
            )
            .order_by("pk")
            .first()
        )
    if user is not None and user.pin_hash:
        right = check_password(pin, user.pin_hash) and bool(PIN_RE.match(pin))
    else:
        make_password(pin)  # as long as a real check: no faster answer for an unknown name
        right = False
    name = user.username.lower() if user is not None else identifier.lower()
    if (user is not None and user.pin_locked_at is not None) or (
        user is None and name_under_attack(name)
    ):
        raise PinError(
            _("This PIN is locked after too many wrong tries. Ask the duty administrator."),
            code="locked",
        )
    if not right:
        raise PinError(_("Wrong name or PIN."))
    if not may_use_pin(user):
        raise PinError(
            _("PIN sign-in is for croupiers only: sign in with your password."),
            code="not_croupier",
        )
    return user


def pin_sign_in(*, request, identifier: str, pin: str) -> User:
    """Sign-in at the tablet: the throttled check (staff/throttle.py), then the PIN.

    Raises :class:`PinError` with the message for the screen: the same for an unknown name
    and a wrong PIN, with the wait the source now has; a source at its stop is told so.
    Wrong PINs for one name from several sources lock that person's PIN
    (:func:`pin_lock_if_attacked`).
    """
    user = authenticate(request, pin_identifier=identifier, pin=pin)
    if user is not None:
        return user
    name = sign_in_name(request, {"pin_identifier": identifier})
    request.sign_in_explained = True
    if getattr(request, "axes_locked_out", False):
        raise PinError(throttled_message(request, name), code="throttled")
    refusal = getattr(request, "pin_refusal", None) or PinError(_("Wrong name or PIN."))
    if refusal.code == "wrong" and pin_lock_if_attacked(name=name):
        refusal = PinError(
            _("This PIN is locked after too many wrong tries. Ask the duty administrator."),
            code="locked",
        )
    notice = wait_notice(request, name)
    raise PinError(f"{refusal} {notice}".strip(), code=refusal.code)


def pin_lock_if_attacked(*, name: str | None) -> bool:
    """Lock the PIN of the person called ``name`` once wrong PINs for that name came from
    several sources (:func:`staff.throttle.name_under_attack`), and alert the duty
    administrator. True when the name is (now) under attack, known or not."""
    if not name_under_attack(name):
        return False
    with transaction.atomic():
        user = (
            User.objects.select_for_update()
            .filter(username__iexact=name, pin_locked_at__isnull=True)
            .first()
        )
        if user is None:
            return True
        user.pin_locked_at = timezone.now()
        user.save(update_fields=["pin_locked_at"])
        pin_lock_alert(user)
    return True


def pin_lock_alert(user: User) -> None:
    """Tell the duty administrator that ``user``'s PIN was locked after wrong PINs from
    several sources: a critical alert on the duty home (no table), and the log."""
    log.warning(
        "PIN of %s locked after wrong PINs from several sources; unlock at /staff/lockouts/",
        user.username,
    )
    alert_raise(
        table_id=None,
        kind="pin_locked",
        params={"name": user.display_name},
        severity=Alert.Severity.CRITICAL,
    )


def pin_unlock(*, user: User, unlocked_by: User) -> None:
    """Clear a PIN lockout (the duty administrator's action), and forget the wrong tries
    counted against the name, so the next wrong PIN does not lock it again at once."""
    if not unlocked_by.has_role(Role.DUTY_ADMINISTRATOR) and not unlocked_by.is_superuser:
        raise Refused("not_duty", _("Only the duty administrator unlocks a PIN."))
    name = user.username.lower()
    with transaction.atomic():
        user.pin_locked_at = None
        user.save(update_fields=["pin_locked_at"])
        AccessAttempt.objects.filter(username=name).delete()
        AccessFailureLog.objects.filter(username=name).delete()
    log.info("PIN of %s unlocked by %s", user.username, unlocked_by.username)


def sign_in_source_lift(*, attempt_id: int, lifted_by: User) -> None:
    """Lift the wait or stop of one source (address and name) before it ends by itself."""
    if not lifted_by.has_role(Role.DUTY_ADMINISTRATOR) and not lifted_by.is_superuser:
        raise Refused("not_duty", _("Only the duty administrator lifts a stopped sign-in."))
    deleted, _rows = AccessAttempt.objects.filter(pk=attempt_id).delete()
    if deleted:
        log.info("sign-in source %s lifted by %s", attempt_id, lifted_by.username)


def user_set_language(*, user: User, language: str) -> None:
    if language not in dict(settings.LANGUAGES):
        raise Refused("bad_language", _("Unknown language."))
    user.preferred_language = language
    user.save(update_fields=["preferred_language"])


def assignment_start(
    *, table, user: User, role: str, assigned_by: User | None = None, replace: bool = False
) -> TableAssignment:
    """Put a person on a table in a table role from now on.

    At most one person holds each table role at a time; ``replace`` ends the current holder's
    assignment first (a croupier replacement). One seat per person per table, a croupier at
    one table at a time, an inspector over several (:func:`staff.seats.seat_refusal`).
    """
    if role not in TableRole.values:
        raise Refused("unknown_role", _("Unknown table role: %(role)s") % {"role": role})
    if not user.has_role(role):
        raise Refused(
            "role_missing",
            _("%(person)s does not hold the role %(role)s.")
            % {"person": user.display_name, "role": TableRole(role).label},
        )
    now = timezone.now()
    with transaction.atomic():
        # The person's row, locked: two assignments of one person cannot race past the
        # seat rule together.
        User.objects.select_for_update().filter(pk=user.pk).first()
        current = (
            TableAssignment.objects.select_for_update()
            .filter(table=table, role=role, ends_at__isnull=True)
            .first()
        )
        if current is not None and current.user_id == user.pk:
            return current
        refusal = seat_refusal(user, table, role)
        if refusal is not None:
            raise refusal
        if current is not None:
            if not replace:
                raise Refused(
                    "role_taken",
                    _("%(person)s already holds this role at this table.")
                    % {"person": current.user.display_name},
                )
            current.ends_at = now
            current.save(update_fields=["ends_at"])
            access_changed(user_id=current.user_id, table_id=table.pk)
        assignment = TableAssignment(
            table=table, user=user, role=role, starts_at=now, assigned_by=assigned_by
        )
        assignment.full_clean()
        assignment.save()
        table_changed(table.pk, duty=True)  # the staff line of the table's screens
        access_changed(user_id=user.pk, table_id=table.pk)  # e.g. a dashboard's new tile
    return assignment


def assignment_end(*, assignment: TableAssignment) -> None:
    """End a current assignment now (history is kept)."""
    """End a current assignment now (history is kept). The person's open screens of the
    table close at once (4403), not only their right to send commands."""
    if assignment.ends_at is None:
        with transaction.atomic():
            assignment.ends_at = timezone.now()
            assignment.save(update_fields=["ends_at"])
            access_changed(user_id=assignment.user_id, table_id=assignment.table_id)
            table_changed(assignment.table_id, duty=True)


# -- staffing the tables: the pit boss and the duty administrator ---------------------------

STAFFING_ROLES = (Role.PIT_BOSS, Role.DUTY_ADMINISTRATOR)


def _may_staff(person: User) -> None:
    if not any(person.has_role(role) for role in STAFFING_ROLES):
        raise Refused(
            "not_staffing",
            _("Only the pit boss or the duty administrator assigns staff to tables."),
        )


def _round_boundary(table_id: int, role: str) -> None:
    """A croupier changes only between rounds: the round in play is finished by whoever
    started it (an inspector may change at any time)."""
    if role == TableRole.INSPECTOR:
        return
    feed = TableFeed.objects.filter(pk=table_id).first()
    if feed is not None and feed.round_open:
        raise Refused(
            "round_open",
            _("Round %(round)s is in play at this table: the croupier changes when it is closed.")
            % {"round": feed.round_number},
        )


def staff_assign(*, table, role: str, user: User, assigned_by: User) -> TableAssignment:
    """Put ``user`` in ``role`` at ``table`` now, taking over from whoever holds it (who
    may be the planned relief of a break): the pit boss's or duty administrator's write
    path, through :func:`assignment_start`. Croupiers change only between rounds."""
    _may_staff(assigned_by)
    current = TableAssignment.objects.filter(table=table, role=role, ends_at__isnull=True).first()
    if current is not None and current.user_id != user.pk:
        _round_boundary(table.pk, role)
    return assignment_start(
        table=table, user=user, role=role, assigned_by=assigned_by, replace=True
    )


def staff_release(*, assignment: TableAssignment, released_by: User) -> None:
    """End a current assignment (the person leaves the table: a break, the end of the
    shift) through :func:`assignment_end`; croupiers only between rounds."""
    _may_staff(released_by)
    if assignment.ends_at is not None:
        raise Refused("ended", _("This assignment has already ended."))
    _round_boundary(assignment.table_id, assignment.role)
    assignment_end(assignment=assignment)


def staff_relieve(*, assignment: TableAssignment, relieved_by: User) -> TableAssignment:
    """The planned relief takes over now (the person goes on their break)."""
    if assignment.relief_id is None:
        raise Refused("no_relief", _("Plan who relieves this person first."))
    return staff_assign(
        table=assignment.table,
        role=assignment.role,
        user=assignment.relief,
        assigned_by=relieved_by,
    )


def relief_plan(*, assignment: TableAssignment, relief: User | None, planned_by: User) -> None:
    """Name who relieves ``assignment`` at its next break (None: nobody planned yet)."""
    _may_staff(planned_by)
    if assignment.ends_at is not None:
        raise Refused("ended", _("This assignment has already ended."))
    if relief is not None:
        if relief.pk == assignment.user_id:
            raise Refused("same_person", _("The relief must be another person."))
        if not relief.has_role(assignment.role):
            raise Refused(
                "wrong_role",
                _("%(person)s does not hold the role %(role)s.")
                % {"person": relief.display_name, "role": TableRole(assignment.role).label},
            )
    with transaction.atomic():
        assignment.relief = relief
        assignment.full_clean()
        assignment.save(update_fields=["relief"])
        table_changed(assignment.table_id, duty=True)


def rotation_plan_set(*, table, break_every_minutes, planned_by: User) -> RotationPlan:
    """A break every ``break_every_minutes`` (15 to 240) for the croupiers of ``table``."""
    _may_staff(planned_by)
    with transaction.atomic():
        plan = RotationPlan.objects.select_for_update().filter(table=table).first()
        plan = plan or RotationPlan(table=table)
        plan.break_every_minutes = break_every_minutes
        plan.planned_by = planned_by
        plan.full_clean()
        plan.save()
        table_changed(table.pk, duty=True)
    return plan
