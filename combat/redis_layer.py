"""The Redis path's channel layer: channels-redis's pub/sub layer, whose sockets hear when Redis goes.

A group send is one PUBLISH, and each Daphne reads it once from its one subscription and hands it to
its own sockets: a third more commands a second than channels-redis's core layer, which pops each
socket's message on its own (docs/performance.md). But channels-redis 4.3's pub/sub layer only logs a
lost subscription and tries again each second, while every socket waits on, silent: it keeps the
`on_disconnect` callback it is given and never calls it. Here, when the subscription's connection
fails, every socket of the process is told (its next receive raises the error, so the consumer sends
its error frame and closes with 4503, as it did on the core layer) and the connection starts afresh;
pages reconnect, join again once Redis is back, and replay what they missed from the log.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from channels_redis import pubsub
from channels_redis.utils import _close_redis, _wrap_close
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)
RETRY_SECONDS = 1.0  # the subscription's next try after it failed
LOST = object()  # put in a socket's queue: the subscription it waited on is gone


class Subscription(pubsub.RedisSingleShardConnection):
    """One Redis server's subscription for this process; on failure it tells every socket and resets."""

    async def _do_receiving(self) -> None:
        while True:
            try:
                if self._pubsub and self._pubsub.subscribed:
                    message = await self._pubsub.get_message(ignore_subscribe_messages=True, timeout=0.1)
                    self._receive_message(message)
                else:
                    await asyncio.sleep(0.1)
            except Exception as error:  # the sockets may have missed frames: tell them, start afresh
                if isinstance(error, (RedisError, OSError)):
                    logger.warning("channel layer: the subscription to Redis failed (%s)", error)
                else:
                    logger.exception("channel layer: reading the subscription failed")
                await self.lost()
                await asyncio.sleep(RETRY_SECONDS)

    async def lost(self) -> None:
        """Every socket of this process hears that the subscription is gone (after the frames it already
        has); the next subscribe starts on a new connection."""
        layer = self.channel_layer
        for queue in layer.channels.values():
            queue.put_nowait(LOST)
        layer.groups = {}
        async with self._lock:
            redis, self._redis, self._pubsub = self._redis, None, None
            self._subscribed_to = set()
        if redis is not None:
            with contextlib.suppress(RedisError, OSError):
                await _close_redis(redis)


class LostSubscription(ConnectionError):
    """The subscription a socket waited on is gone: Redis stopped, or the connection to it broke."""


class LoopLayer(pubsub.RedisPubSubLoopLayer):
    """The layer for one event loop, with `Subscription` for each Redis server."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._shards = [Subscription(shard.host, self) for shard in self._shards]

    async def _subscribe_to_channel(self, channel: str) -> None:
        try:
            await super()._subscribe_to_channel(channel)
        except BaseException:
            self.channels.pop(channel, None)
            raise

    async def receive(self, channel: str):
        try:
            return await super().receive(channel)
        except LostSubscription:
            self.channels.pop(channel, None)
            raise


class PubSubLayer(pubsub.RedisPubSubChannelLayer):
    """channels-redis's pub/sub layer with `LoopLayer` for each event loop."""

    def _get_layer(self) -> LoopLayer:
        loop = asyncio.get_running_loop()
        layer = self._layers.get(loop)
        if layer is None:
            layer = self._layers[loop] = LoopLayer(*self._args, **self._kwargs, channel_layer=self)
            _wrap_close(self, loop)
        return layer

    def deserialize(self, message):
        if message is LOST:
            raise LostSubscription("the subscription to Redis was lost")
        return super().deserialize(message)
