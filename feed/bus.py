"""One publish per change, fanned out by every worker to its own screens.

A committed change becomes one :class:`Message` per topic: its sequence number and what
was rendered for it once — one HTML fragment per (fragment, language) pair somebody
watches (``feed.presence``). :func:`publish` hands the messages to this process's screens
at once (``feed.hub``: every event loop here that has screens) and, with Redis, sends each
to the other workers through the channel layer (``settings.CHANNEL_LAYERS``: channels-redis'
``RedisPubSubChannelLayer``): one ``group_send`` — one ``PUBLISH`` — to the topic's group,
which every worker whose screens follow the topic has joined with one channel of its own
(its hub), and fans out to its screens in memory. One message per change crosses Redis,
not one per screen. Without Redis (the in-memory layer) there is one process and nothing
to cross.

The ``group_send`` runs on the event loop of one of this process's hubs (the committing
thread only schedules it: no event loop, no connection per call); a process with no hub —
a management command, a worker with no screen open — publishes on one event loop of its
own, started once (``_PublishingLoop``).

Redis delivers at most once: a message lost on the way (Redis restarting, a worker dying
after its commit) is healed from the database by the screens' ``sync``.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import threading
import weakref
from dataclasses import dataclass, field

from channels.layers import InMemoryChannelLayer, get_channel_layer

from feed import metrics

log = logging.getLogger(__name__)

# This process: a worker skips its own messages when Redis brings them back.
WORKER = secrets.token_hex(6)


@dataclass
class Message:
    """What one committed change of one topic pushes, rendered once.

    ``seq``: the topic's sequence number after the change (``None``: a control message, such
    as a revocation, which is not sequenced). ``fragments``: the HTML for each pair
    (``"<fragment>:<language>"``) somebody watched when it was rendered. ``delta``: it
    applies only on top of ``seq - 1`` (otherwise it is complete and replaces what came
    before). ``event``: a control message's content.
    """

    topic: str
    seq: int | None = None
    fragments: dict[str, str] = field(default_factory=dict)
    delta: bool = False
    event: dict | None = None

    def as_layer(self) -> dict:
        """The message as the channel layer carries it (msgpack)."""
        return {
            "type": "feed.message",
            "w": WORKER,
            "t": self.topic,
            "s": self.seq,
            "f": self.fragments,
            "d": self.delta,
            "e": self.event,
        }

    @classmethod
    def from_layer(cls, data) -> tuple[str, Message] | None:
        """(the sending worker, the message) from what the layer carried, or None if it is
        not one of ours."""
        try:
            message = cls(
                topic=str(data["t"]),
                seq=None if data.get("s") is None else int(data["s"]),
                fragments={str(k): str(v) for k, v in (data.get("f") or {}).items()},
                delta=bool(data.get("d")),
                event=data.get("e") if isinstance(data.get("e"), dict) else None,
            )
        except (ValueError, TypeError, KeyError, AttributeError):
            return None
        return str(data.get("w", "")), message


def group(topic: str) -> str:
    """The layer's group of ``topic`` (the layer adds ``FEED_PREFIX``)."""
    return f"t.{topic}"


CONTROL_GROUP = "control"  # every worker's hub, whatever its screens follow (presence news)


def remote_layer():
    """The channel layer that reaches the other workers, or None: one process, the screens
    are all here (the in-memory layer crosses nothing)."""
    layer = get_channel_layer()
    if layer is None or isinstance(layer, InMemoryChannelLayer):
        return None
    return layer


# This process's hubs (one per event loop that has screens, ``feed.hub``): each takes
# messages from any thread.
_hubs: weakref.WeakSet = weakref.WeakSet()


def hub_register(hub) -> None:
    _hubs.add(hub)


def deliver_here(messages: list[Message]) -> None:
    """Hand ``messages`` to every hub of this process (from any thread)."""
    for hub in list(_hubs):
        hub.receive_threadsafe(messages)


class _PublishingLoop:
    """An event loop of this process's own, on a thread, for publishing where no hub runs
    one (a management command; a worker with no screen open): one loop and one Redis
    connection for the process, not one per publish as ``async_to_sync`` would make."""

    def __init__(self):
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.name = "feed-publish"
        self.thread.start()


_publishing: _PublishingLoop | None = None
_publishing_lock = threading.Lock()


def _publishing_loop() -> asyncio.AbstractEventLoop:
    global _publishing
    with _publishing_lock:
        if _publishing is None:
            _publishing = _PublishingLoop()
        return _publishing.loop


def _hub_loop() -> asyncio.AbstractEventLoop | None:
    for hub in list(_hubs):
        if not hub.closed and hub.loop.is_running():
            return hub.loop
    return None


def _forked() -> None:
    """A forked child (a test's live server, a pre-forking server) is another worker: its own
    id, no hub of the parent's loops, no publishing loop of the parent's."""
    global WORKER, _hubs, _publishing, _publishing_lock
    WORKER = secrets.token_hex(6)
    _hubs = weakref.WeakSet()
    _publishing, _publishing_lock = None, threading.Lock()


os.register_at_fork(after_in_child=_forked)


_unsent: set[str] = set()  # topics whose messages did not reach the other workers
_unsent_lock = threading.Lock()


def unsent_take() -> list[str]:
    """The topics some publish failed for since last asked (their screens elsewhere should
    compare with the database once the layer works again: ``feed.hub``)."""
    with _unsent_lock:
        topics = sorted(_unsent)
        _unsent.clear()
    return topics


async def _send(layer, payloads: list[dict]) -> None:
    for done, payload in enumerate(payloads):
        try:
            await layer.group_send(group(payload["t"]), payload)
        except Exception:
            metrics.SEND_FAILURES.inc()
            log.exception("publishing %d message(s) to the other workers failed", len(payloads))
            with _unsent_lock:
                _unsent.update(p["t"] for p in payloads[done:] if p.get("s") is not None)
            for hub in list(_hubs):
                hub.layer_failed()
            return


def publish(messages: list[Message]) -> None:
    """Send ``messages`` to every screen that follows their topics: this process's at once,
    the other workers' through the channel layer. A failure is logged and counted; it never
    undoes a commit (the screens heal at their next ``sync``)."""
    if not messages:
        return
    deliver_here(messages)
    metrics.FEED_MESSAGES.labels("published").inc(len(messages))
    layer = remote_layer()
    if layer is None:
        return
    payloads = [message.as_layer() for message in messages]
    loop = _hub_loop()
    if loop is not None:  # scheduled on the screens' loop; the commit does not wait
        asyncio.run_coroutine_threadsafe(_send(layer, payloads), loop)
        return
    future = asyncio.run_coroutine_threadsafe(_send(layer, payloads), _publishing_loop())
    try:  # no screens here: wait, so a command's process does not end before it is out
        future.result(timeout=5)
    except Exception:
        metrics.SEND_FAILURES.inc()
        log.exception("publishing %d message(s) timed out", len(messages))
