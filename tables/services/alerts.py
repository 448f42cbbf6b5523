"""The inspector acknowledges an alert (raising one: ``floor.alerts.alert_raise``).

Who raised a critical alert by his own action (an inspector who voided a round, whoever
signed a float count that differs) never acknowledges it himself: someone else does, the
duty administrator, who may acknowledge any critical alert.

A critical money alert (``floor.alerts.MONEY_ALERT_KINDS``: a recount mismatch, a float that
differs) is cleared by two people: the one who acknowledges it and a second person with his
own password (``tables.services.signatures.second_signer``) — and neither is a person who
entered or corrected the figure (:func:`refuse_figure_author`)."""

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from floor.alerts import figure_authors, money_critical
from floor.changes import duty_changed, table_changed
from floor.errors import Refused
from floor.models import Alert
from staff import seats
from staff.roles import Role
from staff.selectors import inspects
from tables.services.signatures import refuse_figure_author, second_signer


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


def _money_second(alert: Alert, by, request, second: str, second_password: str):
    """The second person of a critical money alert (None for any other alert), proved before
    the alert's row is locked (a password check is slow)."""
    if not money_critical(alert):
        return None
    authors = figure_authors(alert)
    refuse_figure_author(by, authors)
    return second_signer(
        request=request,
        identifier=second,
        secret=second_password,
        first=by,
        table_id=alert.table_id,
        authors=authors,
    )


def _check(alert: Alert | None, by, note: str) -> None:
    """The alert exists, ``by`` may acknowledge it, it is still open and there is a note."""
    if alert is None:
        raise Refused("no_such_alert", _("There is no such alert."))
    _may_acknowledge(alert, by)
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


def _may_acknowledge(alert: Alert, by) -> None:
    """The inspector of the alert's table, or for a critical alert a duty administrator; never
    whoever raised a critical alert by his own action."""
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


def alert_acknowledge(
    *,
    alert_id: int,
    by,
    note: str,
    request=None,
    second: str = "",
    second_password: str = "",
) -> Alert:
    """The inspector of the alert's table acknowledges it with a note; kept for good. The
    duty administrator may acknowledge any critical alert. A critical money alert also
    takes a second person (``second``, ``second_password``: another duty administrator or
    the table's inspector), and neither may have entered or corrected its figure.

    Refused (nothing changed) without a note (``note_required``), twice
    (``already_acknowledged``), by the person who raised a critical alert by his own action
    (``own_alert``), by a croupier of the alert's table (``own_table``,
    :func:`staff.seats.acknowledgement_refusal`), by anyone but a current inspector of that
    table or, for a critical alert, a duty administrator (``PermissionDenied``; an alert
    without a table: any inspector), and for a money alert without a valid second person
    (``second_required``, ``bad_credential``, ``same_person``, ``second_role``) or by an
    author of the figure (``figure_author``).
    """
    note = (note or "").strip()
    seen = Alert.objects.filter(pk=alert_id).first()
    _check(seen, by, note)
    confirmer = _money_second(seen, by, request, second, second_password)
    with transaction.atomic():
        alert = Alert.objects.select_for_update().filter(pk=alert_id).first()
        _check(alert, by, note)  # again under the lock: acknowledged meanwhile?
        alert.acknowledged_by = by
        alert.acknowledged_at = timezone.now()
        alert.acknowledgement_note = note[:2000]
        alert.acknowledgement_second_by = confirmer
        alert.full_clean()
        alert.save(
            update_fields=[
                "acknowledged_by",
                "acknowledged_at",
                "acknowledgement_note",
                "acknowledgement_second_by",
            ]
        )
        if alert.table_id is not None:
            table_changed(alert.table_id, duty=True)
        else:
            duty_changed()
    return alert
