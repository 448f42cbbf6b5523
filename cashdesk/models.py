"""The cash desk's records: cash-ins, tips, fill and credit slips, counted drops, settled
round results (a projection of game.Round), resolutions of exceptions and closed gaming days.

Every amount is recorded once, with who and when. Nothing is edited after it is signed: a
recount is a second signature on a cash-in, a slip collects its signatures in order, a void
is two more signatures with a reason, a corrected drop is a new record pointing at the old.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy
from django_fsm import RETURN_VALUE, FSMField, transition

from cashdesk.gaming import gaming_day_of
from floor.ledger import Chained

USER = settings.AUTH_USER_MODEL
MONEY = {"max_digits": 14, "decimal_places": 2}


class CashIn(Chained):
    """Cash a player handed over at the table for chips: entered by the dealing croupier,
    recounted blind by the observing croupier."""

    class Destination(models.TextChoices):
        CASH_BOX = "cash_box", _("Table cash box")
        PIT_CASH_DESK = "pit_cash_desk", _("Pit cash desk (through the inspector)")

    class Status(models.TextChoices):
        AWAITING_RECOUNT = "awaiting_recount", _("Awaiting the recount")
        CONFIRMED = "confirmed", _("Confirmed")
        MISMATCH = "mismatch", _("Recount mismatch")

    table = models.ForeignKey(
        "tables.Table", on_delete=models.PROTECT, related_name="cash_ins", verbose_name=_("table")
    )
    gaming_day = models.DateField(_("gaming day"), db_index=True)
    shift = models.PositiveSmallIntegerField(_("shift"))
    notes = models.JSONField(_("notes by denomination"), default=dict)
    amount = models.DecimalField(_("cash amount"), **MONEY)
    chips = models.JSONField(_("chips given by denomination"), default=dict)
    chips_total = models.DecimalField(_("chips given"), **MONEY)
    player_card = models.CharField(_("player card"), max_length=32, blank=True)
    destination = models.CharField(
        _("destination"), max_length=16, choices=Destination.choices, default=Destination.CASH_BOX
    )
    # awaiting the recount → confirmed or mismatch: ``recounted`` below, once.
    status = FSMField(
        _("status"), max_length=20, choices=Status.choices, default=Status.AWAITING_RECOUNT
    )
    entered_by = models.ForeignKey(
        USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("entered by")
    )
    entered_at = models.DateTimeField(_("entered at"))
    recount_notes = models.JSONField(_("recounted notes"), null=True, blank=True)
    recount_amount = models.DecimalField(_("recounted amount"), null=True, blank=True, **MONEY)
    recounted_by = models.ForeignKey(
        USER,
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
        verbose_name=_("recounted by"),
    )
    recounted_at = models.DateTimeField(_("recounted at"), null=True, blank=True)

    class Meta:
        verbose_name = _("cash-in")
        verbose_name_plural = _("cash-ins")
        ordering = ["-entered_at", "-pk"]
        indexes = [
            models.Index(fields=["audit_chain", "audit_seq"], name="cashin_audit_link"),
            models.Index(fields=["gaming_day", "table"]),
        ]

    audit_fields = (
        "table",
        "gaming_day",
        "shift",
        "notes",
        "amount",
        "chips",
        "chips_total",
        "player_card",
        "destination",
        "entered_by",
        "entered_at",
    )
    audit_state_fields = (
        "status",
        "recount_notes",
        "recount_amount",
        "recounted_by",
        "recounted_at",
    )

    def audit_chain_of(self):
        return f"cash:{self.table_id}:{self.gaming_day}", self.gaming_day

    def __str__(self) -> str:
        return f"{self.table} {self.amount} {self.entered_at:%H:%M}"

    # -- the lifecycle (django-fsm-2): a cash-in is recounted once, by another person.

    def recount_by_another(self) -> bool:
        """Guard of ``recounted``: the recount is entered, and not by who entered the cash."""
        return self.recounted_by_id is not None and self.recounted_by_id != self.entered_by_id

    @transition(
        field=status,
        source=Status.AWAITING_RECOUNT,
        target=RETURN_VALUE(Status.CONFIRMED, Status.MISMATCH),
        conditions=[recount_by_another],
    )
    def recounted(self) -> str:
        """The blind recount is in: confirmed when it matches the dealer's figure (notes and
        amount), a mismatch otherwise."""
        match = self.recount_amount == self.amount and self.recount_notes == self.notes
        return self.Status.CONFIRMED if match else self.Status.MISMATCH


class CashInRegistration(Chained):
    """The inspector's registration of a cash-in (docs/sources.md#inspector-registers-cash:
    «постоянная регистрация наличных денег, поступающих на стол»): one tap, his name and
    the time, for every cash-in; for one going to the pit cash desk it also says he took the
    notes there («через инспектора») — the dealer gives the chips after it, and without it
    the cash-in stays an open exception of the shift. Append-only."""

    cash_in = models.OneToOneField(
        CashIn, on_delete=models.PROTECT, related_name="registration", verbose_name=_("cash-in")
    )
    registered_by = models.ForeignKey(
        USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("confirmed by")
    )
    registered_at = models.DateTimeField(_("confirmed at"))

    audit_fields = ("cash_in", "registered_by", "registered_at")
    audit_day_field = "registered_at"

    class Meta:
        verbose_name = _("inspector's confirmation of a cash-in")
        verbose_name_plural = _("inspector's confirmations of cash-ins")
        indexes = [models.Index(fields=["audit_chain", "audit_seq"], name="cashinreg_audit_link")]

    def audit_chain_of(self):
        return self.cash_in.audit_chain_of()

    def __str__(self) -> str:
        return f"{self.cash_in_id}: {self.registered_at:%H:%M:%S}"


class CashInChipsGiven(Chained):
    """The dealing croupier gave the player the chips for a cash-in
    (docs/sources.md#cash-in: «после чего крупье выдает чипы»): only after the observing
    croupier recounted the notes and dropped them into the table's cash box — or the
    inspector took them to the pit cash desk. His name and the time; once per cash-in.
    Append-only."""

    cash_in = models.OneToOneField(
        CashIn, on_delete=models.PROTECT, related_name="chips_given", verbose_name=_("cash-in")
    )
    given_by = models.ForeignKey(
        USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("chips given by")
    )
    given_at = models.DateTimeField(_("chips given at"))

    audit_fields = ("cash_in", "given_by", "given_at")
    audit_day_field = "given_at"

    class Meta:
        verbose_name = _("chips given for a cash-in")
        verbose_name_plural = _("chips given for cash-ins")
        indexes = [models.Index(fields=["audit_chain", "audit_seq"], name="cashinchips_audit_link")]

    def audit_chain_of(self):
        return self.cash_in.audit_chain_of()

    def __str__(self) -> str:
        return f"{self.cash_in_id}: {self.given_at:%H:%M:%S}"


class CashInCorrection(Chained):
    """A correction of a cash-in's amount after the observer's blind recount: a new record
    pointing at the cash-in (and at the correction it supersedes, if any), with the notes
    counted by denomination and a note saying why, signed by its author (a duty
    administrator or the table's inspector) and counting only once a second person
    confirmed it with his password (``confirmed_by``: another duty administrator or the
    table's inspector, never the dealer, the observer or an author of a correction of this
    cash-in, never a croupier of the table). The confirmed amount is the cash-in's amount in
    force in every report; the cash-in itself is never edited."""

    cash_in = models.ForeignKey(
        CashIn, on_delete=models.PROTECT, related_name="corrections", verbose_name=_("cash-in")
    )
    replaces = models.OneToOneField(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="replaced_by",
        verbose_name=_("replaces"),
    )
    notes = models.JSONField(_("notes by denomination"), default=dict)
    amount = models.DecimalField(_("corrected amount"), **MONEY)
    note = models.TextField(_("note"))
    corrected_by = models.ForeignKey(
        USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("corrected by")
    )
    corrected_at = models.DateTimeField(_("corrected at"))
    confirmed_by = models.ForeignKey(
        USER,
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
        verbose_name=_("correction confirmed by"),
    )
    confirmed_at = models.DateTimeField(_("correction confirmed at"), null=True, blank=True)

    class Meta:
        verbose_name = _("cash-in correction")
        verbose_name_plural = _("cash-in corrections")
        ordering = ["pk"]
        indexes = [models.Index(fields=["audit_chain", "audit_seq"], name="cashincorr_audit_link")]

    audit_fields = (
        "cash_in",
        "replaces",
        "notes",
        "amount",
        "note",
        "corrected_by",
        "corrected_at",
    )
    audit_state_fields = ("confirmed_by", "confirmed_at")
    audit_day_field = "corrected_at"

    def audit_chain_of(self):
        return self.cash_in.audit_chain_of()

    def __str__(self) -> str:
        return f"{self.cash_in_id}: {self.amount}"

    correction = True  # every record of this model corrects a cash-in

    @property
    def in_force(self) -> bool:
        return self.confirmed_at is not None


class Tip(Chained):
    """Chips a player gave the dealing croupier, dropped into the tip box. Never table win."""

    table = models.ForeignKey(
        "tables.Table", on_delete=models.PROTECT, related_name="tips", verbose_name=_("table")
    )
    gaming_day = models.DateField(_("gaming day"), db_index=True)
    shift = models.PositiveSmallIntegerField(_("shift"))
    box = models.PositiveSmallIntegerField(_("box"))
    amount = models.DecimalField(_("amount"), **MONEY)
    recorded_by = models.ForeignKey(
        USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("recorded by")
    )
    recorded_at = models.DateTimeField(_("recorded at"))
    # Why a box that did not win the table's last round gives a tip (docs/sources.md#tips: a tip is
    # a part of a win).
    note = models.CharField(_("note"), max_length=500, blank=True)

    class Meta:
        verbose_name = _("tip")
        verbose_name_plural = _("tips")
        ordering = ["-recorded_at", "-pk"]
        indexes = [
            models.Index(fields=["audit_chain", "audit_seq"], name="tip_audit_link"),
            models.Index(fields=["gaming_day", "table"]),
        ]

    audit_fields = (
        "table",
        "gaming_day",
        "shift",
        "box",
        "amount",
        "recorded_by",
        "recorded_at",
        "note",
    )

    def audit_chain_of(self):
        return f"cash:{self.table_id}:{self.gaming_day}", self.gaming_day

    def __str__(self) -> str:
        return f"{self.table} {self.amount}"


class Slip(Chained):
    """A numbered fill (chips from the cage to the table) or credit (table to the cage).

    Three signatures by three different people: requested (inspector), issued (duty
    administrator), received at the table (a croupier of that table). Never edited; a void
    needs a reason and two more signatures by two different people.
    """

    class Kind(models.TextChoices):
        FILL = "fill", _("Fill")
        CREDIT = "credit", _("Credit")

    class Status(models.TextChoices):
        REQUESTED = "requested", _("Requested")
        ISSUED = "issued", _("Issued")
        RECEIVED = "received", _("Received")
        VOID_PENDING = "void_pending", _("Void awaiting the second signature")
        VOIDED = "voided", _("Voided")

    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices)
    gaming_day = models.DateField(_("gaming day"))
    number = models.PositiveIntegerField(_("number"))
    table = models.ForeignKey(
        "tables.Table", on_delete=models.PROTECT, related_name="slips", verbose_name=_("table")
    )
    counts = models.JSONField(_("chips by denomination"))
    total = models.DecimalField(_("total"), **MONEY)
    requested_by = models.ForeignKey(
        USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("requested by")
    )
    requested_at = models.DateTimeField(_("requested at"))
    issued_by = models.ForeignKey(
        USER, on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    issued_at = models.DateTimeField(_("issued at"), null=True, blank=True)
    received_by = models.ForeignKey(
        USER, on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    received_at = models.DateTimeField(_("received at"), null=True, blank=True)
    void_reason = models.TextField(_("void reason"), blank=True)
    voided_by = models.ForeignKey(
        USER, on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    voided_at = models.DateTimeField(_("voided at"), null=True, blank=True)
    void_confirmed_by = models.ForeignKey(
        USER, on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    void_confirmed_at = models.DateTimeField(_("void confirmed at"), null=True, blank=True)
    # requested → issued → received, and from any of them void_pending → voided: the
    # transitions below. The place in the lifecycle, not a recorded value: the signatures
    # that move it are (``audit_state_fields``).
    status = FSMField(_("status"), max_length=16, choices=Status.choices, default=Status.REQUESTED)

    class Meta:
        verbose_name = _("slip")
        verbose_name_plural = _("slips")
        ordering = ["gaming_day", "kind", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["gaming_day", "kind", "number"], name="slip_number_per_gaming_day"
            )
        ]
        indexes = [
            models.Index(fields=["audit_chain", "audit_seq"], name="slip_audit_link"),
            models.Index(fields=["gaming_day", "table"]),
        ]

    audit_fields = (
        "kind",
        "gaming_day",
        "number",
        "table",
        "counts",
        "total",
        "requested_by",
        "requested_at",
    )
    audit_state_fields = (
        "issued_by",
        "issued_at",
        "received_by",
        "received_at",
        "void_reason",
        "voided_by",
        "voided_at",
        "void_confirmed_by",
        "void_confirmed_at",
    )

    def audit_chain_of(self):
        return f"cash:{self.table_id}:{self.gaming_day}", self.gaming_day

    def __str__(self) -> str:
        return self.label

    @property
    def label(self) -> str:
        prefix = "F" if self.kind == self.Kind.FILL else "C"
        return f"{prefix}-{self.gaming_day:%Y%m%d}-{self.number:04d}"

    @property
    def voided(self) -> bool:
        return self.void_confirmed_at is not None

    @property
    def complete(self) -> bool:
        """Signed by all three and not voided: the slip counts in the figures."""
        return self.received_at is not None and not self.voided

    # -- the lifecycle (django-fsm-2): three signatures by three people, in order; a void is
    # two more, by two people, with a reason. The service signs, then moves the slip.

    def issue_signed(self) -> bool:
        """Guard of ``issue``: signed, and not by who requested the slip."""
        return self.issued_by_id is not None and self.issued_by_id != self.requested_by_id

    @transition(
        field=status, source=Status.REQUESTED, target=Status.ISSUED, conditions=[issue_signed]
    )
    def issue(self) -> None:
        """The duty administrator issued the chips (fill) or took them (credit)."""

    def receipt_signed(self) -> bool:
        """Guard of ``receive``: signed by a third person."""
        return self.received_by_id is not None and self.received_by_id not in (
            self.requested_by_id,
            self.issued_by_id,
        )

    @transition(
        field=status, source=Status.ISSUED, target=Status.RECEIVED, conditions=[receipt_signed]
    )
    def receive(self) -> None:
        """A croupier of the table signed that the chips arrived (fill) or left (credit)."""

    def void_reasoned(self) -> bool:
        """Guard of ``void_request``: signed, with a reason."""
        return self.voided_by_id is not None and bool(self.void_reason.strip())

    @transition(
        field=status,
        source=[Status.REQUESTED, Status.ISSUED, Status.RECEIVED],
        target=Status.VOID_PENDING,
        conditions=[void_reasoned],
    )
    def void_request(self) -> None:
        """The void's first signature, with its reason: the slip waits for a second person."""

    def void_confirmed_by_another(self) -> bool:
        """Guard of ``void_confirm``: signed by another person than the void's first."""
        return (
            self.void_confirmed_by_id is not None and self.void_confirmed_by_id != self.voided_by_id
        )

    @transition(
        field=status,
        source=Status.VOID_PENDING,
        target=Status.VOIDED,
        conditions=[void_confirmed_by_another],
    )
    def void_confirm(self) -> None:
        """The void's second signature: the slip no longer counts, and keeps its number."""


class SlipCounter(models.Model):
    """The last slip number of a kind in a gaming day (locked while the next is taken)."""

    gaming_day = models.DateField()
    kind = models.CharField(max_length=8)
    last = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["gaming_day", "kind"], name="slip_counter_unique")
        ]

    def __str__(self) -> str:
        return f"{self.gaming_day} {self.kind} {self.last}"


