"""The embedded default's channel layer: Channels' in-memory layer, with its expiry scan run at most
once a second instead of on every send and receive.

Channels' scan walks every channel and every group membership of the process, so with a thousand
sockets open each frame cost a thousand steps per receiving socket: a command grew slower as other
tables connected (issue 11). Messages still expire after `expiry` seconds (at most a second late),
and memberships after `group_expiry`.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from copy import deepcopy

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer
from redis.exceptions import RedisError

SCAN_EVERY = 1.0  # seconds between two expiry scans
# What the channel layer raises while its Redis is unreachable (refused, reset, timed out).
LAYER_ERRORS = (RedisError, OSError)
# The values a message may hold that nothing can change in place: such a message is copied as a plain dict.
PLAIN = frozenset({str, int, float, bool, type(None)})


def layer_message(kind: str, html: str, **fields) -> dict:
    """A message for the channel layer with its HTML as a plain `str`: the in-memory layer deep-copies a
    message for every socket it reaches, which passes a `str` as it is but copies a template's `SafeString`
    through pickling's reduce protocol, once for each socket."""
    return {"type": kind, "html": str.__str__(html), **fields}


class InMemoryLayer(InMemoryChannelLayer):
    """`InMemoryChannelLayer` whose expiry scan costs nothing between scans, and whose group send puts the
    message on each member's channel in turn (Channels' own makes a task for each, which awaits nothing:
    0.11 against 0.05 ms of CPU a command's two frames to nine sockets, docs/performance.md)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.next_scan = 0.0

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now < self.next_scan:
            return
        self.next_scan = now + SCAN_EVERY
        super()._clean_expired()

    async def send(self, channel, message) -> None:
        """The message on the channel, as Channels' own puts it but for the copy: one whose values are all
        plain (`PLAIN`: a frame's HTML and numbers) is copied as a dict, which is what `deepcopy` makes of
        it at a fifth of the cost; any other is deep-copied."""
        assert isinstance(message, dict), "message is not a dict"
        assert "__asgi_channel__" not in message
        queue = self.channels.get(channel)
        if queue is None:
            self.require_valid_channel_name(channel)
            queue = self.channels.setdefault(channel, asyncio.Queue(maxsize=self.get_capacity(channel)))
        plain = all(type(value) in PLAIN for value in message.values())
        try:
            queue.put_nowait((time.time() + self.expiry, dict(message) if plain else deepcopy(message)))
        except asyncio.QueueFull:
            raise ChannelFull(channel) from None

    async def group_send(self, group, message) -> None:
        """The message on every channel of the group; a full channel misses it, as with Channels' own."""
        assert isinstance(message, dict), "Message is not a dict"
        self.require_valid_group_name(group)
        self._clean_expired()
        for channel in list(self.groups.get(group, ())):
            with contextlib.suppress(ChannelFull):
                await self.send(channel, message)
