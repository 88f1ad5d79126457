"""The encounter's websocket: join the audience's group, replay what a client missed, push frames.

Thin: it authenticates, parses, and sends HTML rendered by `combat.live`; it never computes
a rule and never holds game state beyond the last sequence number it sent.
"""

from __future__ import annotations

import contextlib
import json
import logging

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from . import answers, live
from .audience import audience_for
from .models import Encounter

CLOSE_FORBIDDEN = 4403
# The channel layer (Redis) is down: try again later. Daphne lets an application close only with 1000 or
# 3000-4999, so not RFC 6455's 1013; live.js reconnects after any code but 4403, with its own backoff.
CLOSE_UNAVAILABLE = 4503
LAYER_DOWN = "Live updates are paused: the server cannot reach Redis. Reconnecting…"

logger = logging.getLogger(__name__)


@database_sync_to_async
def _audience(user, encounter_id: int) -> str | None:
    try:
        encounter = Encounter.objects.select_related("saga").get(pk=encounter_id)
    except Encounter.DoesNotExist:
        return None
    return audience_for(user, encounter)


@database_sync_to_async
def _replay(encounter_id: int, audience: str, after_seq: int) -> tuple[str, int]:
    return live.replay_frame(encounter_id, audience, after_seq)


def parse_resume(text: str | None) -> int:
    """The `last_seq` of a `{"type": "resume", "last_seq": N}` frame; ValueError says what is wrong."""
    try:
        message = json.loads(text or "")
    except json.JSONDecodeError:
        raise ValueError("Messages must be JSON.") from None
    if not isinstance(message, dict) or message.get("type") != "resume":
        raise ValueError('Unknown message: send {"type": "resume", "last_seq": N}.')
    last_seq = message.get("last_seq")
    if isinstance(last_seq, bool) or not isinstance(last_seq, int) or last_seq < 0:
        raise ValueError("last_seq must be a whole number, 0 or more.")
    return last_seq


class EncounterConsumer(AsyncWebsocketConsumer):
    """One connection of one page: storyguide or players audience."""

    async def __call__(self, scope, receive, send) -> None:
        """Serve the socket; when the channel layer fails, close with 4503 instead of crashing."""
        self.accepted = self.closed = False
        try:
            await super().__call__(scope, receive, send)
        except live.LAYER_ERRORS as error:
            await self.layer_down(error)

    async def layer_down(self, error: Exception) -> None:
        """One short log line; the client gets an error frame and 4503, and replays from the log later."""
        encounter_id = self.scope["url_route"]["kwargs"].get("encounter_id")
        logger.warning("encounter %s socket closed with 4503: channel layer down (%s)", encounter_id, error)
        if self.closed:
            return
        if not self.accepted:
            await self.accept()
        await self.send(text_data=answers.error_frame(LAYER_DOWN))
        await self.close(code=CLOSE_UNAVAILABLE)

    async def accept(self, subprotocol=None, headers=None) -> None:
        await super().accept(subprotocol, headers)
        self.accepted = True

    async def close(self, code=None, reason=None) -> None:
        await super().close(code, reason)
        self.closed = True

    async def connect(self) -> None:
        self.encounter_id = int(self.scope["url_route"]["kwargs"]["encounter_id"])
        self.audience = None
        self.group = None
        self.last_sent: int | None = None  # None until the client's first resume
        self.held: list[dict] = []
        user = self.scope.get("user")
        if user is not None:
            self.audience = await _audience(user, self.encounter_id)
        if self.audience is None:
            # Accept then close, so the browser sees 4403 and stops reconnecting.
            await self.accept()
            await self.send(text_data=answers.error_frame("You are not in this saga (log in again?)."))
            await self.close(code=CLOSE_FORBIDDEN)
            return
        self.group = Encounter.group_name(self.encounter_id, self.audience)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        if self.group:
            # With Redis down the membership cannot be dropped now; it expires with the group (a day).
            with contextlib.suppress(*live.LAYER_ERRORS):
                await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.group is None:
            return
        try:
            last_seq = parse_resume(text_data)
        except ValueError as error:
            await self.send(text_data=answers.error_frame(str(error)))
            return
        await self.replay(last_seq)

    async def replay(self, after_seq: int) -> None:
        """Everything after `after_seq`, then the panels; frames held meanwhile go after, if newer."""
        html, newest = await _replay(self.encounter_id, self.audience, after_seq)
        await self.send(text_data=html)
        self.last_sent = newest
        held, self.held = self.held, []
        for message in held:
            await self.encounter_frame(message)

    async def encounter_frame(self, message: dict) -> None:
        """A frame from the group: held until the client has resumed, dropped when not newer."""
        if self.last_sent is None:
            self.held.append(message)
            return
        if message["last_seq"] <= self.last_sent:
            return
        if message["first_seq"] > self.last_sent + 1:
            # Frames can cross on the way (two commands committing at once): fill the gap from the log.
            await self.replay(self.last_sent)
            return
        await self.send(text_data=message["html"])
        self.last_sent = message["last_seq"]