class DropCount(Chained):
    """The counted content of a table's cash box for a gaming day, entered by the duty
    administrator from the count. A correction is a new record pointing at the one it
    replaces, signed by its author (``counted_by``) and confirmed by a second person with
    his password (``confirmed_by``: another duty administrator or the table's inspector,
    never one who entered any version of the figure). Until confirmed it is an open
    exception and the reports keep the figure it would replace."""

    table = models.ForeignKey(
        "tables.Table", on_delete=models.PROTECT, related_name="drops", verbose_name=_("table")
    )
    gaming_day = models.DateField(_("gaming day"), db_index=True)
    amount = models.DecimalField(_("counted drop"), **MONEY)
    note = models.TextField(_("note"), blank=True)
    counted_by = models.ForeignKey(
        USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("entered by")
    )
    entered_at = models.DateTimeField(_("entered at"))
    replaces = models.OneToOneField(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="replaced_by",
        verbose_name=_("replaces"),
    )
    confirmed_by = models.ForeignKey(
        USER,
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
        verbose_name=_("correction confirmed by"),
    )
    confirmed_at = models.DateTimeField(_("correction confirmed at"), null=True, blank=True)

    class Meta:
        verbose_name = _("counted drop")
        verbose_name_plural = _("counted drops")
        ordering = ["-entered_at", "-pk"]
        indexes = [models.Index(fields=["audit_chain", "audit_seq"], name="dropcount_audit_link")]

    audit_fields = ("table", "gaming_day", "amount", "note", "counted_by", "entered_at", "replaces")
    audit_state_fields = ("confirmed_by", "confirmed_at")

    @property
    def correction(self) -> bool:
        return self.replaces_id is not None

    @property
    def in_force(self) -> bool:
        """Whether this entry is a figure the reports may use: the first count, or a
        correction a second person confirmed."""
        return self.replaces_id is None or self.confirmed_at is not None

    def audit_chain_of(self):
        return f"cash:{self.table_id}:{self.gaming_day}", self.gaming_day

    def __str__(self) -> str:
        return f"{self.table} {self.gaming_day} {self.amount}"


