"""The tamper-evident record: hash chains over round events and cash-desk records.

Every chained record (a model deriving from :class:`Chained`: ``game.RoundEvent``, and
``CashIn``, ``Tip``, ``Slip``, ``DropCount``, ``Resolution``, ``GamingDayClose`` here) is a
link of one chain when it is created: it carries its chain, its position, the previous
link's hash and its own hash, an HMAC-SHA256 of all that and of its recorded values
(``audit_fields``, a fixed list per model). A record whose state changes later (a cash-in's
recount, a slip's signatures: ``audit_state_fields``) appends one :class:`AuditEntry` per
change to the same chain, holding the new state. So an edit of any recorded value made
outside the app (SQL, a restore, the admin) no longer matches its link, a deleted link
breaks the next one, and a cut-off tail no longer matches the chain's head, whose own MAC
needs the key. ``python manage.py audit_verify [--day D]`` walks the chains
(:func:`chains_verify`); the gaming-day close runs it and refuses a broken day.

Chains are small so that writers do not queue behind the whole floor: one per table and
gaming day for round events, one per table and gaming day for its cash records, and one per
gaming day for the desk's own records (resolutions, the day close). Writers of one chain
take turns on its head row (:class:`AuditChain`, locked with ``select_for_update``); round
events are written under the table's live row lock already, so their head never waits.

The key is ``AUDIT_CHAIN_KEY`` (by default derived from ``SECRET_KEY``): whoever can change
the database but does not hold the key cannot forge a link. Keep it unchanged for as long as
the records are kept. The hooks are model-level (``save``), so no write path needs to know.
"""

import datetime as dt
import hashlib
import hmac
import json
from dataclasses import dataclass
from decimal import Decimal

from django.apps import apps
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

GENESIS = "0" * 64


def _key() -> bytes:
    configured = getattr(settings, "AUDIT_CHAIN_KEY", "")
    if configured:
        return configured.encode()
    return hashlib.sha256(b"casino.audit-chain:" + settings.SECRET_KEY.encode()).digest()


def _mac(*parts: str) -> str:
    return hmac.new(_key(), "\x1f".join(parts).encode(), hashlib.sha256).hexdigest()


def _value(field: models.Field, value):
    """A field's value as it reads back from any database, in JSON."""
    if value is None:
        return None
    if isinstance(field, models.DecimalField):
        value = Decimal(value).quantize(Decimal(1).scaleb(-field.decimal_places))
        return str(value)
    if isinstance(field, models.DateTimeField):
        return value.astimezone(dt.UTC).isoformat(timespec="microseconds")
    if isinstance(field, models.DateField):
        return value.isoformat()
    return value


