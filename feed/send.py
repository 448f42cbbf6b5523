"""``send_on_commit(topic, event)``: the only way anything reaches a live screen.

A service that changes something a screen shows says so inside its transaction. The topic's
sequence moves at once, in that transaction, once however often it is said there
(``feed.sequences.topic_next``: the row stays locked to the commit, so the numbers follow the
commits, one number per committed change of the topic); everything said in one transaction
is collected per topic and, once it commits, each topic is rendered once by its
renderer — the function ``settings.FEED_TOPICS`` names for the topic's kind (the part before
the first dot: ``table``, ``duty``), in the app above that knows the screens — and all of the
transaction's messages go out in one publish (``feed.bus``). A control topic (a kind named
with ``None``: ``user.<id>``, a person's revocations) is not sequenced and not rendered: its
events travel as they are. Rolled back, nothing moves and nothing is sent. Outside a
transaction, a call sends at once.

A renderer is called as ``renderer(topic, seq, events)`` after the commit, with every event
said of the topic in the transaction (in order), and returns ``(fragments, delta)``: the
HTML per watched (fragment, language) pair, and whether it applies only on top of the
previous message. A failing renderer is logged and counted, the commit stands, and a message
with no fragments still goes out: each screen sees its pair missing and fetches its state.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, transaction
from django.utils.module_loading import import_string

from feed import bus, metrics
from feed.bus import Message
from feed.sequences import topic_next

log = logging.getLogger(__name__)

Renderer = Callable[[str, int, list[dict]], tuple[dict[str, str], bool]]


@dataclass
class Said:
    """What one transaction said of one sequenced topic."""

    seq: int
    events: list[dict] = field(default_factory=list)


@dataclass
class _Pending:
    topics: dict[str, Said] = field(default_factory=dict)
    controls: list[tuple[str, dict]] = field(default_factory=list)

    def flush(self) -> None:
        topics, controls = self.topics, self.controls
        self.topics, self.controls = {}, []
        deliver(topics, controls)


_renderers: dict[str, Renderer | None] | None = None


def renderers() -> dict[str, Renderer | None]:
    """Each topic kind's renderer (``settings.FEED_TOPICS``; ``None``: a control topic)."""
    global _renderers
    if _renderers is None:
        _renderers = {
            kind: (import_string(path) if path else None)
            for kind, path in settings.FEED_TOPICS.items()
        }
    return _renderers


def kind_of(topic: str) -> str:
    return topic.split(".", 1)[0]


def is_control(topic: str) -> bool:
    kinds = renderers()
    return kind_of(topic) in kinds and kinds[kind_of(topic)] is None


def send_on_commit(
    topic: str,
    event: dict | None = None,
    *,
    seq: int | None = None,
    using: str = DEFAULT_DB_ALIAS,
) -> int | None:
    """``topic``'s screens show something that changed in this transaction; ``event`` says
    what (for its renderer). Returns the topic's new sequence number (``None`` for a control
    topic): moved by the first word of the topic in the transaction, the same for the rest.
    ``seq``: the caller already moved the sequence in its own statement."""
    kind = kind_of(topic)
    if kind not in renderers():
        raise ValueError(f"unknown topic kind {kind!r} (settings.FEED_TOPICS)")
    pending = _pending(using)
    if renderers()[kind] is None:
        pending.controls.append((topic, dict(event or {})))
    else:
        said = pending.topics.get(topic)
        if said is None:  # the first word of this topic in the transaction moves it, once
            if seq is None:
                seq = topic_next(topic, using=using)
            said = pending.topics[topic] = Said(seq=seq)
        said.events.append(dict(event or {}))
        seq = said.seq
    _register(pending, using)
    return seq


def said(topic: str, *, using: str = DEFAULT_DB_ALIAS) -> bool:
    """Has this transaction said ``topic`` already (its sequence moved)?"""
    connection = transaction.get_connection(using)
    pending = getattr(connection, "_feed_pending", None)
    return bool(
        pending is not None
        and connection.in_atomic_block
        and topic in pending.topics
        and _registered(pending, using)
    )


def deliver(topics: dict[str, Said], controls: list[tuple[str, dict]]) -> None:
    """Render each topic once and publish everything (controls first: a screen that may no
    longer show a topic closes before its new state arrives)."""
    messages = [Message(topic=t, event=e) for t, e in controls]
    for topic in sorted(topics):
        messages.append(render(topic, topics[topic]))
    bus.publish(messages)


def render(topic: str, said: Said) -> Message:
    started = time.perf_counter()
    try:
        fragments, delta = renderers()[kind_of(topic)](topic, said.seq, said.events)
    except Exception:
        log.exception("rendering %s failed", topic)
        metrics.PUBLISH_FAILURES.inc()
        fragments, delta = {}, False
    metrics.PUBLISH_SECONDS.observe(time.perf_counter() - started)
    return Message(topic=topic, seq=said.seq, fragments=fragments, delta=delta)


def _pending(using: str) -> _Pending:
    connection = transaction.get_connection(using)
    pending = getattr(connection, "_feed_pending", None)
    if pending is not None and connection.in_atomic_block and _registered(pending, using):
        return pending
    pending = _Pending()
    connection._feed_pending = pending
    return pending


def _registered(pending: _Pending, using: str) -> bool:
    connection = transaction.get_connection(using)
    return any(callback == pending.flush for _sids, callback, *_ in connection.run_on_commit)


def _register(pending: _Pending, using: str) -> None:
    if not _registered(pending, using):
        transaction.on_commit(pending.flush, using=using)