class RoundResult(Chained):
    """A closed round's recorded result, written once by the cash desk when the live table
    says the round closed (``floor.signals.round_closed``, ``cashdesk.receivers``), in the
    transaction that closes the round (``cashdesk.services.round_result_record``), a link of
    the table's result chain of its gaming day: the figures the reports print, so
    ``audit_verify`` also compares the round's own totals with them (game/ledger.py).

    Nothing is recomputed: ``players_net`` and ``total_bet`` are the round's own figures,
    ``hands`` the number of boxes the engine settled, ``theoretical_win`` the total bet times
    the house edge of the rule set the round was played under.
    """

    round = models.OneToOneField("game.Round", on_delete=models.PROTECT, related_name="+")
    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="+")
    gaming_day = models.DateField(db_index=True)
    shift = models.PositiveSmallIntegerField()
    closed_at = models.DateTimeField()
    hands = models.PositiveSmallIntegerField()
    total_bet = models.DecimalField(**MONEY)
    players_net = models.DecimalField(**MONEY)
    theoretical_win = models.DecimalField(**MONEY, default=0)
    # The boxes that won the round (their net above zero): a tip from one of them needs no
    # note (docs/sources.md#tips).
    winning_boxes = models.JSONField(default=list, blank=True)
    # A voided round is recorded only when something was paid at once and stays paid
    # (a Blackjack, even money): its players_net is that payment; it is no round played.
    voided = models.BooleanField(default=False)

    class Meta:
        indexes = [
            models.Index(fields=["gaming_day", "table"]),
            models.Index(fields=["audit_chain", "audit_seq"], name="roundresult_audit_link"),
        ]

    audit_fields = (
        "round",
        "table",
        "gaming_day",
        "shift",
        "closed_at",
        "hands",
        "total_bet",
        "players_net",
        "theoretical_win",
        "winning_boxes",
        "voided",
    )

    @staticmethod
    def chain_key(table_id: int, day) -> str:
        return f"results:{int(table_id)}:{day}"

    def audit_chain_of(self):
        return self.chain_key(self.table_id, self.gaming_day), self.gaming_day

    def __str__(self) -> str:
        return f"{self.round_id}: {self.players_net}"


