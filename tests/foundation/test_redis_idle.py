"""Our ``redis<8`` pin and ``socket_timeout=None``, proved against real Redis: the feed's
channel of channels-redis' ``RedisPubSubChannelLayer`` (``feed.hub``) that waits idle for
longer than 10 s still gets the next message another worker publishes (STYLE.md, "Known
traps": redis-py 8 changed connection defaults that made idle channels-redis receivers time
out every 5 s)."""

import asyncio
import os
import uuid

import pytest
from channels.layers import channel_layers

from casino.settings import channel_layers as layer_settings
from feed import hub as hubs
from feed.bus import Message, group
from tests.conftest import require_service

REDIS_URL = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"
IDLE_SECONDS = 12


async def _reachable(url: str) -> bool:
    import redis.asyncio

    client = redis.asyncio.Redis.from_url(url, socket_connect_timeout=2)
    try:
        return bool(await client.ping())
    except (OSError, redis.exceptions.RedisError):
        return False
    finally:
        await client.aclose()


class Screen:
    def __init__(self):
        self.got = asyncio.Queue()

    async def feed_message(self, message):
        await self.got.put(message)

    def recheck_soon(self):
        pass


@pytest.mark.services
async def test_an_idle_subscription_still_gets_messages_after_more_than_10_seconds(settings):
    if not await _reachable(REDIS_URL):
        require_service(f"Redis is not reachable at {REDIS_URL}")
    prefix = f"feed-idle-{uuid.uuid4().hex[:8]}"
    settings.REDIS_URL = REDIS_URL
    settings.FEED_PREFIX = prefix
    settings.CHANNEL_LAYERS = layer_settings(REDIS_URL, prefix)
    # Another worker: a layer of its own on the same Redis.
    other_worker = channel_layers.make_backend("default")
    hub = hubs.current()
    screen = Screen()
    try:
        await hub.follow("table.1", screen, "live:en")
        await hub.listener.ready.wait()
        await asyncio.sleep(IDLE_SECONDS)  # the subscription's connection is idle from here on
        payload = Message(topic="table.1", seq=7, fragments={"live:en": "<p>7</p>"}).as_layer()
        await other_worker.group_send(group("table.1"), {**payload, "w": "other-worker"})
        got = await asyncio.wait_for(screen.got.get(), 5)
        assert (got.seq, got.fragments) == (7, {"live:en": "<p>7</p>"})
    finally:
        await hub.unfollow("table.1", screen, "live:en")
        await other_worker.flush()
