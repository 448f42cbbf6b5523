import math
from datetime import timedelta
from decimal import Decimal

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy
from django_fsm import RETURN_VALUE, FSMField, transition

from floor.gaming import gaming_day_of
from floor.ledger import Chained
from tables.checklists import step_codes

# docs/sources.md#box-reservation: a reservation token holds a box "no more than twenty minutes".
RESERVATION_MOST_MINUTES = 20


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
    # Its lifecycle, declared once below (the transitions and their guards): closed → opening
    # → open → closing → closed, through the opening and closing checklists.
    status = FSMField(_("status"), max_length=16, choices=Status.choices, default=Status.CLOSED)
    # Facts of the rule set, written by game.configuration.services.table_configure (the engine that
    # knows them sits above this app): the opening checklist compares the decks counted with
    # ``decks`` and asks for a confirmation to open where ``house_edge`` is negative.
    decks = models.PositiveSmallIntegerField(_("decks in the rule set"), default=6)
    house_edge = models.DecimalField(
        _("theoretical house edge"), max_digits=9, decimal_places=6, null=True, blank=True
    )
    # docs/sources.md#cut-card-position: the cards the cut card may leave behind it, by the
    # rule set (the opening checklist's cut card step checks its position against them).
    cut_least = models.PositiveSmallIntegerField(
        _("least cards behind the cut card"), null=True, blank=True
    )
    cut_most = models.PositiveSmallIntegerField(
        _("most cards behind the cut card"), null=True, blank=True
    )
    opened_at = models.DateTimeField(
        _("opened at"),
        null=True,
        blank=True,
        help_text=_("When the table last opened: a shoe shuffled before it is not played on."),
    )
    # docs/sources.md#box-reservation: capped at twenty minutes.
    reservation_minutes = models.PositiveSmallIntegerField(
        _("reservation time, minutes"),
        default=RESERVATION_MOST_MINUTES,
        validators=[MinValueValidator(1), MaxValueValidator(RESERVATION_MOST_MINUTES)],
        help_text=_("At most 20 minutes (document 000); the observer may choose less."),
    )
    reservation_seconds = models.PositiveIntegerField(
        _("reservation time, seconds (training and tests)"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(RESERVATION_MOST_MINUTES * 60)],
        help_text=_("When set, replaces the minutes: for training and tests only."),
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

    @property
    def cut_window(self) -> tuple[int, int]:
        """The cards the cut card may leave behind it (docs/sources.md#cut-card-position), as
        the rule set says (``cut_least``, ``cut_most``); a table whose rule set was never
        configured here: a quarter to a third of its pack."""
        if self.cut_least and self.cut_most:
            return self.cut_least, self.cut_most
        size = self.decks * 52
        return math.ceil(size / 4), size // 3

    @property
    def reservation_time(self) -> timedelta:
        """How long a reservation token holds a box (docs/sources.md#box-reservation: at most 20
        minutes)."""
        most = timedelta(minutes=RESERVATION_MOST_MINUTES)  # a row saved before the cap
        if self.reservation_seconds:
            return min(timedelta(seconds=self.reservation_seconds), most)
        return min(timedelta(minutes=self.reservation_minutes), most)

    @property
    def reservation_max_minutes(self) -> int:
        """The longest reservation the observer may choose, in whole minutes (at least 1)."""
        return max(1, math.ceil(self.reservation_time.total_seconds() / 60))

    # -- the lifecycle: every move of ``status`` is one of these (django-fsm-2); a move from
    # another status raises TransitionNotAllowed, a guard not met the same, and nothing
    # changes. The services (tables.services.lifecycle) call them under the table's lock
    # and say why in words first.

    def checklist_under_way(self):
        """The checklist of this opening or closing, not yet completed (None otherwise): its
        declared lifecycle says so (in_progress, signing or signed), not ``completed_at``."""
        kind = {self.Status.OPENING: "opening", self.Status.CLOSING: "closing"}.get(self.status)
        if kind is None:
            return None
        under_way = self.checklists.filter(kind=kind).exclude(status=Checklist.Status.COMPLETED)
        return under_way.order_by("-started_at", "-pk").first()

    def checklist_done(self) -> bool:
        """Guard of ``open`` and ``close``: the checklist under way has every step done and
        both signatures (docs/sources.md#opening-procedure, #closing-procedure)."""
        checklist = self.checklist_under_way()
        return checklist is not None and checklist.signed and not checklist.missing_steps()

    @transition(field=status, source=Status.CLOSED, target=Status.OPENING)
    def opening_start(self) -> None:
        """The pit boss starts the opening checklist."""

    @transition(
        field=status, source=Status.OPENING, target=Status.OPEN, conditions=[checklist_done]
    )
    def open(self) -> None:
        """The opening checklist is done and signed: the table plays."""

    @transition(field=status, source=Status.OPEN, target=Status.CLOSING)
    def closing_start(self) -> None:
        """The pit boss starts the closing checklist (a round in play is finished first)."""

    @transition(
        field=status, source=Status.CLOSING, target=Status.CLOSED, conditions=[checklist_done]
    )
    def close(self) -> None:
        """The closing checklist is done and signed: the table is closed."""


class ChipCount(Chained):
    """A count of a table's chip float by denomination.

    ``opener``: counted when the table opens (compared with the last ``closer`` count of the
    same table); ``closer``: counted when it closes (the next opener's reference); ``spot``:
    any count in between. The cash desk reads these as the table's chip inventories.

    A count is never edited: a correction is a new count pointing at the one it corrects
    (``replaces``), of the same kind and moment (``counted_at``: the tray it describes;
    ``corrected_at``: when the correction was entered), signed by its author
    (``counted_by``, with a ``note``) and counting only once a second person confirmed it
    with his password (``confirmed_by``; ``cashdesk.corrections``).

    Every count is a link of the table's chip-count chain of the gaming day it was written
    in (floor/ledger.py); its confirmation is a recorded change of its state.
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
    replaces = models.OneToOneField(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="replaced_by",
        verbose_name=_("corrects"),
    )
    note = models.TextField(_("note"), blank=True)
    corrected_at = models.DateTimeField(_("correction entered at"), null=True, blank=True)
    confirmed_by = models.ForeignKey(
        "staff.User",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("correction confirmed by"),
    )
    confirmed_at = models.DateTimeField(_("correction confirmed at"), null=True, blank=True)

    class Meta:
        verbose_name = _("chip count")
        verbose_name_plural = _("chip counts")
        ordering = ["-counted_at", "-pk"]
        indexes = [
            models.Index(fields=["table", "kind", "counted_at"]),
            models.Index(fields=["audit_chain", "audit_seq"], name="chipcount_audit_link"),
        ]

    audit_fields = (
        "table",
        "kind",
        "counts",
        "total",
        "counted_by",
        "counted_at",
        "replaces",
        "note",
        "corrected_at",
    )
    audit_state_fields = ("confirmed_by", "confirmed_at")
    audit_day_field = "counted_at"

    def audit_chain_of(self):
        day = gaming_day_of(self.corrected_at or self.counted_at)
        return f"chips:{self.table_id}:{day}", day

    def __str__(self) -> str:
        return f"{self.table} — {self.get_kind_display()} — {self.total}"

    @property
    def correction(self) -> bool:
        return self.replaces_id is not None

    @property
    def in_force(self) -> bool:
        """The first count, or a correction a second person confirmed."""
        return self.replaces_id is None or self.confirmed_at is not None


class TableChange(models.Model):
    """One change of a table, kept for good: a configuration change (``changes``: field ->
    [old, new]) or a lifecycle step (``from_status`` -> ``to_status``), with who and when."""

    class Kind(models.TextChoices):
        CONFIG = "config", _("Configuration")
        STATUS = "status", _("Status")

    table = models.ForeignKey(
        Table, on_delete=models.PROTECT, related_name="changes", verbose_name=_("table")
    )
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    changes = models.JSONField(_("changes"), default=dict, blank=True)
    from_status = models.CharField(
        _("from"), max_length=16, choices=Table.Status.choices, blank=True
    )
    to_status = models.CharField(_("to"), max_length=16, choices=Table.Status.choices, blank=True)
    changed_by = models.ForeignKey(
        "staff.User", on_delete=models.PROTECT, related_name="+", verbose_name=_("changed by")
    )
    changed_at = models.DateTimeField(_("changed at"), auto_now_add=True)

    class Meta:
        verbose_name = _("table change")
        verbose_name_plural = _("table changes")
        ordering = ["-changed_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.table} — {self.get_kind_display()} — {self.changed_at:%Y-%m-%d %H:%M}"


class Checklist(models.Model):
    """The pit boss's opening or closing checklist of a table: steps, then two signatures.

    Its lifecycle (django-fsm-2): in_progress (steps are recorded) → signing (the first
    signature, every step done) → signed (the second) → completed (the table opened or
    closed with it). The services (tables.services.lifecycle) check who signs and say why in
    words first, then move the checklist."""

    class Kind(models.TextChoices):
        OPENING = "opening", _("Opening")
        CLOSING = "closing", _("Closing")

    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress", pgettext_lazy("checklist", "In progress")
        SIGNING = "signing", pgettext_lazy("checklist", "Awaiting the second signature")
        SIGNED = "signed", pgettext_lazy("checklist", "Signed")
        COMPLETED = "completed", pgettext_lazy("checklist", "Completed")

    table = models.ForeignKey(
        Table, on_delete=models.PROTECT, related_name="checklists", verbose_name=_("table")
    )
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    started_by = models.ForeignKey(
        "staff.User", on_delete=models.PROTECT, related_name="+", verbose_name=_("started by")
    )
    started_at = models.DateTimeField(_("started at"), auto_now_add=True)
    pit_boss_signed_by = models.ForeignKey(
        "staff.User",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("signed by the pit boss"),
    )
    pit_boss_signed_at = models.DateTimeField(_("pit boss signed at"), null=True, blank=True)
    second_signed_by = models.ForeignKey(
        "staff.User",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("second signature"),
    )
    second_signed_at = models.DateTimeField(_("second signature at"), null=True, blank=True)
    # What the second signer (the inspector) signed for: the opening float's discrepancy
    # (the chip_float step's details) he acknowledged with his signature.
    acknowledged = models.JSONField(_("discrepancy acknowledged"), default=dict, blank=True)
    completed_at = models.DateTimeField(_("completed at"), null=True, blank=True)
    # Its place in the lifecycle, moved only by the transitions below; the signatures and
    # ``completed_at`` say who and when.
    status = FSMField(
        _("status"), max_length=16, choices=Status.choices, default=Status.IN_PROGRESS
    )

    class Meta:
        verbose_name = _("checklist")
        verbose_name_plural = _("checklists")
        ordering = ["-started_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.table} — {self.get_kind_display()} — {self.started_at:%Y-%m-%d %H:%M}"

    @property
    def signed(self) -> bool:
        return self.pit_boss_signed_by_id is not None and self.second_signed_by_id is not None

    def missing_steps(self) -> list[str]:
        """The steps of this checklist not done yet, in their order."""
        done = set(self.steps.values_list("step", flat=True))
        return [code for code in step_codes(self.kind) if code not in done]

    # -- the lifecycle (django-fsm-2)

    def signable(self) -> bool:
        """Guard of ``sign``: every step done, and a signature given."""
        given = self.pit_boss_signed_by_id is not None or self.second_signed_by_id is not None
        return given and not self.missing_steps()

    @transition(
        field=status,
        source=[Status.IN_PROGRESS, Status.SIGNING],
        target=RETURN_VALUE(Status.SIGNING, Status.SIGNED),
        conditions=[signable],
    )
    def sign(self) -> str:
        """A signature given (who may sign is the service's check): the first waits for the
        second; with both the checklist is signed."""
        return self.Status.SIGNED if self.signed else self.Status.SIGNING

    def completable(self) -> bool:
        """Guard of ``complete``: both signatures, every step done."""
        return self.signed and not self.missing_steps()

    @transition(
        field=status, source=Status.SIGNED, target=Status.COMPLETED, conditions=[completable]
    )
    def complete(self) -> None:
        """The table opened (or closed) with this checklist: it is done."""


class ChecklistStep(models.Model):
    """One step of a checklist, done once: who, when, and what was recorded."""

    checklist = models.ForeignKey(
        Checklist, on_delete=models.CASCADE, related_name="steps", verbose_name=_("checklist")
    )
    step = models.CharField(_("step"), max_length=32)
    details = models.JSONField(_("details"), default=dict, blank=True)
    done_by = models.ForeignKey(
        "staff.User", on_delete=models.PROTECT, related_name="+", verbose_name=_("done by")
    )
    done_at = models.DateTimeField(_("done at"), auto_now_add=True)

    class Meta:
        verbose_name = _("checklist step")
        verbose_name_plural = _("checklist steps")
        ordering = ["done_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["checklist", "step"], name="checklist_step_once"),
        ]

    def __str__(self) -> str:
        return f"{self.checklist} — {self.step}"


class Reservation(models.Model):
    """A reservation token on a box: the box is held for a paused player until it ends.

    Placed and released by the observing croupier; expires on its own at ``expires_at``
    (``tables.services.reservation_expire_due``, run every second by a worker). Never
    deleted: the ended ones are the history.
    """

    class EndReason(models.TextChoices):
        RELEASED = "released", _("Released: the player came back")
        EXPIRED = "expired", _("Expired")
        CLEARED = "cleared", _("Cleared at closing")
        RENEWED = "renewed", _("Renewed by the inspector")

    table = models.ForeignKey(
        Table, on_delete=models.PROTECT, related_name="reservations", verbose_name=_("table")
    )
    box = models.PositiveSmallIntegerField(_("box"))
    seat = models.CharField(_("player's seat"), max_length=24, blank=True)
    placed_by = models.ForeignKey(
        "staff.User", on_delete=models.PROTECT, related_name="+", verbose_name=_("placed by")
    )
    placed_at = models.DateTimeField(_("placed at"))
    expires_at = models.DateTimeField(_("expires at"))
    warned_at = models.DateTimeField(_("inspector warned at"), null=True, blank=True)
    ended_at = models.DateTimeField(_("ended at"), null=True, blank=True)
    ended_by = models.ForeignKey(
        "staff.User",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("ended by"),
    )
    end_reason = models.CharField(
        _("how it ended"), max_length=10, choices=EndReason.choices, blank=True
    )
    # docs/sources.md#box-reservation: twenty minutes per absence; longer only by the
    # inspector's renewal, with his note.
    renewed_by = models.ForeignKey(
        "staff.User",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("renewed by the inspector"),
    )
    renewal_note = models.CharField(_("why the inspector renewed it"), max_length=500, blank=True)

    class Meta:
        verbose_name = _("reservation")
        verbose_name_plural = _("reservations")
        ordering = ["-placed_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "box"],
                condition=models.Q(ended_at__isnull=True),
                name="one_active_reservation_per_box",
            ),
        ]
        indexes = [models.Index(fields=["ended_at", "expires_at"])]

    def __str__(self) -> str:
        return f"{self.table} — box {self.box} — {self.placed_at:%H:%M}"

    @property
    def active(self) -> bool:
        return self.ended_at is None
