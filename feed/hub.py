"""The screens of this process on one event loop (daphne runs one): who follows which topic,
the last messages of each topic, and — with Redis — the subscription that brings the other
workers' messages.

A message reaches the hub either from this process (``feed.bus.publish``, from whatever
thread committed) or from Redis (the subscriber below, for the topics this worker's screens
follow, one ``SUBSCRIBE`` per topic). The hub hands each message, in the order it came, to
every screen following its topic (``feed.consumers.ScreenConsumer.feed_message``) and keeps
the last ``FEED_BUFFER`` of each topic, from which a screen's ``sync`` is answered when it
is only a few messages behind. When Redis comes back after an outage every screen checks
its topics against the database (messages may have been lost meanwhile).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from collections import deque

import redis.asyncio
from django.conf import settings

from feed import bus, metrics, presence
from feed.bus import Message

log = logging.getLogger(__name__)

FEED_BUFFER = 32  # messages kept per followed topic


class _Topic:
    """One followed topic: its followers here and its last messages, by sequence."""

    __slots__ = ("followers", "recent")

    def __init__(self):
        self.followers: set = set()
        self.recent: deque[Message] = deque(maxlen=FEED_BUFFER)

    def remember(self, message: Message) -> None:
        if any(m.seq == message.seq for m in self.recent):
            return
        self.recent.append(message)
        if len(self.recent) > 1 and self.recent[-2].seq > message.seq:  # came late
            ordered = sorted(self.recent, key=lambda m: m.seq)
            self.recent.clear()
            self.recent.extend(ordered)

    def after(self, seq: int) -> list[Message]:
        return [m for m in self.recent if m.seq > seq]

    def covering(self, known: int, current: int, pair: str) -> list[Message] | None:
        """The messages that bring a screen showing ``known`` to ``current``, from memory:
        the newest alone when it is complete, else every delta since the last complete one;
        None when memory does not reach that far (or lacks the screen's pair)."""
        by_seq = {m.seq: m for m in self.recent}
        last = by_seq.get(current)
        if known < 0 or last is None or pair not in last.fragments:
            return None
        if not last.delta:
            return [last]
        needed: list[Message] = []
        for seq in range(known + 1, current + 1):
            message = by_seq.get(seq)
            if message is None or pair not in message.fragments:
                return None
            needed = [message] if not message.delta else [*needed, message]
        return needed


class Hub:
    def __init__(self, loop: asyncio.AbstractEventLoop):
        self.loop = loop
        self.topics: dict[str, _Topic] = {}
        self.queue: asyncio.Queue = asyncio.Queue()
        self.closed = False
        url = getattr(settings, "REDIS_URL", "")
        self.redis = redis.asyncio.Redis.from_url(url, socket_connect_timeout=2) if url else None
        self.tasks = [loop.create_task(self._pump())]
        self.subscriber = _Subscriber(self) if url else None
        if self.redis is not None:
            self.tasks.append(loop.create_task(self._share_presence()))
        bus.hub_register(self)

    # -- from any thread ----------------------------------------------------------------------

    def receive_threadsafe(self, messages: list[Message]) -> None:
        if self.closed or self.loop.is_closed():
            return
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
            self.loop.call_soon_threadsafe(self.queue.put_nowait, messages)

    # -- on the loop --------------------------------------------------------------------------

    async def _pump(self) -> None:
        while True:
            for message in await self.queue.get():
                await self._dispatch(message)

    async def _dispatch(self, message: Message) -> None:
        state = self.topics.get(message.topic)
        if state is None:
            return
        if message.seq is not None:
            state.remember(message)
        for follower in list(state.followers):
            try:
                await follower.feed_message(message)
            except Exception:
                log.exception("a screen failed to take a message of %s", message.topic)

    async def follow(self, topic: str, follower, watched_pair: str | None = None) -> None:
        """``follower`` receives every message of ``topic`` from now on; ``watched_pair``:
        what it shows of it (rendered for it at every change)."""
        state = self.topics.get(topic)
        first = state is None
        if first:
            state = self.topics[topic] = _Topic()
        state.followers.add(follower)
        if watched_pair and presence.add(topic, watched_pair) and self.redis is not None:
            news = f"{bus.WORKER} {topic} {watched_pair}"
            with contextlib.suppress(Exception):  # the periodic share tells them anyway
                await self.redis.publish(bus.control_channel(), news)
        if first and self.subscriber is not None:
            await self.subscriber.subscribe(topic)

    async def unfollow(self, topic: str, follower, watched_pair: str | None = None) -> None:
        state = self.topics.get(topic)
        if state is None or follower not in state.followers:
            return
        state.followers.discard(follower)
        if watched_pair:
            presence.remove(topic, watched_pair)
        if not state.followers:
            del self.topics[topic]
            if self.subscriber is not None:
                await self.subscriber.unsubscribe(topic)
        if not self.topics:
            self.close()

    def recent(self, topic: str) -> _Topic | None:
        return self.topics.get(topic)

    def resync(self) -> None:
        """Messages may have been lost (Redis came back): every screen checks its topics
        against the database."""
        followers = {f for state in self.topics.values() for f in state.followers}
        for follower in followers:
            follower.recheck_soon()

    async def _share_presence(self) -> None:
        while True:
            try:
                await presence.share(self.redis)
            except Exception:  # Redis away: the next round shares again
                log.warning("sharing the screens' presence failed", exc_info=True)
            await asyncio.sleep(presence.PRESENCE_SHARE_SECONDS)

    def close(self) -> None:
        """No screen left on this loop: stop listening (a new screen starts a new hub)."""
        if self.closed:
            return
        self.closed = True
        _hubs.pop(self.loop, None)
        for task in self.tasks:
            task.cancel()
        if self.subscriber is not None:
            self.subscriber.task.cancel()
        if self.redis is not None:
            self.loop.create_task(_quietly(self.redis.aclose()))


async def _quietly(awaitable) -> None:
    with contextlib.suppress(Exception):
        await awaitable


class _Subscriber:
    """This hub's one Redis subscription: the channel of every topic its screens follow,
    and the control channel. Reconnects by itself; after a reconnection the screens check
    their topics against the database."""

    def __init__(self, hub: Hub):
        self.hub = hub
        self.pubsub = None
        self.task = hub.loop.create_task(self._run())

    async def subscribe(self, topic: str) -> None:
        if self.pubsub is not None:
            with contextlib.suppress(Exception):  # reconnecting: it subscribes to all then
                await self.pubsub.subscribe(bus.channel(topic))

    async def unsubscribe(self, topic: str) -> None:
        if self.pubsub is not None:
            with contextlib.suppress(Exception):
                await self.pubsub.unsubscribe(bus.channel(topic))

    async def _run(self) -> None:
        delay, lost = 0.1, False
        while True:
            client = redis.asyncio.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=2)
            pubsub = client.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(bus.control_channel())
                self.pubsub = pubsub
                topics = [bus.channel(t) for t in self.hub.topics]
                if topics:
                    await pubsub.subscribe(*topics)
                delay = 0.1
                if lost:
                    log.warning("the feed's Redis subscription is back")
                    self.hub.resync()
                async for raw in pubsub.listen():
                    self._handle(raw)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("the feed's Redis subscription failed; retrying", exc_info=True)
            finally:
                self.pubsub = None
                await _quietly(pubsub.aclose())
                await _quietly(client.aclose())
            lost = True
            await asyncio.sleep(delay)
            delay = min(delay * 2, 5)

    def _handle(self, raw) -> None:
        if raw.get("type") != "message":
            return
        data = raw.get("data")
        if raw.get("channel", b"").decode() == bus.control_channel():
            worker, _, rest = data.decode().partition(" ")
            topic, _, watched_pair = rest.partition(" ")
            if worker != bus.WORKER and topic and watched_pair:
                presence.remote_add(topic, watched_pair)
            return
        decoded = Message.decode(data)
        if decoded is None or decoded[0] == bus.WORKER:
            return  # not ours, or this worker's own (delivered here already)
        metrics.FEED_MESSAGES.labels("received").inc()
        self.hub.queue.put_nowait([decoded[1]])


_hubs: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def current() -> Hub:
    """The hub of the running event loop (made on first use)."""
    loop = asyncio.get_running_loop()
    hub = _hubs.get(loop)
    if hub is None or hub.closed:
        hub = _hubs[loop] = Hub(loop)
    return hub
