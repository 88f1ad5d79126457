"""The Redis path's channel layer (combat.redis_layer): a busy Daphne loses no frame, and when its
subscription to Redis is lost every socket hears it, so the page reconnects and replays (issue 9)."""

from __future__ import annotations

import asyncio
import uuid

import pytest

from combat.layers import LAYER_ERRORS
from combat.redis_layer import LostSubscription, PubSubLayer
from config.env import redis_channel_prefix

pytestmark = pytest.mark.redis

SOCKETS = 9  # a table: the storyguide and eight players, all on one Daphne
FRAMES = 150  # more than channels-redis's core layer kept for a process by default (100)


async def next_frame(layer, channel) -> dict:
    """The channel's next message, or {"n": None} when none comes within a second (one was dropped)."""
    try:
        return await asyncio.wait_for(layer.receive(channel), 1)
    except TimeoutError:
        return {"n": None}


@pytest.fixture
def layer(suite_redis_url, settings):
    config = settings.CHANNEL_LAYERS["default"]["CONFIG"]
    assert config["hosts"][0]["address"] == suite_redis_url
    return PubSubLayer(**config)


async def a_table(layer) -> tuple[str, list[str]]:
    group = f"table-{uuid.uuid4().hex}"
    channels = [await layer.new_channel() for _ in range(SOCKETS)]
    for channel in channels:
        await layer.group_add(group, channel)
    return group, channels


async def test_frames_a_daphne_has_not_yet_read_are_kept(layer):
    group, channels = await a_table(layer)
    try:
        for n in range(FRAMES):  # sent while the process reads nothing: two seconds behind at 60 a second
            await layer.group_send(group, {"type": "encounter.frame", "n": n})
        for channel in channels:
            assert [(await next_frame(layer, channel))["n"] for _ in range(FRAMES)] == list(range(FRAMES))
    finally:
        await layer.flush()


async def test_a_lost_subscription_reaches_every_socket_after_the_frames_it_already_has(layer):
    group, channels = await a_table(layer)
    try:
        await layer.group_send(group, {"type": "encounter.frame", "n": 1})
        assert (await next_frame(layer, channels[0]))["n"] == 1  # the subscription delivers
        await layer.group_send(group, {"type": "encounter.frame", "n": 2})
        waiting = asyncio.ensure_future(layer.receive(channels[0]))
        for channel in channels[1:]:
            assert (await next_frame(layer, channel))["n"] == 1
        assert (await waiting)["n"] == 2
        waiting = asyncio.ensure_future(layer.receive(channels[0]))
        await asyncio.sleep(0.05)
        [subscription] = layer._get_layer()._shards
        await subscription.lost()
        with pytest.raises(LostSubscription) as lost:
            await waiting
        assert isinstance(lost.value, LAYER_ERRORS)  # the consumer's 4503
        for channel in channels[1:]:
            assert (await next_frame(layer, channel))["n"] == 2  # what it had, then the news
            with pytest.raises(LostSubscription):
                await layer.receive(channel)

        group, channels = await a_table(layer)  # the pages reconnect: new channels, joined again
        await layer.group_send(group, {"type": "encounter.frame", "n": 3})
        assert [(await next_frame(layer, channel))["n"] for channel in channels] == [3] * SOCKETS
    finally:
        await layer.flush()


async def test_sites_on_two_databases_of_one_redis_never_hear_each_others_groups(suite_redis_url, settings):
    """Redis's pub/sub is one namespace for every database: the prefix keeps two sites' groups (the same ids,
    from two databases) apart, as it keeps two test workers' apart."""
    config = settings.CHANNEL_LAYERS["default"]["CONFIG"]
    ours = PubSubLayer(**config)
    url = suite_redis_url.rsplit("/", 1)[0] + "/14"
    theirs = PubSubLayer(hosts=[{**config["hosts"][0], "address": url}], prefix=redis_channel_prefix(url))
    assert config["prefix"] != redis_channel_prefix(url)
    group = f"saga-{uuid.uuid4().hex}-players"
    ours_channel, theirs_channel = await ours.new_channel(), await theirs.new_channel()
    await ours.group_add(group, ours_channel)
    await theirs.group_add(group, theirs_channel)
    try:
        await theirs.group_send(group, {"type": "saga.frame", "n": 1})
        assert (await next_frame(theirs, theirs_channel))["n"] == 1
        assert (await next_frame(ours, ours_channel)) == {"n": None}
    finally:
        await ours.flush()
        await theirs.flush()