class Resolution(Chained):
    """The duty administrator's note that closes one exception (a mismatch, a voided slip, a
    drop difference) **in one state**: ``state`` is what the record said when it was
    resolved (what was counted, by whom, when — ``cashdesk.selectors``), and the resolution
    holds only while the record still says exactly that; any later change reopens the
    exception. Signed by two people: the duty administrator and a second person with his
    password (``second_by``: another duty administrator or the table's inspector), neither
    of them the person who entered or corrected the figure."""

    class Kind(models.TextChoices):
        CASH_IN = "cash_in", _("Cash-in")
        SLIP = "slip", _("Slip")
        DROP = "drop", _("Drop")

    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices)
    object_id = models.PositiveBigIntegerField(_("record"))
    note = models.TextField(_("note"))
    resolved_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")
    resolved_at = models.DateTimeField(_("resolved at"))
    state = models.TextField(_("state resolved"), blank=True)
    state_hash = models.CharField(_("state resolved (hash)"), max_length=64, blank=True)
    second_by = models.ForeignKey(
        USER,
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
        verbose_name=_("second signature"),
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["kind", "object_id", "state_hash"], name="one_resolution_per_state"
            )
        ]
        indexes = [models.Index(fields=["audit_chain", "audit_seq"], name="resolution_audit_link")]

    audit_fields = (
        "kind",
        "object_id",
        "note",
        "resolved_by",
        "resolved_at",
        "state",
        "state_hash",
        "second_by",
    )

    audit_day_field = "resolved_at"

    def audit_chain_of(self):
        day = gaming_day_of(self.resolved_at)
        return f"desk:{day}", day

    def __str__(self) -> str:
        return f"{self.kind} {self.object_id}"


