"""A busy Daphne on Redis loses no frame: channels-redis queues the messages of all of a process's sockets
under one key, and past its capacity a group send drops them without a word (config/settings.py)."""

from __future__ import annotations

import asyncio
import uuid

import pytest
from channels_redis.core import RedisChannelLayer

pytestmark = pytest.mark.redis

SOCKETS = 9  # a table: the storyguide and eight players, all on one Daphne
FRAMES = 150  # more than channels-redis's default capacity of 100 a process


async def next_frame(layer, channel) -> dict:
    """The channel's next message, or {"n": None} when none comes within a second (one was dropped)."""
    try:
        return await asyncio.wait_for(layer.receive(channel), 1)
    except TimeoutError:
        return {"n": None}


async def test_frames_a_daphne_has_not_yet_read_are_kept(suite_redis_url, settings):
    config = settings.CHANNEL_LAYERS["default"]["CONFIG"]
    assert config["hosts"][0]["address"] == suite_redis_url
    layer = RedisChannelLayer(**config)
    group = f"capacity-{uuid.uuid4().hex}"
    channels = [await layer.new_channel() for _ in range(SOCKETS)]
    try:
        for channel in channels:
            await layer.group_add(group, channel)
        for n in range(FRAMES):  # sent while the process reads nothing: two seconds behind at 60 a second
            await layer.group_send(group, {"type": "encounter.frame", "n": n})
        for channel in channels:
            assert [(await next_frame(layer, channel))["n"] for _ in range(FRAMES)] == list(range(FRAMES))
    finally:
        for channel in channels:
            await layer.group_discard(group, channel)
        await layer.close_pools()
