"""Our ``redis<8`` pin, proved against real Redis: the feed's subscription (``feed.hub``)
that waits idle for longer than 10 s still gets the next message another worker publishes
(STYLE.md, "Known traps": redis-py 8 changed connection defaults that made idle channels-redis
receivers time out every 5 s; the feed's own subscriber uses redis-py the same way)."""

import asyncio
import os
import uuid

import pytest

from feed import hub as hubs
from feed.bus import Message, channel
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
    import redis.asyncio

    settings.REDIS_URL = REDIS_URL
    settings.FEED_PREFIX = f"feed-idle-{uuid.uuid4().hex[:8]}"
    hub = hubs.current()
    screen = Screen()
    other_worker = redis.asyncio.Redis.from_url(REDIS_URL)
    try:
        await hub.follow("table.1", screen, "live:en")
        await asyncio.sleep(IDLE_SECONDS)  # the subscription's connection is idle from here on
        raw = Message(topic="table.1", seq=7, fragments={"live:en": "<p>7</p>"}).encode()
        await other_worker.publish(channel("table.1"), raw.replace('"w":"', '"w":"other-'))
        got = await asyncio.wait_for(screen.got.get(), 5)
        assert (got.seq, got.fragments) == (7, {"live:en": "<p>7</p>"})
    finally:
        await hub.unfollow("table.1", screen, "live:en")
        await other_worker.aclose()
