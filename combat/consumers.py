"""The encounter's websocket: join the audience's group, replay what a client missed, push frames.

Thin: it authenticates, parses, and sends HTML rendered by `combat.live`; it never computes
a rule and never holds game state beyond the last sequence number it sent.
"""

from __future__ import annotations

import json

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from . import answers, live
from .audience import audience_for
from .models import Encounter

CLOSE_FORBIDDEN = 4403


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
