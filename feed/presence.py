"""Who watches what, kept in memory: the (fragment, language) pairs of each topic that some
connected screen shows, so a publish renders only those — without asking anyone.

Each worker counts its own screens exactly (a screen adds its pairs when it follows a topic
and removes them when it leaves). The other workers' pairs are learned through Redis: every
worker writes its set under its own key every ``PRESENCE_SHARE_SECONDS`` (it expires if the
worker dies) and reads the others' at the same pace, and a pair that is new in a worker is
announced at once to the control group of the channel layer (``feed.hub``). A screen whose
pair was not yet known where a change was rendered finds its pair missing from the message
and gets its full state instead (``feed.consumers``): presence can lag, a screen cannot fall behind.

The same module counts each person's open screens (``SCREENS_PER_PERSON``), in Redis when
there is one (a person's screens may be on several workers), else here.
"""

from __future__ import annotations

import os
import threading
import time
from collections import Counter

import redis
import redis.asyncio
from django.conf import settings

from feed import bus

PRESENCE_SHARE_SECONDS = 10
PRESENCE_SECONDS = 150  # a person's screen count: refreshed by the open screen

_lock = threading.Lock()
_local: dict[str, Counter] = {}
_remote: dict[str, set[str]] = {}
_screens: dict[int, dict[str, float]] = {}


def _forked() -> None:
    """A forked child has no screens of its own yet (``feed.bus`` gives it its own id)."""
    global _lock, _remote, _client, _client_lock
    _lock = threading.Lock()
    _client, _client_lock = None, threading.Lock()
    _local.clear()
    _remote = {}
    _screens.clear()


os.register_at_fork(after_in_child=_forked)


def pair(fragment: str, language: str) -> str:
    return f"{fragment}:{language}"


def add(topic: str, watched_pair: str) -> bool:
    """A screen of this process shows ``watched_pair`` of ``topic``; True when no screen
    here showed it before (the other workers should hear of it)."""
    with _lock:
        counts = _local.setdefault(topic, Counter())
        counts[watched_pair] += 1
        return counts[watched_pair] == 1


def remove(topic: str, watched_pair: str) -> None:
    with _lock:
        counts = _local.get(topic)
        if counts is None:
            return
        counts[watched_pair] -= 1
        if counts[watched_pair] <= 0:
            del counts[watched_pair]
        if not counts:
            del _local[topic]


def watched(topic: str) -> set[tuple[str, str]]:
    """The (fragment, language) pairs of ``topic`` some screen shows now, here or in another
    worker (as last heard)."""
    with _lock:
        pairs = set(_local.get(topic, ())) | _remote.get(topic, set())
    return {tuple(p.split(":", 1)) for p in pairs}


def local_pairs() -> dict[str, list[str]]:
    with _lock:
        return {topic: sorted(counts) for topic, counts in _local.items()}


def remote_add(topic: str, watched_pair: str) -> None:
    """Another worker announced a pair it shows now."""
    with _lock:
        _remote.setdefault(topic, set()).add(watched_pair)


def remote_replace(pairs: dict[str, set[str]]) -> None:
    """What the other workers show, as last read from Redis."""
    global _remote
    with _lock:
        _remote = pairs


_client = None
_client_lock = threading.Lock()


def redis_client():
    """This process's Redis client for the presence keys from any thread (``None``: no
    Redis, one process)."""
    global _client
    url = getattr(settings, "REDIS_URL", "")
    if not url:
        return None
    with _client_lock:
        if _client is None or _client.url != url:
            _client = redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=2)
            _client.url = url
        return _client


def _worker_key(worker: str) -> str:
    return f"{settings.FEED_PREFIX}:presence:{worker}"


async def share(client: redis.asyncio.Redis) -> None:
    """Write this worker's pairs and read every other worker's (two round trips plus one
    per other worker; every ``PRESENCE_SHARE_SECONDS``)."""
    mine = local_pairs()
    key = _worker_key(bus.WORKER)
    async with client.pipeline(transaction=True) as pipe:
        pipe.delete(key)
        if mine:
            pipe.hset(key, mapping={topic: " ".join(p) for topic, p in mine.items()})
            pipe.expire(key, PRESENCE_SHARE_SECONDS * 3)
        await pipe.execute()
    others: dict[str, set[str]] = {}
    async for other in client.scan_iter(match=_worker_key("*"), count=100):
        if other.decode() == key:
            continue
        for topic, pairs in (await client.hgetall(other)).items():
            others.setdefault(topic.decode(), set()).update(pairs.decode().split())
    remote_replace(others)


# -- a person's open screens ----------------------------------------------------------------


def _screens_key(user_id: int) -> str:
    return f"{settings.FEED_PREFIX}:screens:{int(user_id)}"


async def screen_open(client, user_id: int, channel: str) -> int:
    """Count ``channel`` among ``user_id``'s open screens; how many are open now (with it).
    ``client``: this loop's Redis client, or None (one process: counted here)."""
    now = time.time()
    until = now + PRESENCE_SECONDS
    if client is None:
        with _lock:
            open_ = _screens.setdefault(user_id, {})
            for name in [n for n, t in open_.items() if t <= now]:
                del open_[name]
            open_[channel] = until
            return len(open_)
    key = _screens_key(user_id)
    async with client.pipeline(transaction=False) as pipe:
        pipe.zremrangebyscore(key, "-inf", now)
        pipe.zadd(key, {channel: until})
        pipe.expire(key, PRESENCE_SECONDS * 2)
        pipe.zcard(key)
        return (await pipe.execute())[-1]


async def screen_seen(client, user_id: int, channel: str) -> None:
    """``channel`` is still open (its count lasts another ``PRESENCE_SECONDS``)."""
    until = time.time() + PRESENCE_SECONDS
    if client is None:
        with _lock:
            if channel in _screens.get(user_id, {}):
                _screens[user_id][channel] = until
        return
    key = _screens_key(user_id)
    async with client.pipeline(transaction=False) as pipe:
        pipe.zadd(key, {channel: until}, xx=True)
        pipe.expire(key, PRESENCE_SECONDS * 2)
        await pipe.execute()


async def screen_closed(client, user_id: int, channel: str) -> None:
    if client is None:
        with _lock:
            _screens.get(user_id, {}).pop(channel, None)
        return
    await client.zrem(_screens_key(user_id), channel)


def clear() -> None:
    """Forget every pair and count, here and in Redis (tests)."""
    global _remote
    with _lock:
        _local.clear()
        _remote = {}
        _screens.clear()
    client = redis_client()
    if client is not None:
        try:
            for key in client.scan_iter(match=f"{settings.FEED_PREFIX}:*"):
                client.delete(key)
        except redis.exceptions.RedisError:
            pass  # nothing to forget there