class GamingDayClose(Chained):
    """A gaming day closed by the duty administrator: only a past or the current day, with
    every table closed, a counted drop for every table that played, no open exception and
    no open critical alert (``cashdesk.days.gaming_day_close``) — or, with what is still
    open, under a **waiver** signed by two people (the duty administrator and a pit boss or
    another duty administrator, each with his password) and a reason: ``waived`` keeps what
    was open, and the closed day's report shows it.

    A close can be undone once, by a reopen with two signatures (the duty administrator and
    a second person: a pit boss or another duty administrator, each with his password) and
    a reason; the reopen is a recorded change of this record (its ``audit_state_fields``),
    never a deletion. A day has at most one close that is not reopened.

    Its lifecycle (django-fsm-2): open → closed (``close``, the record made in the open state
    and closed before it is saved: no stored row stays open) → reopened (``reopen``); after a
    reopen the day is open again and a new close is a new record."""

    class Status(models.TextChoices):
        OPEN = "open", pgettext_lazy("gaming day", "Open")
        CLOSED = "closed", pgettext_lazy("gaming day", "Closed")
        REOPENED = "reopened", pgettext_lazy("gaming day", "Reopened")

    gaming_day = models.DateField(_("gaming day"))
    closed_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")
    closed_at = models.DateTimeField(_("closed at"))
    waiver_reason = models.TextField(_("reason for the waiver"), blank=True)
    waiver_second_by = models.ForeignKey(
        USER,
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
        verbose_name=_("waiver's second signature"),
    )
    waived = models.JSONField(_("what was open at the close"), default=dict, blank=True)
    reopen_reason = models.TextField(_("reason for the reopen"), blank=True)
    reopened_by = models.ForeignKey(
        USER, on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    reopen_confirmed_by = models.ForeignKey(
        USER, on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    reopened_at = models.DateTimeField(_("reopened at"), null=True, blank=True)
    # The place in the lifecycle, not a recorded value: the signatures that move it are.
    status = FSMField(_("status"), max_length=16, choices=Status.choices, default=Status.CLOSED)
    # The day's seal (floor.ledger.day_seal), made right after the close was recorded: the
    # heads of every chain of the day, and a MAC over them with the key ``seal_key``. Not a
    # recorded value of the close (it covers the close's own link): an edit shows as a seal
    # that does not match its heads, a deletion as a standing close without a seal.
    sealed_heads = models.TextField(_("heads sealed"), blank=True, editable=False)
    seal_key = models.CharField(_("seal key"), max_length=16, blank=True, editable=False)
    seal = models.CharField(_("seal"), max_length=64, blank=True, editable=False)

    class Meta:
        verbose_name = _("closed gaming day")
        verbose_name_plural = _("closed gaming days")
        constraints = [
            models.UniqueConstraint(
                fields=["gaming_day"],
                condition=models.Q(reopened_at__isnull=True),
                name="one_standing_close_per_day",
            )
        ]
        indexes = [models.Index(fields=["audit_chain", "audit_seq"], name="dayclose_audit_link")]

    audit_fields = (
        "gaming_day",
        "closed_by",
        "closed_at",
        "waiver_reason",
        "waiver_second_by",
        "waived",
    )
    audit_state_fields = ("reopen_reason", "reopened_by", "reopen_confirmed_by", "reopened_at")

    def audit_chain_of(self):
        return f"desk:{self.gaming_day}", self.gaming_day

    def __str__(self) -> str:
        return str(self.gaming_day)

    # -- the lifecycle (django-fsm-2)

    def close_signed(self) -> bool:
        """Guard of ``close``: signed by who closes; a waiver has its reason and a second
        person's signature."""
        if self.closed_by_id is None:
            return False
        if not self.waived:
            return True
        second = self.waiver_second_by_id
        return bool(self.waiver_reason.strip()) and second not in (None, self.closed_by_id)

    @transition(field=status, source=Status.OPEN, target=Status.CLOSED, conditions=[close_signed])
    def close(self) -> None:
        """The duty administrator closes the day (the checks of the day are the service's,
        ``cashdesk.days.gaming_day_close``)."""

    def reopen_signed(self) -> bool:
        """Guard of ``reopen``: a reason and two signatures by two people."""
        first, second = self.reopened_by_id, self.reopen_confirmed_by_id
        return bool(self.reopen_reason.strip()) and None not in (first, second) and first != second

    @transition(
        field=status, source=Status.CLOSED, target=Status.REOPENED, conditions=[reopen_signed]
    )
    def reopen(self) -> None:
        """The close is undone: the day takes records again and can be closed again."""


class Submission(models.Model):
    """One money form sent once: its idempotency token (a hidden field, new with every
    rendered form), who sent it, and the answer it got. A repeat of the token (a double tap,
    a resent request, two tabs racing) is answered with that first answer and records
    nothing (``cashdesk.services.submitted_once``). Written in the same transaction as the
    record, so a refused form leaves no token behind."""

    token = models.CharField(_("token"), max_length=32, unique=True)
    kind = models.CharField(_("form"), max_length=16)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("by")
    )
    created_at = models.DateTimeField(_("sent at"), auto_now_add=True)
    record = models.CharField(_("record"), max_length=64, blank=True)
    answer = models.TextField(_("answer"), blank=True)

    class Meta:
        verbose_name = _("form submission")
        verbose_name_plural = _("form submissions")

    def __str__(self) -> str:
        return f"{self.kind} {self.token} {self.record}"


class PlayerCardDay(models.Model):
    """One row per player card and gaming day, locked by each cash-in with that card: the
    card's day total is summed under this lock, so two cash-ins at the same moment (at two
    tables) cannot both miss the ``CASH_IN_PLAYER_DAY_ALERT_AMOUNT`` threshold."""

    gaming_day = models.DateField()
    player_card = models.CharField(max_length=32)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["gaming_day", "player_card"], name="player_card_day_unique"
            )
        ]

    def __str__(self) -> str:
        return f"{self.gaming_day} {self.player_card}"
