from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django_fsm import FSMField, transition

from staff.roles import ROLE_PERMISSIONS, Role, TableRole


class User(AbstractUser):
    """A member of the casino staff. Roles are groups; a person may hold several."""

    full_name = models.CharField(_("full name"), max_length=200, blank=True)
    employee_number = models.CharField(
        _("employee number"), max_length=32, unique=True, null=True, blank=True
    )
    preferred_language = models.CharField(
        _("preferred language"), max_length=8, choices=settings.LANGUAGES, blank=True
    )
    pin_hash = models.CharField(_("PIN (hashed)"), max_length=256, blank=True, editable=False)
    pin_locked_at = models.DateTimeField(_("PIN locked at"), null=True, blank=True)

    class Meta:
        verbose_name = _("staff member")
        verbose_name_plural = _("staff members")
        permissions = list(ROLE_PERMISSIONS.values())

    def __str__(self) -> str:
        return self.full_name or self.username

    @property
    def display_name(self) -> str:
        return self.full_name or self.get_full_name() or self.username

    @property
    def roles(self) -> frozenset[str]:
        """The role names this person holds (cached per instance)."""
        cached = getattr(self, "_roles_cache", None)
        if cached is None:
            if not self.is_active:
                cached = frozenset()
            else:
                names = set(self.groups.values_list("name", flat=True))
                cached = frozenset(name for name in names if name in Role.values)
            self._roles_cache = cached
        return cached

    def has_role(self, role: str) -> bool:
        return role in self.roles

    @property
    def pin_locked(self) -> bool:
        return self.pin_locked_at is not None


class TableAssignment(models.Model):
    """Who works which table in which role, from when to when (``ends_at`` empty: now)."""

    table = models.ForeignKey(
        "tables.Table",
        on_delete=models.PROTECT,
        related_name="assignments",
        verbose_name=_("table"),
    )
    user = models.ForeignKey(
        User, on_delete=models.PROTECT, related_name="assignments", verbose_name=_("staff member")
    )
    role = models.CharField(_("role"), max_length=32, choices=TableRole.choices)
    starts_at = models.DateTimeField(_("from"))
    ends_at = models.DateTimeField(_("until"), null=True, blank=True)
    assigned_by = models.ForeignKey(
        User,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("assigned by"),
    )
    relief = models.ForeignKey(
        User,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("relieved by (planned)"),
        help_text=_("Who takes over at this person's next break (the rotation plan)."),
    )

    class Meta:
        verbose_name = _("table assignment")
        verbose_name_plural = _("table assignments")
        ordering = ["-starts_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "role"],
                condition=Q(ends_at__isnull=True),
                name="one_current_person_per_table_role",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} — {self.get_role_display()} — {self.table}"

    @property
    def is_current(self) -> bool:
        return self.ends_at is None


class ReplacementRequest(models.Model):
    """The inspector asks for a croupier to be replaced; the duty administrator decides.

    docs/sources.md#croupier-replacement: the inspector decides a croupier must be replaced
    and reports it to the duty administrator, who decides. An approved request hands the
    tablet over at the next round boundary (``handed_over_at``). Never deleted: every request
    is history.
    """

    class Status(models.TextChoices):
        REQUESTED = "requested", _("Requested")
        APPROVED = "approved", _("Approved: hand-over at the next round boundary")
        REJECTED = "rejected", _("Rejected")
        DONE = "done", _("Handed over")

    table = models.ForeignKey(
        "tables.Table",
        on_delete=models.PROTECT,
        related_name="replacement_requests",
        verbose_name=_("table"),
    )
    role = models.CharField(
        _("role"),
        max_length=32,
        choices=[
            (TableRole.DEALING_CROUPIER.value, TableRole.DEALING_CROUPIER.label),
            (TableRole.OBSERVING_CROUPIER.value, TableRole.OBSERVING_CROUPIER.label),
        ],
    )
    current_person = models.ForeignKey(
        User, on_delete=models.PROTECT, related_name="+", verbose_name=_("croupier to replace")
    )
    reason = models.TextField(_("reason"), max_length=1000)
    requested_by = models.ForeignKey(
        User, on_delete=models.PROTECT, related_name="+", verbose_name=_("requested by")
    )
    requested_at = models.DateTimeField(_("requested at"), auto_now_add=True)
    # requested → approved → done, or requested → rejected: the transitions below, once.
    status = FSMField(_("status"), max_length=16, choices=Status.choices, default=Status.REQUESTED)
    decided_by = models.ForeignKey(
        User,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("decided by"),
    )
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    replacement = models.ForeignKey(
        User,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("replacement"),
    )
    decision_note = models.TextField(_("decision note"), max_length=1000, blank=True)
    handed_over_at = models.DateTimeField(_("handed over at"), null=True, blank=True)

    class Meta:
        verbose_name = _("croupier replacement request")
        verbose_name_plural = _("croupier replacement requests")
        ordering = ["-requested_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.table} — {self.get_role_display()} — {self.current_person}"

    @property
    def is_pending(self) -> bool:
        return self.status == self.Status.REQUESTED

    # -- the lifecycle (django-fsm-2): staff.services decides, these move the status; a
    # decided request cannot be decided again (TransitionNotAllowed, nothing changes).

    def replacement_named(self) -> bool:
        """Guard of ``approve``: another person is named to take over."""
        return self.replacement_id is not None and self.replacement_id != self.current_person_id

    def decision_noted(self) -> bool:
        """Guard of ``reject``: the duty administrator said why."""
        return bool((self.decision_note or "").strip())

    @transition(
        field=status,
        source=Status.REQUESTED,
        target=Status.APPROVED,
        conditions=[replacement_named],
    )
    def approve(self) -> None:
        """The duty administrator approves: the hand-over waits for a round boundary."""

    @transition(
        field=status, source=Status.REQUESTED, target=Status.REJECTED, conditions=[decision_noted]
    )
    def reject(self) -> None:
        """The duty administrator rejects, saying why."""

    @transition(field=status, source=Status.APPROVED, target=Status.DONE)
    def hand_over(self) -> None:
        """The replacement took the seat at a round boundary."""


class RotationPlan(models.Model):
    """A table's rotation: its croupiers take a break every ``break_every_minutes`` (the
    pit boss or the duty administrator plans it; each assignment names who relieves it)."""

    table = models.OneToOneField(
        "tables.Table", on_delete=models.CASCADE, related_name="rotation", verbose_name=_("table")
    )
    break_every_minutes = models.PositiveSmallIntegerField(
        _("a break every (minutes)"),
        default=60,
        validators=[MinValueValidator(15), MaxValueValidator(240)],
    )
    planned_by = models.ForeignKey(
        User, on_delete=models.PROTECT, related_name="+", verbose_name=_("planned by")
    )
    planned_at = models.DateTimeField(_("planned at"), auto_now=True)

    class Meta:
        verbose_name = _("rotation plan")
        verbose_name_plural = _("rotation plans")

    def __str__(self) -> str:
        return f"{self.table} — {self.break_every_minutes} min"
