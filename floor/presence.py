"""Who is watching what: the (fragment, language) pairs some connected screen shows.

A publish renders only the pairs somebody watches. Each screen marks its pair when it
connects and again at every ``sync`` (every 20 s) and command; a mark lasts
``PRESENCE_SECONDS``, so a screen that left stops costing renders soon after, and a crashed
worker's screens never leave a stale mark for long. Nothing is removed on disconnect:
another screen of the same pair may still be there.

With Redis (``REDIS_URL``) the marks live in one Redis hash per topic, shared by every
worker; otherwise (one process: the in-memory channel layer) in this process.

The same store counts each person's open screens (:func:`screen_open`, ``SCREENS_PER_PERSON``
at most): a screen is counted from its connection to its disconnection and refreshes its
mark while open (``staff.consumers``); a crashed worker's screens stop counting after
``PRESENCE_SECONDS``.
"""

from __future__ import annotations

import threading
import time
import weakref

from django.conf import settings

PRESENCE_SECONDS = 150


def _key(topic: str) -> str:
    return f"{settings.PRESENCE_PREFIX}:{topic}"


class _LocalPresence:
    def __init__(self):
        self.marks: dict[str, dict[str, float]] = {}
        self.screens: dict[int, dict[str, float]] = {}
        self.lock = threading.Lock()

    def mark(self, topic: str, pair: str, until: float) -> None:
        with self.lock:
            self.marks.setdefault(topic, {})[pair] = until

    def pairs(self, topic: str, now: float) -> set[str]:
        with self.lock:
            return {p for p, until in self.marks.get(topic, {}).items() if until > now}

    def clear(self) -> None:
        with self.lock:
            self.marks.clear()
            self.screens.clear()

    def screen_open(self, user_id: int, channel: str, until: float, now: float) -> int:
        with self.lock:
            open_ = self.screens.setdefault(user_id, {})
            for name in [n for n, t in open_.items() if t <= now]:
                del open_[name]
            open_[channel] = until
            return len(open_)

    def screen_seen(self, user_id: int, channel: str, until: float) -> None:
        with self.lock:
            if channel in self.screens.get(user_id, {}):
                self.screens[user_id][channel] = until

    def screen_closed(self, user_id: int, channel: str) -> None:
        with self.lock:
            self.screens.get(user_id, {}).pop(channel, None)


class _RedisPresence:
    def __init__(self, url: str):
        import redis
        import redis.asyncio

        self.sync = redis.Redis.from_url(url)
        self.url = url
        self._async = weakref.WeakKeyDictionary()  # one client per event loop

    def _client(self):
        import asyncio

        import redis.asyncio

        loop = asyncio.get_running_loop()
        client = self._async.get(loop)
        if client is None:
            client = self._async[loop] = redis.asyncio.Redis.from_url(self.url)
        return client

    # Each operation's commands go in one round trip (a pipeline, not a transaction).

    async def amark(self, topic: str, pair: str, until: float) -> None:
        async with self._client().pipeline(transaction=False) as pipe:
            pipe.hset(_key(topic), pair, until)
            pipe.expire(_key(topic), PRESENCE_SECONDS * 2)
            await pipe.execute()

    async def screen_open(self, user_id: int, channel: str, until: float, now: float) -> int:
        key = _key(f"screens:{int(user_id)}")
        async with self._client().pipeline(transaction=False) as pipe:
            pipe.zremrangebyscore(key, "-inf", now)
            pipe.zadd(key, {channel: until})
            pipe.expire(key, PRESENCE_SECONDS * 2)
            pipe.zcard(key)
            return (await pipe.execute())[-1]

    async def screen_seen(self, user_id: int, channel: str, until: float) -> None:
        key = _key(f"screens:{int(user_id)}")
        async with self._client().pipeline(transaction=False) as pipe:
            pipe.zadd(key, {channel: until}, xx=True)
            pipe.expire(key, PRESENCE_SECONDS * 2)
            await pipe.execute()

    async def screen_closed(self, user_id: int, channel: str) -> None:
        await self._client().zrem(_key(f"screens:{int(user_id)}"), channel)

    def pairs(self, topic: str, now: float) -> set[str]:
        marks = self.sync.hgetall(_key(topic))
        return {p.decode() for p, until in marks.items() if float(until) > now}

    def clear(self) -> None:
        for key in self.sync.scan_iter(f"{settings.PRESENCE_PREFIX}:*"):
            self.sync.delete(key)


_backend = None


def backend():
    global _backend
    if _backend is None:
        url = getattr(settings, "REDIS_URL", "")
        _backend = _RedisPresence(url) if url else _LocalPresence()
    return _backend


async def mark(topic: str, fragment: str, language: str) -> None:
    """A screen of ``topic`` (``table.<id>`` or ``duty``) shows ``fragment`` in ``language``."""
    store = backend()
    until = time.time() + PRESENCE_SECONDS
    pair = f"{fragment}:{language}"
    if isinstance(store, _RedisPresence):
        await store.amark(topic, pair, until)
    else:
        store.mark(topic, pair, until)


async def screen_open(user_id: int, channel: str) -> int:
    """Count ``channel`` among ``user_id``'s open screens; how many are open now (with it)."""
    store, now = backend(), time.time()
    if isinstance(store, _RedisPresence):
        return await store.screen_open(user_id, channel, now + PRESENCE_SECONDS, now)
    return store.screen_open(user_id, channel, now + PRESENCE_SECONDS, now)


async def screen_seen(user_id: int, channel: str) -> None:
    """``channel`` is still open (its count lasts another ``PRESENCE_SECONDS``)."""
    store, until = backend(), time.time() + PRESENCE_SECONDS
    if isinstance(store, _RedisPresence):
        await store.screen_seen(user_id, channel, until)
    else:
        store.screen_seen(user_id, channel, until)


async def screen_closed(user_id: int, channel: str) -> None:
    store = backend()
    if isinstance(store, _RedisPresence):
        await store.screen_closed(user_id, channel)
    else:
        store.screen_closed(user_id, channel)


def watched(topic: str) -> set[tuple[str, str]]:
    """The (fragment, language) pairs of ``topic`` some screen shows now."""
    pairs = backend().pairs(topic, time.time())
    return {tuple(p.split(":", 1)) for p in pairs}


def clear() -> None:
    """Forget every mark (tests)."""
    backend().clear()
