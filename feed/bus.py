"""One publish per change, fanned out by every worker to its own screens.

A committed change becomes one :class:`Message` per topic: its sequence number and what
was rendered for it once — one HTML fragment per (fragment, language) pair somebody
watches (``feed.presence``). :func:`publish` hands the messages to this process's screens
at once (``feed.hub``: every event loop here that has screens) and, with Redis, sends each
with one ``PUBLISH`` (all of a transaction's in one round trip) to the channel of its topic;
every other worker subscribes to the topics its own screens follow and fans each message
out to them in memory. Nothing goes through a channel layer: one message per change
crosses Redis, not one per screen or group.

Redis delivers at most once: a message lost on the way (Redis restarting, a worker dying
after its commit) is healed from the database by the screens' ``sync``.
"""

from __future__ import annotations

import json
import logging
import os
import secrets
import threading
import weakref
from dataclasses import dataclass, field

import redis
from django.conf import settings

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

    def encode(self) -> str:
        return json.dumps(
            {
                "w": WORKER,
                "t": self.topic,
                "s": self.seq,
                "f": self.fragments,
                "d": self.delta,
                "e": self.event,
            },
            separators=(",", ":"),
        )

    @classmethod
    def decode(cls, raw) -> tuple[str, Message] | None:
        """(the sending worker, the message) from what Redis carried, or None if it is not
        one of ours."""
        try:
            data = json.loads(raw)
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


def channel(topic: str) -> str:
    """The Redis channel of ``topic``."""
    return f"{settings.FEED_PREFIX}:t:{topic}"


def control_channel() -> str:
    """The channel every worker listens to whatever its screens follow (presence news)."""
    return f"{settings.FEED_PREFIX}:control"


_client = None
_client_lock = threading.Lock()


def redis_client():
    """This process's Redis client for publishing from any thread (``None``: no Redis, one
    process: the screens are all here)."""
    global _client
    url = getattr(settings, "REDIS_URL", "")
    if not url:
        return None
    with _client_lock:
        if _client is None or _client.url != url:
            _client = redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=2)
            _client.url = url
        return _client


# This process's hubs (one per event loop that has screens, ``feed.hub``): each takes
# messages from any thread.
_hubs: weakref.WeakSet = weakref.WeakSet()


def hub_register(hub) -> None:
    _hubs.add(hub)


def deliver_here(messages: list[Message]) -> None:
    """Hand ``messages`` to every hub of this process (from any thread)."""
    for hub in list(_hubs):
        hub.receive_threadsafe(messages)


def _forked() -> None:
    """A forked child (a test's live server, a pre-forking server) is another worker: its own
    id, no hub of the parent's loops, no Redis connection of the parent's."""
    global WORKER, _client, _hubs
    WORKER = secrets.token_hex(6)
    _client = None
    _hubs = weakref.WeakSet()


os.register_at_fork(after_in_child=_forked)


def publish(messages: list[Message]) -> None:
    """Send ``messages`` to every screen that follows their topics: this process's at once,
    the other workers' through Redis. A failure is logged and counted; it never undoes a
    commit (the screens heal at their next ``sync``)."""
    if not messages:
        return
    deliver_here(messages)
    metrics.FEED_MESSAGES.labels("published").inc(len(messages))
    client = redis_client()
    if client is None:
        return
    try:
        with client.pipeline(transaction=False) as pipe:
            for message in messages:
                pipe.publish(channel(message.topic), message.encode())
            pipe.execute()
    except Exception:
        metrics.SEND_FAILURES.inc()
        log.exception("publishing %d message(s) to the other workers failed", len(messages))
