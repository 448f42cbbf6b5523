"""The inspector acknowledges an alert (raising one: ``floor.alerts.alert_raise``)."""

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from floor.changes import duty_changed, table_changed
from floor.errors import Refused
from floor.models import Alert
from staff.roles import Role
from staff.selectors import inspects


def alert_acknowledge(*, alert_id: int, by, note: str) -> Alert:
    """The inspector of the alert's table acknowledges it with a note; kept for good.

    Refused (nothing changed) without a note (``note_required``), twice
    (``already_acknowledged``), or by anyone but a current inspector of that table
    (``PermissionDenied``; an alert without a table: any inspector).
    """
    note = (note or "").strip()
    with transaction.atomic():
        alert = Alert.objects.select_for_update().filter(pk=alert_id).first()
        if alert is None:
            raise Refused("no_such_alert", _("There is no such alert."))
        if not by.has_role(Role.INSPECTOR) or (
            alert.table_id is not None and not inspects(user=by, table_id=alert.table_id)
        ):
            raise PermissionDenied(_("Only the inspector of this table acknowledges its alerts."))
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
