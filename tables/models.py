from decimal import Decimal

from django.core.validators import MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _


class Pit(models.Model):
    """A group of tables watched together."""

    name = models.CharField(_("name"), max_length=100, unique=True)

    class Meta:
        verbose_name = _("pit")
        verbose_name_plural = _("pits")
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Table(models.Model):
    """A Blackjack table: its boxes, limits, rule set and how cards are entered."""

    class Status(models.TextChoices):
        CLOSED = "closed", _("Closed")
        OPENING = "opening", _("Opening")
        OPEN = "open", _("Open")
        CLOSING = "closing", _("Closing")

    class CardEntry(models.TextChoices):
        MANUAL = "manual", _("Manual (cards tapped from the shoe)")
        SIMULATED = "simulated", _("Simulated (training and demos only)")

    pit = models.ForeignKey(
        Pit, on_delete=models.PROTECT, related_name="tables", verbose_name=_("pit")
    )
    number = models.PositiveIntegerField(_("number"), unique=True)
    name = models.CharField(_("name"), max_length=100, blank=True)
    boxes = models.PositiveSmallIntegerField(_("boxes"), choices=[(6, "6"), (7, "7")], default=7)
    min_bet = models.DecimalField(
        _("minimum bet"),
        max_digits=12,
        decimal_places=2,
        validators=[MinValueValidator(Decimal("0.01"))],
    )
    max_bet = models.DecimalField(
        _("maximum bet"),
        max_digits=12,
        decimal_places=2,
        validators=[MinValueValidator(Decimal("0.01"))],
    )
    rules = models.JSONField(
        _("rule set"),
        default=dict,
        help_text=_('An engine preset with overrides, e.g. {"preset": "standard"}.'),
    )
    card_entry = models.CharField(
        _("card entry"), max_length=16, choices=CardEntry.choices, default=CardEntry.MANUAL
    )
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.CLOSED
    )
    reservation_minutes = models.PositiveSmallIntegerField(
        _("reservation time, minutes"), default=20
    )
    chip_denominations = models.JSONField(
        _("chip set"),
        default=list,
        blank=True,
        help_text=_('Chip denominations in use at this table, e.g. ["25", "100", "500"].'),
    )
    par_float = models.JSONField(
        _("par float"),
        default=dict,
        blank=True,
        help_text=_('Chips the tray holds at par, by denomination, e.g. {"100": 40}.'),
    )

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["number"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(min_bet__lte=models.F("max_bet")),
                name="table_min_bet_not_above_max",
            ),
        ]

    def __str__(self) -> str:
        return self.name or str(_("Table %(number)s") % {"number": self.number})

    @property
    def box_numbers(self) -> list[int]:
        return list(range(1, self.boxes + 1))


class Alert(models.Model):
    """Something the inspector (and the duty administrator) must see and acknowledge.

    Raised through ``tables.services.alert_raise``; kinds are stable codes (e.g.
    ``reservation_expiring``, ``cash_in_large``, ``recount_mismatch``, ``flag``) whose
    messages are translated on the screens. Never deleted; acknowledging is a new fact.
    """

    class Severity(models.TextChoices):
        INFO = "info", _("Information")
        WARNING = "warning", _("Warning")
        CRITICAL = "critical", _("Critical")

    table = models.ForeignKey(
        Table,
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
        "staff.User",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("raised by"),
    )
    acknowledged_by = models.ForeignKey(
        "staff.User",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("acknowledged by"),
    )
    acknowledged_at = models.DateTimeField(_("acknowledged at"), null=True, blank=True)
    acknowledgement_note = models.TextField(_("acknowledgement note"), blank=True)

    class Meta:
        verbose_name = _("alert")
        verbose_name_plural = _("alerts")
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["table", "acknowledged_at"])]

    def __str__(self) -> str:
        return f"{self.kind} — {self.table or '—'}"

    @property
    def open(self) -> bool:
        return self.acknowledged_at is None


class ChipCount(models.Model):
    """A count of a table's chip float by denomination.

    ``opener``: counted when the table opens (compared with the last ``closer`` count of the
    same table); ``closer``: counted when it closes (the next opener's reference); ``spot``:
    any count in between. The cash desk reads these as the table's chip inventories.
    """

    class Kind(models.TextChoices):
        OPENER = "opener", _("Opener")
        CLOSER = "closer", _("Closer")
        SPOT = "spot", _("Spot count")

    table = models.ForeignKey(
        Table, on_delete=models.PROTECT, related_name="chip_counts", verbose_name=_("table")
    )
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    counts = models.JSONField(
        _("chips by denomination"),
        default=dict,
        help_text=_('Number of chips by denomination, e.g. {"100": 40, "500": 20}.'),
    )
    total = models.DecimalField(_("total"), max_digits=14, decimal_places=2)
    counted_by = models.ForeignKey(
        "staff.User", on_delete=models.PROTECT, related_name="+", verbose_name=_("counted by")
    )
    counted_at = models.DateTimeField(_("counted at"))

    class Meta:
        verbose_name = _("chip count")
        verbose_name_plural = _("chip counts")
        ordering = ["-counted_at", "-pk"]
        indexes = [models.Index(fields=["table", "kind", "counted_at"])]

    def __str__(self) -> str:
        return f"{self.table} — {self.get_kind_display()} — {self.total}"
