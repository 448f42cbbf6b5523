"""What every app shares: alerts, and each table's screen sequence.

``Alert`` moved here from ``tables`` (its database table keeps its name, ``tables_alert``):
alerts are raised by every app — the cash desk, the live table, the floor watch, sign-in —
so they sit at the bottom of the layering.
"""

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Alert(models.Model):
    """Something the inspector (and the duty administrator) must see and acknowledge.

    Raised through :func:`floor.alerts.alert_raise`; kinds are stable codes (e.g.
    ``reservation_expiring``, ``cash_in_large``, ``recount_mismatch``, ``flag``) whose
    messages are translated on the screens (``floor/alerts.py``). Never deleted;
    acknowledging is a new fact (``tables.services.alerts.alert_acknowledge``).
    """

    class Severity(models.TextChoices):
        INFO = "info", _("Information")
        WARNING = "warning", _("Warning")
        CRITICAL = "critical", _("Critical")

    table = models.ForeignKey(
        "tables.Table",
        on_delete=models.PROTECT,
        related_name="alerts",
        null=True,
        blank=True,
        verbose_name=_("table"),
    )
    kind = models.CharField(_("kind"), max_length=40)
    severity = models.CharField(
        _("severity"), max_length=10, choices=Severity.choices, default=Severity.WARNING
    )
    params = models.JSONField(_("details"), default=dict, blank=True)
    created_at = models.DateTimeField(_("raised at"), auto_now_add=True)
    raised_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("raised by"),
    )
    acknowledged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("acknowledged by"),
    )
    acknowledged_at = models.DateTimeField(_("acknowledged at"), null=True, blank=True)
    acknowledgement_note = models.TextField(_("acknowledgement note"), blank=True)
    # The second person who cleared a critical money alert with his password
    # (floor.alerts.MONEY_ALERT_KINDS; tables.services.alerts.alert_acknowledge).
    acknowledgement_second_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("second signature"),
    )

    class Meta:
        db_table = "tables_alert"
        verbose_name = _("alert")
        verbose_name_plural = _("alerts")
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["table", "acknowledged_at"], name="tables_aler_table_i_f7504c_idx")
        ]

    def __str__(self) -> str:
        return f"{self.kind} — {self.table or '—'}"

    @property
    def open(self) -> bool:
        return self.acknowledged_at is None


def _random_epoch() -> int:
    return secrets.randbits(62)


class TableFeed(models.Model):
    """One row per table: the sequence numbers of what its screens show.

    ``seq`` moves with every committed change a screen of the table shows (a command, a
    cash-in, an alert, a reservation, a staff change): it orders the fragments a screen
    receives and tells a screen that asks (``sync``) whether it is behind. ``board`` moves
    with every change other than the round itself (staff, alerts, notes, reservations, the
    shift's money, a round closing): the publisher caches what it read for the table's
    board by this number. ``round_open``/``round_number`` say whether a round is in
    progress (kept by the live table's write path), for the apps below it that must know
    (a croupier's hand-over waits for the round boundary; the closing checklist needs the
    last round finished). Both numbers move inside the changing transaction, under this
    row's lock, so their order is the order of the commits.
    """

    table = models.OneToOneField(
        "tables.Table", on_delete=models.CASCADE, primary_key=True, related_name="feed"
    )
    seq = models.PositiveBigIntegerField(_("screen sequence"), default=0)
    board = models.PositiveBigIntegerField(_("board version"), default=0)
    round_open = models.BooleanField(_("round in progress"), default=False)
    round_number = models.PositiveIntegerField(_("round number"), null=True, blank=True)
    # Random, set once: a cache keyed by (table, board) must never mistake a new table that
    # reuses a deleted table's id (SQLite reuses them) for the old one.
    epoch = models.BigIntegerField(default=_random_epoch, editable=False)

    def __str__(self) -> str:
        return f"{self.table_id}: seq {self.seq}"


class Counter(models.Model):
    """A named sequence outside any table (``duty``: the duty administrators' screens)."""

    name = models.CharField(max_length=32, primary_key=True)
    value = models.PositiveBigIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.name}: {self.value}"
