"""Shoes, rounds and their append-only event log.

The live state of a table is one ``LiveTable`` row: its version (bumped by every accepted
command), the current shoe and the current round. Every command that changes something
appends a ``RoundEvent`` (or is recorded on the shoe it creates); a round's ``snapshot`` is
a cache of its events that a replay always rebuilds exactly.
"""

import uuid

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from cashdesk.gaming import gaming_day_of
from floor.ledger import Chained
from game.table.live import TableRound


class Shoe(models.Model):
    """One shuffle of the table's cards, from the shuffle to the cut card coming out."""

    class Reason(models.TextChoices):
        NEW_SHOE = "new_shoe", _("New shoe")
        CUT_CARD = "cut_card", _("The cut card came out")
        PLAYER_REQUEST = "player_request", _("A player asked for a re-shuffle")

    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="shoes")
    number = models.PositiveIntegerField(_("shoe number"))
    decks = models.PositiveSmallIntegerField(_("decks"))
    simulated = models.BooleanField(_("simulated"), default=False)
    seed = models.CharField(_("seed"), max_length=64, blank=True)
    state = models.JSONField(_("state"), default=dict)
    reason = models.CharField(_("reason"), max_length=20, choices=Reason.choices)
    shuffled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("shuffled by"),
    )
    shuffled_at = models.DateTimeField(_("shuffled at"), auto_now_add=True)
    cut_entitled_box = models.PositiveSmallIntegerField(
        _("box entitled to cut"), null=True, blank=True
    )
    cut_by_box = models.PositiveSmallIntegerField(_("cut by box"), null=True, blank=True)
    # The entitled player passed his right to cut to the player at ``cut_by_box`` (000).
    cut_passed = models.BooleanField(_("the right to cut was passed"), default=False)
    cards_behind_cut = models.PositiveSmallIntegerField(_("cards behind the cut card"))
    burn_card = models.CharField(_("burnt card"), max_length=3, blank=True)
    cut_card_out = models.JSONField(_("cut card came out at"), null=True, blank=True)

    class Meta:
        verbose_name = _("shoe")
        verbose_name_plural = _("shoes")
        ordering = ["-shuffled_at"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="shoe_number_per_table")
        ]

    def __str__(self) -> str:
        return f"{self.table} — {_('shoe')} {self.number}"

    @property
    def size(self) -> int:
        return self.decks * 52

    @property
    def dealt(self) -> int:
        return int(self.state.get("dealt", 0))

    @property
    def penetration(self) -> float:
        """Share of the pack dealt (for display only; money never touches floats)."""
        return self.dealt / self.size if self.size else 0.0


class Round(models.Model):
    class Status(models.TextChoices):
        BETTING = "betting", _("Place your bets")
        DEALING = "dealing", _("Dealing")
        INSURANCE = "insurance", _("Insurance")
        PLAYERS = "players", _("Players")
        DEALER = "dealer", _("Dealer's draw")
        TURNING = "turning", _("Turning the face-down cards")
        SETTLED = "settled", _("Settlement")
        CLOSED = "closed", _("Closed")
        VOIDED = "voided", _("Voided")

    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="rounds")
    shoe = models.ForeignKey(Shoe, on_delete=models.PROTECT, related_name="rounds")
    number = models.PositiveIntegerField(_("round number"))
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.BETTING
    )
    snapshot = models.JSONField(_("snapshot"))
    version = models.PositiveBigIntegerField(_("version"))
    events_count = models.PositiveIntegerField(_("events"), default=1)
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    opened_at = models.DateTimeField(auto_now_add=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    players_net = models.DecimalField(
        _("players' result"), max_digits=14, decimal_places=2, null=True, blank=True
    )
    total_bet = models.DecimalField(_("total bet"), max_digits=14, decimal_places=2, default=0)

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["-opened_at"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="round_number_per_table")
        ]

    def __str__(self) -> str:
        return f"{self.table} — {_('round')} {self.number}"

    @property
    def is_open(self) -> bool:
        return self.status not in (self.Status.CLOSED, self.Status.VOIDED)

    def table_round(self) -> TableRound:
        """This round at the live table (``game.table.live.TableRound``): the object the
        command that changed this row left (``table_round_set``), else built from the
        snapshot once. A command's push renders from the object the command changed, without
        reading its JSON again. A command that changes the round builds its own copy from
        the snapshot (a refused command leaves nothing behind) and hands it back here."""
        state = self.__dict__.get("_table_round")
        if state is None:
            state = self._table_round = TableRound.from_dict(self.snapshot)
        return state

    def table_round_set(self, state: TableRound) -> None:
        """The round as a command left it: its snapshot (what the row keeps) and the object."""
        self.snapshot = state.to_dict()
        self._table_round = state


def round_chain_of(table_id: int, when) -> tuple[str, object]:
    """The chain a table's round event made at ``when`` is a link of, and its gaming day:
    one per table and gaming day."""
    day = gaming_day_of(when)
    return f"round_events:{int(table_id)}:{day}", day


