"""The tamper-evident record: hash chains over every record a figure is made of.

Every chained record (a model deriving from :class:`Chained`: ``game.RoundEvent``,
``tables.ChipCount``, and ``CashIn``, ``CashInRegistration``, ``CashInChipsGiven``,
``CashInCorrection``, ``Tip``, ``Slip``, ``DropCount``, ``RoundResult``, ``Resolution``,
``GamingDayClose`` of the cash desk)
is a link of one chain from its creation: it carries its chain, its position, the previous
link's hash, its own hash — an HMAC-SHA256 of all that and of its recorded values
(``audit_fields``, a fixed list per model) — and the id of the key that made the MAC
(``audit_key``). A record whose state changes later (a cash-in's recount, a slip's
signatures: ``audit_state_fields``) appends one :class:`AuditEntry` per change to the same
chain, holding the new state. So an edit of any recorded value made outside the app (SQL, a
restore, the admin) no longer matches its link, a deleted link breaks the next one, and a
cut-off tail no longer matches the chain's head, whose own MAC needs the key.

Every chain, when its head is made, is entered in the **registry** (one chain of its own,
``registry``): a whole chain deleted with its head and records is a registered chain that is
gone. Closing a gaming day **seals** it (:func:`day_seal`): a MAC over the heads of all its
chains, stored with the close and printed on the closed day's report, so a copy kept outside
the database can be compared later (``audit_verify --day D --seal S``).

:func:`ledger_verify` walks the records, not only the chains: a row of a chained model outside
any chain (a blank chain field is a break), a chain whose head is missing, a registered chain
that is gone, a head that is not registered, every link's hash and order, a state that is not
the last one recorded, a sealed day whose heads moved, and the figures other apps re-derive
from chained records (:func:`figure_check`: a round's totals against its recorded result, a
chip count's total against its chips). ``python manage.py audit_verify`` prints every break;
the gaming-day close runs it for the day and refuses a broken day.

Chains are small so that writers do not queue behind the whole floor: per table and gaming
day one for round events, one for its cash records, one for its round results and one for
its chip counts, and one per gaming day for the desk's own records (resolutions, the day
close). Writers of one chain take turns on its head row (:class:`AuditChain`, locked with
``select_for_update``); round events are written under the table's live row lock already.

The keys are ``settings.AUDIT_CHAIN_KEYS`` (id → secret), new links use
``settings.AUDIT_CHAIN_KEY_ID``; a rotated key stays in the map for the links it made. The
key is independent of ``SECRET_KEY`` and required when ``DEBUG`` is off (casino/settings.py,
``check --deploy``). The hooks are model-level (``save``), so no write path needs to know.
"""

import datetime as dt
import hashlib
import hmac
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from decimal import Decimal

from django.apps import apps
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured, ValidationError
from django.db import IntegrityError, models, transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from floor.gaming import day_window

GENESIS = "0" * 64
REGISTRY = "registry"


class UnknownKey(Exception):  # noqa: N818 - a verification outcome
    """A link made with a key id this installation does not hold."""


def key_id() -> str:
    """The id of the key new links are made with."""
    return settings.AUDIT_CHAIN_KEY_ID


# The key id of links made before links carried one (a blank ``audit_key``): verified with
# the key they were made with, ``settings.AUDIT_CHAIN_LEGACY_KEY`` — by default the one the
# release before derived from ``SECRET_KEY`` — and their MAC's older form (no key id in it).
LEGACY = ""


def _secret(kid: str) -> bytes:
    if kid == LEGACY:
        return _legacy_secret()
    secret = settings.AUDIT_CHAIN_KEYS.get(kid)
    if not secret:
        raise UnknownKey(kid)
    return secret.encode()


def _legacy_secret() -> bytes:
    configured = getattr(settings, "AUDIT_CHAIN_LEGACY_KEY", "")
    if configured:
        return configured.encode()
    return hashlib.sha256(b"casino.audit-chain:" + settings.SECRET_KEY.encode()).digest()


def _mac(kid: str, *parts: str) -> str:
    text = "\x1f".join(parts if kid == LEGACY else (kid, *parts))
    return hmac.new(_secret(kid), text.encode(), hashlib.sha256).hexdigest()