def content_of(record, names) -> str:
    """The canonical text of ``record``'s ``names`` fields (sorted JSON)."""
    values = {}
    for name in names:
        field = record._meta.get_field(name)
        values[name] = _value(field, getattr(record, field.attname))
    return json.dumps(values, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _label(model) -> str:
    return model._meta.label_lower


def record_hash(record) -> str:
    return _mac(
        record.audit_chain,
        str(record.audit_seq),
        record.audit_prev,
        _label(type(record)),
        content_of(record, record.audit_fields),
    )


def entry_hash(entry) -> str:
    return _mac(
        entry.chain, str(entry.seq), entry.prev, entry.model, str(entry.object_id), entry.content
    )


def head_mac(head) -> str:
    return _mac("head", head.key, str(head.length), head.head)


class AuditChain(models.Model):
    """The head of one chain: its length and last hash, locked by each writer in turn."""

    key = models.CharField(max_length=80, unique=True)
    gaming_day = models.DateField(db_index=True)
    length = models.PositiveBigIntegerField(default=0)
    head = models.CharField(max_length=64, default=GENESIS)
    mac = models.CharField(max_length=64, blank=True)

    class Meta:
        app_label = "cashdesk"
        verbose_name = gettext_lazy("audit chain")
        verbose_name_plural = gettext_lazy("audit chains")

    def __str__(self) -> str:
        return f"{self.key} #{self.length}"


class AuditEntry(models.Model):
    """A later change of a chained record (its state after the change). Append-only."""

    chain = models.CharField(max_length=80)
    seq = models.PositiveBigIntegerField()
    model = models.CharField(max_length=64)
    object_id = models.PositiveBigIntegerField()
    content = models.TextField()
    prev = models.CharField(max_length=64)
    hash = models.CharField(max_length=64)

    class Meta:
        app_label = "cashdesk"
        constraints = [
            models.UniqueConstraint(fields=["chain", "seq"], name="audit_entry_seq_per_chain")
        ]
        indexes = [models.Index(fields=["model", "object_id"])]

    def __str__(self) -> str:
        return f"{self.chain} #{self.seq} {self.model} {self.object_id}"


def _take_link(key: str, day: dt.date) -> tuple[AuditChain, int, str]:
    """Lock the chain's head (creating it) and return it with the next position and the
    previous hash. The caller stores the new link and calls :func:`_advance`."""
    head = AuditChain.objects.select_for_update().filter(key=key).first()
    if head is None:
        AuditChain.objects.get_or_create(key=key, defaults={"gaming_day": day})
        head = AuditChain.objects.select_for_update().get(key=key)
    return head, head.length + 1, head.head


def _advance(head: AuditChain, seq: int, digest: str) -> None:
    head.length, head.head = seq, digest
    head.mac = head_mac(head)
    head.save(update_fields=["length", "head", "mac"])


def link_after(record, *, key: str, length: int, head: str) -> tuple[int, str, str]:
    """Make ``record`` (not saved yet) the link after ``(length, head)`` of chain ``key`` —
    the same link :meth:`Chained.save` would make — when the caller read the chain's head
    itself and holds its other writers off (a table's round events: under the table's live
    row lock). Returns the head's new ``(length, head, mac)`` for the caller to store with
    its own writes; the record is then inserted as it is (not through ``save``)."""
    seq = length + 1
    record.audit_chain, record.audit_seq, record.audit_prev = key, seq, head
    record.audit_hash = record_hash(record)
    return seq, record.audit_hash, _mac("head", key, str(seq), record.audit_hash)


def chain_head_ensure(key: str, day: dt.date) -> tuple[int, int, str]:
    """The head ``(id, length, head)`` of chain ``key``, made if it does not exist yet (a
    new gaming day's first link)."""
    head, _created = AuditChain.objects.get_or_create(key=key, defaults={"gaming_day": day})
    return head.pk, head.length, head.head


class Chained(models.Model):
    """A record that is a link of a hash chain from its creation (see the module's doc).

    Subclasses name ``audit_fields`` (recorded once, never changed: a save that would
    change one is refused), optionally ``audit_state_fields`` (each change is an
    :class:`AuditEntry`), and ``audit_chain_of()`` returning ``(chain key, gaming day)``.
    """

    audit_chain = models.CharField(max_length=80, blank=True, editable=False)
    audit_seq = models.PositiveBigIntegerField(null=True, blank=True, editable=False)
    audit_prev = models.CharField(max_length=64, blank=True, editable=False)
    audit_hash = models.CharField(max_length=64, blank=True, editable=False)

    audit_fields: tuple[str, ...] = ()
    audit_state_fields: tuple[str, ...] = ()

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        if not self._state.adding and self.audit_seq is not None:
            if record_hash(self) != self.audit_hash:
                raise ValidationError(
                    _("A recorded value cannot be changed: record a correction instead."),
                    code="recorded",
                )
        # One transaction with the caller's (no savepoint of its own: a failure here fails
        # the caller's write as a whole, which is what a broken link must do).
        with transaction.atomic(savepoint=False):
            if self._state.adding:
                key, day = self.audit_chain_of()
                head, seq, prev = _take_link(key, day)
                self.audit_chain, self.audit_seq, self.audit_prev = key, seq, prev
                self.audit_hash = record_hash(self)
                _advance(head, seq, self.audit_hash)
            super().save(*args, **kwargs)
            if self.audit_state_fields:
                self._audit_state()

    def audit_chain_of(self) -> tuple[str, dt.date]:
        raise NotImplementedError

    def _audit_state(self) -> None:
        key = self.audit_chain or self.audit_chain_of()[0]
        head, seq, prev = _take_link(key, self.audit_chain_of()[1])
        entry = AuditEntry(
            chain=key,
            seq=seq,
            model=_label(type(self)),
            object_id=self.pk,
            content=content_of(self, self.audit_state_fields),
            prev=prev,
        )
        entry.hash = entry_hash(entry)
        entry.save()
        _advance(head, seq, entry.hash)


# -- verification ---------------------------------------------------------------------------


@dataclass
class Broken:
    """The first broken link found: which chain, where, what."""

    chain: str
    seq: int
    what: str
    reason: str

    def __str__(self) -> str:
        return _("chain %(chain)s, link %(seq)d (%(what)s): %(reason)s") % {
            "chain": self.chain,
            "seq": self.seq,
            "what": self.what,
            "reason": self.reason,
        }


@dataclass
class Verified:
    chains: int = 0
    links: int = 0
    broken: Broken | None = None


def chained_models() -> list[type[Chained]]:
    return [m for m in apps.get_models() if issubclass(m, Chained)]


def _chain_broken(head: AuditChain, models_: list) -> tuple[int, Broken | None]:
    """Walk one chain from its first link; return the links seen and the first break."""
    links: dict[int, list] = {}
    for model in models_:
        for record in model.objects.filter(audit_chain=head.key).order_by("audit_seq"):
            links.setdefault(record.audit_seq, []).append(record)
    for entry in AuditEntry.objects.filter(chain=head.key).order_by("seq"):
        links.setdefault(entry.seq, []).append(entry)

    def what(link) -> str:
        if isinstance(link, AuditEntry):
            return f"{link.model} #{link.object_id}, " + _("a later change")
        return f"{_label(type(link))} #{link.pk}"

    if not hmac.compare_digest(head.mac, head_mac(head)):
        return 0, Broken(head.key, head.length, "head", _("the chain's head was changed"))
    prev, last_state = GENESIS, {}
    for seq in range(1, max([head.length, *links]) + 1):
        found = links.get(seq, [])
        if len(found) != 1:
            reason = _("the link is missing") if not found else _("two links hold this place")
            return seq, Broken(head.key, seq, "—", reason)
        link = found[0]
        if isinstance(link, AuditEntry):
            ok_prev, digest = link.prev == prev, entry_hash(link)
            if not hmac.compare_digest(digest, link.hash):
                return seq, Broken(head.key, seq, what(link), _("the change was altered"))
            last_state[(link.model, link.object_id)] = link.content
        else:
            ok_prev, digest = link.audit_prev == prev, record_hash(link)
            if not hmac.compare_digest(digest, link.audit_hash):
                reason = _("the recorded values do not match their hash")
                return seq, Broken(head.key, seq, what(link), reason)
        if not ok_prev:
            reason = _("it does not follow the link before it")
            return seq, Broken(head.key, seq, what(link), reason)
        prev = digest
    if head.length != len(links) or head.head != prev:
        return len(links), Broken(
            head.key, head.length, "head", _("the chain does not end where its head says")
        )
    for seq, (link,) in sorted(links.items()):
        if isinstance(link, AuditEntry) or not link.audit_state_fields:
            continue
        recorded = last_state.get((_label(type(link)), link.pk))
        if recorded != content_of(link, link.audit_state_fields):
            reason = _("its current state is not the last one recorded")
            return seq, Broken(head.key, seq, what(link), reason)
    return len(links), None


def chains_verify(*, day: dt.date | None = None) -> Verified:
    """Walk every chain (of gaming day ``day`` only, when given); stop at the first break."""
    result = Verified()
    models_ = chained_models()
    heads = AuditChain.objects.order_by("gaming_day", "key")
    if day is not None:
        heads = heads.filter(gaming_day=day)
    for head in heads.iterator():
        seen, broken = _chain_broken(head, models_)
        result.chains += 1
        result.links += seen
        if broken is not None:
            result.broken = broken
            return result
    return result


def day_verify(day: dt.date) -> None:
    """Refuse (``ValidationError``, code ``audit_broken``) when a chain of ``day`` is broken."""
    broken = chains_verify(day=day).broken
    if broken is not None:
        raise ValidationError(
            _(
                "The record of this gaming day fails its tamper check (%(broken)s): nothing "
                "was closed. Run manage.py audit_verify and tell IT."
            )
            % {"broken": broken},
            code="audit_broken",
        )