class RoundEvent(Chained):
    """One accepted command of a round, with the engine events it caused. Append-only, and a
    link of its table's hash chain for the gaming day (floor/ledger.py)."""

    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="events")
    seq = models.PositiveIntegerField(_("sequence number"))
    type = models.CharField(_("type"), max_length=32)
    payload = models.JSONField(_("payload"))
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True
    )
    # Set before the save (not auto_now_add, which sets it during it): the time is hashed.
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    version = models.PositiveBigIntegerField(_("resulting version"))

    audit_fields = ("round", "seq", "type", "payload", "actor", "created_at", "version")
    audit_day_field = "created_at"

    def audit_chain_of(self):
        return round_chain_of(self.round.table_id, self.created_at)

    class Meta:
        ordering = ["round", "seq"]
        constraints = [models.UniqueConstraint(fields=["round", "seq"], name="event_seq_per_round")]
        indexes = [models.Index(fields=["audit_chain", "audit_seq"], name="roundevent_audit_link")]

    def __str__(self) -> str:
        return f"{self.round} #{self.seq} {self.type}"


class LiveTable(models.Model):
    """The live state of one table: the row every command locks, and its version."""

    table = models.OneToOneField(
        "tables.Table", on_delete=models.CASCADE, related_name="live", primary_key=True
    )
    version = models.PositiveBigIntegerField(default=0)
    current_shoe = models.ForeignKey(Shoe, on_delete=models.PROTECT, null=True, related_name="+")
    current_round = models.ForeignKey(Round, on_delete=models.PROTECT, null=True, related_name="+")
    # Open rating sessions at the table (game.players): a round closing at a table where
    # nobody is rated costs no query for rated play.
    seated = models.PositiveSmallIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.table} v{self.version}"


class Command(models.Model):
    """An accepted command id and its outcome, so a repeated id acts only once."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4)
    table = models.ForeignKey("tables.Table", on_delete=models.CASCADE, related_name="+")
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    action = models.CharField(max_length=32)
    outcome = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.action} {self.id}"


class ErrorFlag(models.Model):
    """A quiet note from the observing croupier to the dealing croupier and the inspector."""

    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="flags")
    round = models.ForeignKey(
        Round, on_delete=models.PROTECT, null=True, blank=True, related_name="flags"
    )
    raised_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    note = models.TextField(_("note"))
    created_at = models.DateTimeField(auto_now_add=True)
    seen_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    seen_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.table}: {self.note[:40]}"


MONEY = {"max_digits": 14, "decimal_places": 2}


class Player(models.Model):
    """A player known to the house by his player card (docs/players.md). Players without a
    card are rated by their seat label within a session and have no row here."""

    card = models.CharField(_("player card"), max_length=32, unique=True)
    name = models.CharField(_("name"), max_length=120, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["card"]

    def __str__(self) -> str:
        return f"{self.card} {self.name}".strip()


class RatingSession(models.Model):
    """Rated play: one player at one table from the moment he is seated to the moment he
    leaves, opened and closed by the table's croupier (``game.players``). The round figures
    are added in the transaction that closes each round; a player who moves tables gets a
    new session at the new table pointing at the one he left (``continued_from``)."""

    table = models.ForeignKey(
        "tables.Table", on_delete=models.PROTECT, related_name="+", verbose_name=_("table")
    )
    player = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="sessions",
        verbose_name=_("player"),
    )
    card = models.CharField(_("player card"), max_length=32, blank=True)  # the player's
    seat = models.CharField(_("seat"), max_length=24)
    gaming_day = models.DateField(_("gaming day"), db_index=True)
    started_at = models.DateTimeField(_("seated at"))
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    ended_at = models.DateTimeField(_("left at"), null=True, blank=True)
    ended_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True
    )
    moved_to = models.ForeignKey(
        "tables.Table", on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    continued_from = models.OneToOneField(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="continued_by"
    )
    rounds = models.PositiveIntegerField(_("rounds"), default=0)
    stakes = models.PositiveIntegerField(_("boxes played"), default=0)  # (round, box) stakes
    hands = models.PositiveIntegerField(_("hands"), default=0)
    boxes = models.PositiveIntegerField(default=0)  # bit n: box n was played
    total_bet = models.DecimalField(_("total bet"), default=0, **MONEY)
    players_net = models.DecimalField(_("player's result"), default=0, **MONEY)
    theoretical_win = models.DecimalField(
        _("theoretical win"), max_digits=18, decimal_places=4, default=0
    )
    chips_taken = models.DecimalField(_("chips taken"), null=True, blank=True, **MONEY)

    class Meta:
        verbose_name = _("rating session")
        verbose_name_plural = _("rating sessions")
        ordering = ["-started_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "seat"],
                condition=models.Q(ended_at__isnull=True),
                name="one_open_session_per_seat",
            ),
            models.UniqueConstraint(
                fields=["player"],
                condition=models.Q(ended_at__isnull=True, player__isnull=False),
                name="one_open_session_per_player",
            ),
        ]
        indexes = [models.Index(fields=["table", "ended_at"], name="session_open_at_table")]

    def __str__(self) -> str:
        return f"{self.table} {self.seat} {self.card}".strip()

    @property
    def is_open(self) -> bool:
        return self.ended_at is None

    @property
    def box_numbers(self) -> list[int]:
        return [n for n in range(1, 31) if self.boxes & (1 << n)]