def _value(model_field: models.Field, value):
    """A field's value as it reads back from any database, in JSON."""
    if value is None:
        return None
    if isinstance(model_field, models.DecimalField):
        value = Decimal(value).quantize(Decimal(1).scaleb(-model_field.decimal_places))
        return str(value)
    if isinstance(model_field, models.DateTimeField):
        return value.astimezone(dt.UTC).isoformat(timespec="microseconds")
    if isinstance(model_field, models.DateField):
        return value.isoformat()
    return value


def content_of(record, names) -> str:
    """The canonical text of ``record``'s ``names`` fields (sorted JSON)."""
    values = {}
    for name in names:
        model_field = record._meta.get_field(name)
        values[name] = _value(model_field, getattr(record, model_field.attname))
    return json.dumps(values, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _label(model) -> str:
    return model._meta.label_lower


def record_hash(record, fields=None) -> str:
    """The link's MAC: its place and its recorded values (``fields``: the model's
    ``audit_fields``, given for a historical model in a migration)."""
    return _mac(
        record.audit_key,
        record.audit_chain,
        str(record.audit_seq),
        record.audit_prev,
        _label(type(record)),
        content_of(record, fields if fields is not None else record.audit_fields),
    )


def entry_hash(entry) -> str:
    return _mac(
        entry.key_id,
        entry.chain,
        str(entry.seq),
        entry.prev,
        entry.model,
        str(entry.object_id),
        entry.content,
    )


def head_mac(head) -> str:
    """The head's MAC: its chain, length, last hash and gaming day (a head moved to another
    day no longer matches; a head from before key ids has the older form, without it)."""
    if head.key_id == LEGACY:
        return _mac(LEGACY, "head", head.key, str(head.length), head.head)
    return _mac(head.key_id, "head", head.key, str(head.length), head.head, str(head.gaming_day))


class AuditChain(models.Model):
    """The head of one chain: its length and last hash, locked by each writer in turn."""

    key = models.CharField(max_length=80, unique=True)
    gaming_day = models.DateField(db_index=True)
    length = models.PositiveBigIntegerField(default=0)
    head = models.CharField(max_length=64, default=GENESIS)
    mac = models.CharField(max_length=64, blank=True)
    key_id = models.CharField(max_length=16, blank=True)

    class Meta:
        app_label = "floor"
        db_table = "cashdesk_auditchain"  # made by the cash desk before the ledger moved here
        verbose_name = gettext_lazy("audit chain")
        verbose_name_plural = gettext_lazy("audit chains")

    def __str__(self) -> str:
        return f"{self.key} #{self.length}"


class AuditEntry(models.Model):
    """A later change of a chained record (its state after the change), or a chain entered
    in the registry. Append-only."""

    chain = models.CharField(max_length=80)
    seq = models.PositiveBigIntegerField()
    model = models.CharField(max_length=64)
    object_id = models.PositiveBigIntegerField()
    content = models.TextField()
    prev = models.CharField(max_length=64)
    hash = models.CharField(max_length=64)
    key_id = models.CharField(max_length=16, blank=True)

    class Meta:
        app_label = "floor"
        db_table = "cashdesk_auditentry"
        constraints = [
            models.UniqueConstraint(fields=["chain", "seq"], name="audit_entry_seq_per_chain")
        ]
        indexes = [models.Index(fields=["model", "object_id"], name="cashdesk_au_model_167d54_idx")]

    def __str__(self) -> str:
        return f"{self.chain} #{self.seq} {self.model} {self.object_id}"


def _advance(head: AuditChain, seq: int, digest: str) -> None:
    head.length, head.head, head.key_id = seq, digest, key_id()
    head.mac = head_mac(head)
    head.save(update_fields=["length", "head", "mac", "key_id"])


def _append_entry(
    head: AuditChain, *, model: str, object_id: int, content: str, entries=None
) -> None:
    """Append one :class:`AuditEntry` to the locked ``head``'s chain and move the head
    (``entries``: the entry model, a migration's historical one for :class:`Adoption`)."""
    seq = head.length + 1
    entry = (entries or AuditEntry)(
        chain=head.key,
        seq=seq,
        model=model,
        object_id=object_id,
        content=content,
        prev=head.head,
        key_id=key_id(),
    )
    entry.hash = entry_hash(entry)
    entry.save()
    _advance(head, seq, entry.hash)


def _head_make(key: str, day: dt.date) -> AuditChain:
    """Make chain ``key``'s head and enter it in the registry; returns the head, locked (a
    row this transaction inserted, or — when another writer made it a moment before — the
    other's, locked after its commit). Called inside the caller's transaction."""
    head = AuditChain(key=key, gaming_day=day, key_id=key_id())
    head.mac = head_mac(head)
    try:
        with transaction.atomic():
            head.save(force_insert=True)
    except IntegrityError:
        return AuditChain.objects.select_for_update().get(key=key)
    if key != REGISTRY:
        registry = _head_locked(REGISTRY, day)
        _append_entry(registry, model=_label(AuditChain), object_id=head.pk, content=key)
    return head


def _head_locked(key: str, day: dt.date) -> AuditChain:
    """Chain ``key``'s head, locked (``SELECT … FOR UPDATE``), made if it does not exist."""
    head = AuditChain.objects.select_for_update().filter(key=key).first()
    return head if head is not None else _head_make(key, day)


def link_after(record, *, key: str, day: dt.date, length: int, head: str) -> tuple[int, str, str]:
    """Make ``record`` (not saved yet) the link after ``(length, head)`` of chain ``key`` —
    the same link :meth:`Chained.save` would make — when the caller read the chain's head
    itself and holds its other writers off (a table's round events: under the table's live
    row lock). Returns the head's new ``(length, head, mac)`` for the caller to store with
    its own writes (with ``key_id=key_id()``); the record is then inserted as it is (not
    through ``save``)."""
    seq = length + 1
    record.audit_chain, record.audit_seq, record.audit_prev = key, seq, head
    record.audit_key = key_id()
    record.audit_hash = record_hash(record)
    moved = AuditChain(key=key, gaming_day=day, length=seq, head=record.audit_hash, key_id=key_id())
    return seq, record.audit_hash, head_mac(moved)


def chain_head_ensure(key: str, day: dt.date) -> tuple[int, int, str]:
    """The head ``(id, length, head)`` of chain ``key``, made (and registered) if it does not
    exist yet (a new gaming day's first link)."""
    head = AuditChain.objects.filter(key=key).first()
    if head is None:
        head = _head_make(key, day)
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
    audit_key = models.CharField(max_length=16, blank=True, editable=False)

    audit_fields: tuple[str, ...] = ()
    audit_state_fields: tuple[str, ...] = ()
    # The field that places a record in a gaming day (a date, or a moment in the day's
    # window): what the day close looks at for rows outside any chain.
    audit_day_field = "gaming_day"

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        if not self._state.adding and self.audit_seq is not None:
            if self._recorded_hash() != self.audit_hash:
                raise ValidationError(
                    _("A recorded value cannot be changed: record a correction instead."),
                    code="recorded",
                )
        # One transaction with the caller's (no savepoint of its own: a failure here fails
        # the caller's write as a whole, which is what a broken link must do).
        with transaction.atomic(savepoint=False):
            if self._state.adding:
                key, day = self.audit_chain_of()
                head = _head_locked(key, day)
                seq = head.length + 1
                self.audit_chain, self.audit_seq, self.audit_prev = key, seq, head.head
                self.audit_key = key_id()
                self.audit_hash = record_hash(self)
                _advance(head, seq, self.audit_hash)
            super().save(*args, **kwargs)
            if self.audit_state_fields:
                self._audit_state()

    def audit_chain_of(self) -> tuple[str, dt.date]:
        raise NotImplementedError

    def _recorded_hash(self) -> str:
        try:
            return record_hash(self)
        except UnknownKey as unknown:  # a rotation rolled out to some workers only
            raise ImproperlyConfigured(
                f"This record's link was made with the chain key id {unknown} that this worker "
                "does not hold: add it to AUDIT_CHAIN_OLD_KEYS on every worker before any "
                "worker uses it (docs/operations.md, 'The tamper-evident record')."
            ) from unknown

    @classmethod
    def audit_day_q(cls, day: dt.date) -> models.Q:
        name = cls.audit_day_field
        if isinstance(cls._meta.get_field(name), models.DateTimeField):
            start, end = day_window(day)
            return models.Q(**{f"{name}__gte": start, f"{name}__lt": end})
        return models.Q(**{name: day})

    def _audit_state(self) -> None:
        key = self.audit_chain or self.audit_chain_of()[0]
        head = _head_locked(key, self.audit_chain_of()[1])
        content = content_of(self, self.audit_state_fields)
        _append_entry(head, model=_label(type(self)), object_id=self.pk, content=content)


# -- the day's seal -------------------------------------------------------------------------


def day_heads(day: dt.date) -> str:
    """The heads of every chain of gaming day ``day``, one ``key length head`` a line."""
    heads = AuditChain.objects.filter(gaming_day=day).exclude(key=REGISTRY).order_by("key")
    return "\n".join(f"{h.key} {h.length} {h.head}" for h in heads)


def seal_of(day: dt.date, heads: str, kid: str) -> str:
    return _mac(kid, "seal", day.isoformat(), heads)


def day_seal(day: dt.date) -> tuple[str, str, str]:
    """Seal gaming day ``day`` as its chains stand now: ``(heads, key id, seal)``."""
    heads = day_heads(day)
    return heads, key_id(), seal_of(day, heads, key_id())


# -- verification ---------------------------------------------------------------------------


@dataclass
class Broken:
    """One break: which chain (or record), where, what."""

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
    breaks: list[Broken] = field(default_factory=list)

    @property
    def broken(self) -> Broken | None:
        return self.breaks[0] if self.breaks else None


# Checks other apps register (``figure_check``): each takes the gaming day (or None for
# all) and yields the breaks it finds in figures re-derived from chained records; an
# ``expensive`` one (a replay of every round) runs in ``audit_verify``, not in the day close.
_FIGURE_CHECKS: list[tuple[Callable[[dt.date | None], Iterable[Broken]], bool]] = []


def figure_check(check=None, *, expensive: bool = False):
    """Register ``check`` (a decorator, ``@figure_check`` or ``@figure_check(expensive=True)``)."""

    def register(function):
        _FIGURE_CHECKS.append((function, expensive))
        return function

    return register(check) if check is not None else register


def chained_models() -> list[type[Chained]]:
    return [m for m in apps.get_models() if issubclass(m, Chained)]


def _what(link) -> str:
    if isinstance(link, AuditEntry):
        return f"{link.model} #{link.object_id}, " + _("a later change")
    return f"{_label(type(link))} #{link.pk}"


def _links_of(head: AuditChain, models_: list) -> dict[int, list]:
    links: dict[int, list] = {}
    for model in models_:
        for record in model.objects.filter(audit_chain=head.key).order_by("audit_seq"):
            links.setdefault(record.audit_seq, []).append(record)
    for entry in AuditEntry.objects.filter(chain=head.key).order_by("seq"):
        links.setdefault(entry.seq, []).append(entry)
    return links


def _link_digest(link) -> tuple[str, str, str]:
    """``(prev, recomputed hash, stored hash)`` of a record or an entry."""
    if isinstance(link, AuditEntry):
        return link.prev, entry_hash(link), link.hash
    return link.audit_prev, record_hash(link), link.audit_hash


def _chain_broken(head: AuditChain, models_: list) -> tuple[int, Broken | None]:
    """Walk one chain from its first link; return the links seen and the first break."""
    try:
        return _chain_walk(head, models_)
    except UnknownKey as unknown:
        reason = _("a link was made with a key this installation does not hold (id %(id)r)")
        return 0, Broken(head.key, head.length, "—", reason % {"id": str(unknown)})


def _day_of_key(key: str) -> dt.date | None:
    try:
        return dt.date.fromisoformat(key.rpartition(":")[2])
    except ValueError:
        return None


def _chain_walk(head: AuditChain, models_: list) -> tuple[int, Broken | None]:
    links = _links_of(head, models_)
    if not hmac.compare_digest(head.mac, head_mac(head)):
        return 0, Broken(head.key, head.length, "head", _("the chain's head was changed"))
    named = _day_of_key(head.key)
    if named is not None and named != head.gaming_day:
        return 0, Broken(head.key, head.length, "head", _("the chain's gaming day was changed"))
    prev, last_state = GENESIS, {}
    for seq in range(1, max([head.length, *links]) + 1):
        found = links.get(seq, [])
        if len(found) != 1:
            reason = _("the link is missing") if not found else _("two links hold this place")
            return seq, Broken(head.key, seq, "—", reason)
        link = found[0]
        link_prev, digest, stored = _link_digest(link)
        if not hmac.compare_digest(digest, stored):
            reason = (
                _("the change was altered")
                if isinstance(link, AuditEntry)
                else _("the recorded values do not match their hash")
            )
            return seq, Broken(head.key, seq, _what(link), reason)
        if link_prev != prev:
            reason = _("it does not follow the link before it")
            return seq, Broken(head.key, seq, _what(link), reason)
        if isinstance(link, AuditEntry):
            last_state[(link.model, link.object_id)] = link.content
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
            return seq, Broken(head.key, seq, _what(link), reason)
    return len(links), None


def _outside_chains(models_: list, keys: set[str], day: dt.date | None) -> Iterable[Broken]:
    """Rows of chained models that are no link of a chain, or of a chain without a head (of
    gaming day ``day`` only, when given: the day close; ``audit_verify`` looks at all)."""
    blank = models.Q(audit_chain="") | models.Q(audit_seq__isnull=True) | models.Q(audit_hash="")
    of_day = models.Q(audit_chain__endswith=f":{day}") if day else models.Q()
    for model in models_:
        rows = model.objects.filter(blank)
        if day is not None:
            rows = rows.filter(model.audit_day_q(day))
        for pk in rows.values_list("pk", flat=True)[:50]:
            reason = _("a record outside any chain (its chain fields are blank)")
            yield Broken("—", 0, f"{_label(model)} #{pk}", reason)
        named = set(
            model.objects.exclude(audit_chain="")
            .filter(of_day)
            .order_by()
            .values_list("audit_chain", flat=True)
            .distinct()
        )
        for key in sorted(named - keys):
            reason = _("the chain's head is missing (deleted or never made)")
            yield Broken(key, 0, _label(model), reason)
    of_day = models.Q(chain__endswith=f":{day}") if day else models.Q()
    entry_chains = set(
        AuditEntry.objects.filter(of_day).order_by().values_list("chain", flat=True).distinct()
    )
    for key in sorted(entry_chains - keys):
        yield Broken(key, 0, _label(AuditEntry), _("the chain's head is missing"))


def _registry_breaks(heads: dict[str, AuditChain], day: dt.date | None) -> Iterable[Broken]:
    entries = AuditEntry.objects.filter(chain=REGISTRY)
    if day is not None:
        entries = entries.filter(content__endswith=f":{day}")
    registered = dict(entries.values_list("content", "seq").order_by("seq"))
    for key, seq in sorted(registered.items()):
        if key not in heads:
            reason = _("a registered chain is gone (its head was deleted)")
            yield Broken(REGISTRY, seq, key, reason)
    for key in sorted(set(heads) - set(registered) - {REGISTRY}):
        yield Broken(key, 0, "head", _("a chain that is not in the registry"))


def _link_hash(key: str, seq: int) -> str | None:
    """The stored hash of link ``seq`` of chain ``key`` (None when there is none)."""
    for model in chained_models():
        found = model.objects.filter(audit_chain=key, audit_seq=seq).values_list("audit_hash")
        if found:
            return found[0][0]
    entry = AuditEntry.objects.filter(chain=key, seq=seq).values_list("hash").first()
    return entry[0] if entry else None


def seal_breaks(day: dt.date, sealed_heads: str, kid: str, seal: str) -> list[Broken]:
    """What no longer holds of a day's seal: the seal must be the MAC of the heads it lists,
    and each sealed head ``key length hash`` must still be link ``length`` of its chain (the
    chains themselves are walked by :func:`ledger_verify`, so the links before it are those
    sealed). A chain may have grown since (a table that opened again after the close writes
    its round events and counts on), but never lost a sealed link or changed one."""
    where = f"seal:{day.isoformat()}"
    try:
        if not hmac.compare_digest(seal_of(day, sealed_heads, kid), seal):
            return [Broken(where, 0, "seal", _("the seal does not match the heads it sealed"))]
    except UnknownKey:
        return [Broken(where, 0, "seal", _("the seal was made with a key not held here"))]
    found = []
    for line in sealed_heads.splitlines():
        key, length, digest = line.split(" ")
        if int(length) == 0:
            continue
        now = _link_hash(key, int(length))
        if now is None:
            reason = _("a sealed link is gone: the chain was cut or rolled back")
            found.append(Broken(key, int(length), where, reason))
        elif not hmac.compare_digest(now, digest):
            reason = _("a sealed link was replaced")
            found.append(Broken(key, int(length), where, reason))
    return found


def ledger_verify(*, day: dt.date | None = None, thorough: bool = True) -> Verified:
    """Walk every chain and the records around them — or, with ``day``, the chains of that
    gaming day (by their head's day or their name: a head moved to another day is still
    found) with its records and the registry; return every break found (the first one of
    each chain). ``thorough=False`` (the day close) leaves out the expensive figure checks."""
    result = Verified()
    models_ = chained_models()
    heads = AuditChain.objects.all()
    if day is not None:
        heads = heads.filter(
            models.Q(gaming_day=day) | models.Q(key__endswith=f":{day}") | models.Q(key=REGISTRY)
        )
    heads = {h.key: h for h in heads}
    for head in sorted(heads.values(), key=lambda h: (h.gaming_day, h.key)):
        seen, broken = _chain_broken(head, models_)
        result.chains += 1
        result.links += seen
        if broken is not None:
            result.breaks.append(broken)
    result.breaks.extend(_outside_chains(models_, set(heads), day))
    result.breaks.extend(_registry_breaks(heads, day))
    for check, expensive in _FIGURE_CHECKS:
        if thorough or not expensive:
            result.breaks.extend(check(day))
    return result


def day_verify(day: dt.date) -> None:
    """Refuse (``ValidationError``, code ``audit_broken``) when the record of ``day`` — or
    any record outside a chain — is broken."""
    broken = ledger_verify(day=day, thorough=False).broken
    if broken is not None:
        raise ValidationError(
            _(
                "The record of this gaming day fails its tamper check (%(broken)s): nothing "
                "was closed. Run manage.py audit_verify and tell IT."
            )
            % {"broken": broken},
            code="audit_broken",
        )


# -- the upgrade: records and chains from before ---------------------------------------------


class Adoption:
    """Chain what a database upgraded to this release holds unchained — run by migrations,
    with their historical models (``apps``): the heads made before the registry are entered
    in it, and the rows of a model chained since (chip counts, round results) become links of
    their chains, in the order they were written, with the key in use. They are
    tamper-evident from the upgrade on, not before (docs/operations.md)."""

    def __init__(self, apps):
        self.chain = apps.get_model("floor", "AuditChain")
        self.entry = apps.get_model("floor", "AuditEntry")
        self.apps = apps

    def register_heads(self) -> None:
        registered = set(
            self.entry.objects.filter(chain=REGISTRY).values_list("content", flat=True)
        )
        for head in self.chain.objects.exclude(key=REGISTRY).order_by("gaming_day", "key"):
            if head.key not in registered:
                registry = self._head(REGISTRY, head.gaming_day)
                self._append(registry, "floor.auditchain", head.pk, head.key)

    def rows(self, label: str, fields, state_fields, chain_of) -> None:
        model = self.apps.get_model(label)
        for row in model.objects.filter(audit_chain="").order_by("pk"):
            key, day = chain_of(row)
            head = self._head(key, day)
            row.audit_chain, row.audit_seq = key, head.length + 1
            row.audit_prev, row.audit_key = head.head, key_id()
            row.audit_hash = record_hash(row, fields)
            model.objects.filter(pk=row.pk).update(
                audit_chain=row.audit_chain,
                audit_seq=row.audit_seq,
                audit_prev=row.audit_prev,
                audit_key=row.audit_key,
                audit_hash=row.audit_hash,
            )
            _advance(head, row.audit_seq, row.audit_hash)
            if state_fields:
                self._append(head, _label(model), row.pk, content_of(row, state_fields))

    def _head(self, key: str, day: dt.date):
        head = self.chain.objects.filter(key=key).first()
        if head is None:
            head = self.chain(key=key, gaming_day=day, key_id=key_id())
            head.mac = head_mac(head)
            head.save()
            if key != REGISTRY:
                self._append(self._head(REGISTRY, day), "floor.auditchain", head.pk, key)
        return head

    def _append(self, head, model: str, object_id: int, content: str) -> None:
        _append_entry(head, model=model, object_id=object_id, content=content, entries=self.entry)
