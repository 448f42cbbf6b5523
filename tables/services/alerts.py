"""The inspector acknowledges an alert (raising one: ``floor.alerts.alert_raise``).

Who raised a critical alert by his own action (an inspector who voided a round, whoever
signed a float count that differs) never acknowledges it himself: someone else does, the
duty administrator, who may acknowledge any critical alert."""

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from floor.changes import duty_changed, table_changed
from floor.errors import Refused
from floor.models import Alert
from staff import seats
from staff.roles import Role
from staff.selectors import inspects


def own_critical(alert: Alert, user) -> bool:
    """A critical alert ``user`` raised by his own action (he may not acknowledge it)."""
    return alert.severity == Alert.Severity.CRITICAL and alert.raised_by_id == user.pk


def own_alert_refusal() -> Refused:
    return Refused(
        "own_alert",
        _(
            "You raised this critical alert by your own action: someone else acknowledges "
            "it — the duty administrator."
        ),
    )


def alert_acknowledge(*, alert_id: int, by, note: str) -> Alert:
    """The inspector of the alert's table acknowledges it with a note; kept for good. The
    duty administrator may acknowledge any critical alert.

    Refused (nothing changed) without a note (``note_required``), twice
    (``already_acknowledged``), by the person who raised a critical alert by his own action
    (``own_alert``), by a croupier of the alert's table (``own_table``,
    :func:`staff.seats.acknowledgement_refusal`), or by anyone but a current inspector of
    that table or, for a critical alert, a duty administrator (``PermissionDenied``; an
    alert without a table: any inspector).
    """
    note = (note or "").strip()
    with transaction.atomic():
        alert = Alert.objects.select_for_update().filter(pk=alert_id).first()
        if alert is None:
            raise Refused("no_such_alert", _("There is no such alert."))
        as_duty = alert.severity == Alert.Severity.CRITICAL and by.has_role(Role.DUTY_ADMINISTRATOR)
        as_inspector = by.has_role(Role.INSPECTOR) and (
            alert.table_id is None or inspects(user=by, table_id=alert.table_id)
        )
        if not (as_duty or as_inspector):
            raise PermissionDenied(_("Only the inspector of this table acknowledges its alerts."))
        if own_critical(alert, by):
            raise own_alert_refusal()
        seated = seats.acknowledgement_refusal(by, alert.table_id)  # not at his own table
        if seated is not None:
            raise seated
        if alert.acknowledged_at is not None:
            raise Refused(
                "already_acknowledged",
                _("This alert was already acknowledged by %(who)s at %(when)s.")
                % {
                    "who": alert.acknowledged_by.display_name,
                    "when": timezone.localtime(alert.acknowledged_at).strftime("%H:%M:%S"),
                },
            )
        if not note:
            raise Refused("note_required", _("Write a note: what was done about it."))
        alert.acknowledged_by = by
        alert.acknowledged_at = timezone.now()
        alert.acknowledgement_note = note[:2000]
        alert.full_clean()
        alert.save(update_fields=["acknowledged_by", "acknowledged_at", "acknowledgement_note"])
        if alert.table_id is not None:
            table_changed(alert.table_id, duty=True)
        else:
            duty_changed()
    return alert
