"""The screens of this process on one event loop (daphne runs one): who follows which topic,
the last messages of each topic, and — with Redis — this worker's one channel of the channel
layer, which joins the group of every topic its screens follow.

A message reaches the hub either from this process (``feed.bus.publish``, from whatever
thread committed) or through the layer from another worker (``_Listener``: channels-redis'
``RedisPubSubChannelLayer``, one subscription per followed topic and worker). The hub hands
each message, in the order it came, to every screen following its topic
(``feed.consumers.ScreenConsumer.feed_message``) and keeps the last ``FEED_BUFFER`` of each
topic, from which a screen's ``sync`` is answered when it is only a few messages behind.

The layer says nothing when its Redis connection breaks (it logs, reconnects and
subscribes again by itself, losing what was published meanwhile), so the listener sends
its own channel a ping every ``PING_SECONDS``: a ping that fails or does not come back
marks the path broken, and the first one back after that re-joins the groups and has every
screen check its topics against the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
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
        # Who watches what and each person's screens: keys in Redis (feed.presence).
        self.redis = redis.asyncio.Redis.from_url(url, socket_connect_timeout=2) if url else None
        self.tasks = [loop.create_task(self._pump())]
        layer = bus.remote_layer()
        self.listener = _Listener(self, layer) if layer is not None else None
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
        if watched_pair and presence.add(topic, watched_pair) and self.listener is not None:
            await self.listener.announce(topic, watched_pair)
        if first and self.listener is not None:
            await self.listener.join(topic)

    async def unfollow(self, topic: str, follower, watched_pair: str | None = None) -> None:
        state = self.topics.get(topic)
        if state is None or follower not in state.followers:
            return
        state.followers.discard(follower)
        if watched_pair:
            presence.remove(topic, watched_pair)
        if not state.followers:
            del self.topics[topic]
            if self.listener is not None:
                await self.listener.leave(topic)
        if not self.topics:
            self.close()

    def layer_failed(self) -> None:
        """(From any thread.) The layer lost something on the way: once it works again, the
        screens compare with the database."""
        if self.listener is not None and not self.loop.is_closed():
            with contextlib.suppress(RuntimeError):
                self.loop.call_soon_threadsafe(self.listener.break_off)

    def recheck(self, topics: list[str]) -> None:
        """Another worker's messages of ``topics`` may not have come: their screens here
        compare with the database."""
        followers = {f for t in topics if t in self.topics for f in self.topics[t].followers}
        for follower in followers:
            follower.recheck_soon()

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
        if self.listener is not None:
            self.listener.close()
        if self.redis is not None:
            self.loop.create_task(_quietly(self.redis.aclose()))


async def _quietly(awaitable) -> None:
    with contextlib.suppress(Exception):
        await awaitable


PING_SECONDS = 1.0
PING_LOST_SECONDS = 3.0  # a ping not back after this: the path is broken (a busy loop is slow)


class _Listener:
    """This hub's one channel of the channel layer: in the group of every topic its screens
    follow and in the control group; its messages go to the hub's queue. Pings itself to
    notice a broken path (the layer reconnects silently); once a ping is back after one
    failed, joins every group again and has the screens compare with the database."""

    def __init__(self, hub: Hub, layer):
        self.hub = hub
        self.layer = layer
        self.channel: str | None = None
        self.ready = asyncio.Event()
        self.broken = False
        self.pinged = 0  # the last ping sent
        self.back = 0  # the last ping come back
        self.suspect = 0  # pings up to this one were sent while the path was broken
        self.tasks = [hub.loop.create_task(self._receive())]

    async def join(self, topic: str) -> None:
        await self.ready.wait()
        try:
            await self.layer.group_add(bus.group(topic), self.channel)
        except Exception:  # Redis away: joined again when the pings come back
            self.break_off()
            log.warning("joining the feed's group of %s failed", topic, exc_info=True)

    async def leave(self, topic: str) -> None:
        if self.channel is not None:
            with contextlib.suppress(Exception):
                await self.layer.group_discard(bus.group(topic), self.channel)

    async def announce(self, topic: str, watched_pair: str) -> None:
        """A pair new in this worker: tell the others now (the periodic share does anyway)."""
        news = {"type": "feed.presence", "w": bus.WORKER, "t": topic, "p": watched_pair}
        with contextlib.suppress(Exception):
            await self.layer.group_send(bus.CONTROL_GROUP, news)

    async def _receive(self) -> None:
        self.channel = await self.layer.new_channel("feed-hub.")
        await self._join_all()
        self.ready.set()
        self.tasks.append(self.hub.loop.create_task(self._ping()))
        while True:
            data = await self.layer.receive(self.channel)
            try:
                self._handle(data)
            except Exception:
                log.exception("the feed could not read a message from the layer")

    async def _join_all(self) -> None:
        try:
            await self.layer.group_add(bus.CONTROL_GROUP, self.channel)
            for topic in list(self.hub.topics):
                await self.layer.group_add(bus.group(topic), self.channel)
        except Exception:
            self.break_off()
            log.warning("joining the feed's groups failed", exc_info=True)

    def _handle(self, data: dict) -> None:
        kind = data.get("type")
        if kind == "feed.ping":
            self._pong(int(data.get("n", 0)))
        elif kind == "feed.check":
            if data.get("w") != bus.WORKER and isinstance(data.get("t"), list):
                self.hub.recheck([str(t) for t in data["t"]])
        elif kind == "feed.presence":
            if data.get("w") != bus.WORKER and data.get("t") and data.get("p"):
                presence.remote_add(str(data["t"]), str(data["p"]))
        elif kind == "feed.message":
            decoded = Message.from_layer(data)
            if decoded is None or decoded[0] == bus.WORKER:
                return  # not ours, or this worker's own (delivered here already)
            metrics.FEED_MESSAGES.labels("received").inc()
            self.hub.queue.put_nowait([decoded[1]])

    def _pong(self, number: int) -> None:
        self.back = max(self.back, number)
        if self.broken and number > self.suspect:  # sent after the break: the path works
            self.broken = False
            log.warning("the feed's channel layer is back: the screens compare with the database")
            self.tasks.append(self.hub.loop.create_task(self._rejoin()))

    def break_off(self) -> None:
        """The path through Redis failed (a ping, a join, a publish, the layer's own
        receiving): what comes through from the next ping on is trusted again."""
        if not self.broken:
            log.warning("the feed's channel layer lost its way to Redis")
        self.broken, self.suspect = True, self.pinged

    async def _rejoin(self) -> None:
        await self._join_all()
        self.hub.resync()
        unsent = bus.unsent_take()
        if unsent:  # what this worker failed to publish: the others' screens check it
            check = {"type": "feed.check", "w": bus.WORKER, "t": unsent}
            try:
                await self.layer.group_send(bus.CONTROL_GROUP, check)
            except Exception:
                self.break_off()

    async def _ping(self) -> None:
        waiting_since = None  # when the oldest ping not back yet was sent
        while True:
            now = time.monotonic()
            if self.back >= self.pinged:
                waiting_since = None
            elif waiting_since is not None and now - waiting_since > PING_LOST_SECONDS:
                self.break_off()  # pings go out but none comes back
            self.pinged += 1
            waiting_since = waiting_since or now
            try:
                await self.layer.send(self.channel, {"type": "feed.ping", "n": self.pinged})
            except Exception:
                self.break_off()
            await asyncio.sleep(PING_SECONDS)

    def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        channel, layer = self.channel, self.layer
        if channel is not None:
            groups = [bus.group(t) for t in self.hub.topics] + [bus.CONTROL_GROUP]
            self.hub.loop.create_task(_quietly(_discard_all(layer, groups, channel)))


async def _discard_all(layer, groups: list[str], channel: str) -> None:
    for name in groups:
        await layer.group_discard(name, channel)


class _LayerTrouble(logging.Handler):
    """channels-redis' pub/sub layer logs an error when its receiving breaks (Redis went
    away) and then reconnects and subscribes again by itself, silently: what was published
    in between is lost. Its error is the one sign of that; the hubs take it as a break."""

    def emit(self, record: logging.LogRecord) -> None:
        if record.levelno >= logging.ERROR:
            for hub in list(_hubs.values()):
                hub.layer_failed()


logging.getLogger("channels_redis.pubsub").addHandler(_LayerTrouble())

_hubs: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def current() -> Hub:
    """The hub of the running event loop (made on first use)."""
    loop = asyncio.get_running_loop()
    hub = _hubs.get(loop)
    if hub is None or hub.closed:
        hub = _hubs[loop] = Hub(loop)
    return hub
