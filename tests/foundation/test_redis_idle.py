"""Our ``redis<8`` pin, proved against real Redis: a receiver that waits idle for longer than
10 s still gets the next message, and so does a group member (STYLE.md, "Known traps":
redis-py 8 makes channels-redis 4.3 receivers time out every 5 s)."""

import asyncio
import os
import uuid

import pytest
from channels_redis.core import RedisChannelLayer

from casino.settings import redis_channel_layer_config
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


def _layer(prefix: str) -> RedisChannelLayer:
    # The settings' own CONFIG for this URL; only the key prefix is ours, to keep clear of
    # other users of this Redis.
    return RedisChannelLayer(**{**redis_channel_layer_config(REDIS_URL), "prefix": prefix})


@pytest.mark.services
async def test_idle_receiver_and_group_still_get_messages_after_more_than_10_seconds():
    if not await _reachable(REDIS_URL):
        require_service(f"Redis is not reachable at {REDIS_URL}")
    prefix = f"asgi-idle-{uuid.uuid4().hex[:8]}"
    group = "idle-test"
    receiver, sender = _layer(prefix), _layer(prefix)
    try:
        channel = await receiver.new_channel()
        await sender.group_add(group, channel)  # the sender's connection is idle from here on
        waiting = asyncio.ensure_future(receiver.receive(channel))

        await asyncio.sleep(IDLE_SECONDS)
        assert not waiting.done(), f"the idle receiver gave up: {waiting!r}"

        await sender.send(channel, {"type": "table.update", "version": 1})
        assert await asyncio.wait_for(waiting, 5) == {"type": "table.update", "version": 1}

        await sender.group_send(group, {"type": "table.update", "version": 2})
        received = await asyncio.wait_for(receiver.receive(channel), 5)
        assert received == {"type": "table.update", "version": 2}
    finally:
        await sender.flush()
        await receiver.close_pools()
        await sender.close_pools()
