"""The live websockets: an encounter's (join the audience's group, replay what a client missed, push
frames) and a saga page's (join the audience's group, send the current regions, push frames); on both,
a page's heartbeats say who is here (`combat.presence`).

Thin: it authenticates, parses, and sends HTML rendered by `combat.live`, `combat.saga_live` and
`combat.presence`; it never computes a rule and never holds game state beyond the last sequence number
it sent.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import time

from autobahn.exception import Disconnected
from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer

from campaign.models import Saga

from . import answers, layers, live, presence, saga_live
from .audience import audience_for
from .models import Encounter
from .rules.limits import nesting

CLOSE_FORBIDDEN = 4403
# This person's place at the encounter changed (its storyguide's seat was handed over to or from them):
# live.js loads the page again, drawn for their new place.
CLOSE_RESEATED = 4409
RESEATED = "Your place at this table changed: the storyguide's seat was handed over. Loading the page again…"
REPLACED = "Your place in this saga's troupe changed. Loading the page again…"
# The channel layer (Redis) is down: try again later. Daphne lets an application close only with 1000 or
# 3000-4999, so not RFC 6455's 1013; live.js reconnects after any code but 4403, with its own backoff.
CLOSE_UNAVAILABLE = 4503
LAYER_DOWN = "Live updates are paused: the server cannot reach Redis. Reconnecting…"
NOT_IN_SAGA = "You are not in this saga (log in again?)."
ENCOUNTER_GONE = "This encounter is no longer there: it was deleted."
SAGA_GONE = "This saga is no longer there: it was deleted."
# What the channel layer brings a socket: frames rendered once per audience, which the handlers only send.
PUSHED = frozenset({live.FRAME_TYPE, live.NAME_TYPE, saga_live.FRAME_TYPE, presence.FRAME_TYPE})

logger = logging.getLogger(__name__)


@database_sync_to_async
def _audience(user, encounter_id: int) -> tuple[str | None, str]:
    """This person's audience of the encounter, or None with why not (not in the saga, or it was deleted)."""
    try:
        encounter = Encounter.objects.select_related("saga").get(pk=encounter_id)
    except Encounter.DoesNotExist:
        return None, ENCOUNTER_GONE
    return audience_for(user, encounter), NOT_IN_SAGA


@database_sync_to_async
def _saga_place(user, saga_id: int) -> tuple[str, str, str] | None:
    return saga_live.place_of(user, saga_id)


@database_sync_to_async
def _saga_frame(saga_id: int, audience: str) -> str | None:
    """The saga page's frame; None when the saga was deleted meanwhile."""
    try:
        return saga_live.current_frame(saga_id, audience)
    except Saga.DoesNotExist:
        return None


@database_sync_to_async
def _presence(place: presence.Place, user, tab: str, visible: bool | None) -> tuple[str | None, bool]:
    return presence.heartbeat(place, user.pk, tab, visible)


@database_sync_to_async
def _replay(encounter_id: int, audience: str, after_seq: int) -> tuple[str, int] | None:
    """The replay frame and its newest seq; None when the encounter was deleted while its page was open."""
    try:
        return live.replay_frame(encounter_id, audience, after_seq)
    except Encounter.DoesNotExist:
        return None


MAX_FRAME = 4096  # characters: a resume frame is some thirty
MAX_DEPTH = 4  # nesting of JSON objects and arrays
RATE_LIMIT = 20  # messages a second per connection
MAX_SEQ = 2**63 - 1


def read_message(text: str | None, bytes_data: bytes | None = None) -> dict:
    """A client frame as a JSON object, within the size and nesting limits; ValueError says why not."""
    if bytes_data is not None or text is None:
        raise ValueError("Messages must be JSON text, not binary.")
    if len(text) > MAX_FRAME:
        raise ValueError(f"Message too long: at most {MAX_FRAME} characters.")
    if nesting(text) > MAX_DEPTH:
        raise ValueError(f"Message nested too deep: at most {MAX_DEPTH} levels.")
    try:
        message = json.loads(text)
    except ValueError:  # bad JSON, and numbers past Python's digit limit
        raise ValueError("Messages must be JSON.") from None
    if not isinstance(message, dict) or message.get("type") not in MESSAGE_TYPES:
        raise ValueError(
            'Unknown message: send {"type": "resume", "last_seq": N} or '
            '{"type": "heartbeat", "visible": true}.'
        )
    return message


def resume_seq(message: dict) -> int:
    """The `last_seq` of a resume message: a whole number, 0 or more."""
    last_seq = message.get("last_seq")
    if isinstance(last_seq, bool) or not isinstance(last_seq, int) or not 0 <= last_seq <= MAX_SEQ:
        raise ValueError("last_seq must be a whole number, 0 or more.")
    return last_seq


def heartbeat_visible(message: dict) -> bool:
    """The `visible` of a heartbeat message: whether the page's tab is shown (true or false)."""
    visible = message.get("visible")
    if not isinstance(visible, bool):
        raise ValueError("visible must be true or false.")
    return visible


# Every message type a client may send, with its reader; the fuzz tests draw from this table.
MESSAGE_TYPES = {"resume": resume_seq, "heartbeat": heartbeat_visible}


def parse_resume(text: str | None) -> int:
    """The `last_seq` of a `{"type": "resume", "last_seq": N}` frame; ValueError says what is wrong."""
    return resume_seq(read_message(text))


class RateLimit:
    """At most `limit` messages in any one second of a connection."""

    def __init__(self, limit: int | None = None, clock=time.monotonic) -> None:
        self.limit, self.clock = limit or RATE_LIMIT, clock
        self.window_start, self.count = clock(), 0

    def allow(self) -> bool:
        now = self.clock()
        if now - self.window_start >= 1:
            self.window_start, self.count = now, 0
        self.count += 1
        return self.count <= self.limit


async def in_turn(sources, dispatch) -> None:
    """What the sources give (the socket's own events, the channel layer's messages), dispatched one at a
    time as it comes: a task for each source reads it in a loop into one inbox. Channels' own
    (`channels.utils.await_many_dispatch`) makes a task for each message and waits on all of them with
    `asyncio.wait`: 0.17 against 0.11 ms of CPU a command's two frames to nine sockets (docs/performance.md).
    A source's error is raised here, after the messages before it. While one message is dispatched, at most
    two more are read ahead (one waiting in the inbox, one in its reader), so a channel holds its capacity and
    up to two more of a slow socket's frames before it is full."""
    inbox: asyncio.Queue = asyncio.Queue(maxsize=1)

    async def read(source) -> None:
        try:
            while True:
                await inbox.put((await source(), None))
        except Exception as error:  # raised again by the dispatching loop below
            await inbox.put((None, error))

    readers = [asyncio.ensure_future(read(source)) for source in sources]
    try:
        while True:
            message, error = await inbox.get()
            if error is not None:
                raise error
            await dispatch(message)
    finally:
        for reader in readers:
            reader.cancel()
        await asyncio.gather(*readers, return_exceptions=True)


class LiveConsumer(AsyncWebsocketConsumer):
    """What the live sockets share: the 4503 close when the channel layer fails, the 4403 close for
    someone not in the saga, and the rate limit on what a client sends."""

    async def __call__(self, scope, receive, send) -> None:
        """Serve the socket; when the channel layer fails, close with 4503 instead of crashing."""
        self.accepted = self.closed = False
        try:
            await self.serve(scope, receive, send)
        except layers.LAYER_ERRORS as error:
            await self.layer_down(error)

    async def serve(self, scope, receive, send) -> None:
        """Channels' `AsyncConsumer.__call__` (this consumer's channel, then its messages dispatched until
        `StopConsumer`), with the send kept first and the messages read `in_turn`."""
        self.scope, self.base_send = scope, send
        self.channel_layer = get_channel_layer(self.channel_layer_alias)
        sources = [receive]
        if self.channel_layer is not None:
            self.channel_name = await self.channel_layer.new_channel()
            self.channel_receive = functools.partial(self.channel_layer.receive, self.channel_name)
            sources.append(self.channel_receive)
        with contextlib.suppress(StopConsumer):
            await in_turn(sources, self.dispatch)

    async def dispatch(self, message: dict) -> None:
        """A pushed frame goes straight to its handler. Channels' own dispatch first closes the thread's
        stale database connections, in Django's one shared sync thread: a thread hop for every frame at
        every socket, though these handlers only send what they were given. Anything else (the socket's
        own events) goes through Channels' dispatch; these consumers reach the database only through
        `database_sync_to_async`, which closes stale connections around each call itself."""
        if message["type"] in PUSHED:
            await getattr(self, get_handler_name(message))(message)
        else:
            await super().dispatch(message)

    async def layer_down(self, error: Exception) -> None:
        """One short log line; the client gets an error frame and 4503, and replays from the log later."""
        kwargs = self.scope["url_route"]["kwargs"]
        place = " ".join(f"{key.removesuffix('_id')} {value}" for key, value in kwargs.items())
        logger.warning("%s socket closed with 4503: channel layer down (%s)", place, error)
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

    async def send(self, text_data=None, bytes_data=None, close=False) -> None:
        """Send a frame; one for a socket whose close has begun (either end's) is dropped. Daphne's websocket
        refuses it (Autobahn's Disconnected, "Attempt to send on a closed protocol") until the connection is
        gone and this consumer's disconnect runs: two people leaving at once is no error."""
        try:
            await super().send(text_data, bytes_data, close)
        except Disconnected:
            logger.debug("a frame for a closing socket was dropped")

    async def join(self, group: str) -> bool:
        """Join the group; with the channel layer down, answer 4503 here (not from the dispatcher,
        whose other tasks on Redis may be slow to cancel) and say no."""
        try:
            await self.channel_layer.group_add(group, self.channel_name)
        except layers.LAYER_ERRORS as error:
            self.group = None
            await self.layer_down(error)
            return False
        return True

    async def forbid(self, reason: str = NOT_IN_SAGA) -> None:
        """Accept (if not yet) then close, so the browser sees 4403 and stops reconnecting."""
        if not self.accepted:
            await self.accept()
        await self.send(text_data=answers.error_frame(reason, last=True))
        await self.close(code=CLOSE_FORBIDDEN)

    async def disconnect(self, code: int) -> None:
        if getattr(self, "beating", False):  # this tab counts no more for who is here
            with contextlib.suppress(*layers.LAYER_ERRORS):
                await self.heartbeat(None)
        if getattr(self, "group", None):
            # With Redis down the membership cannot be dropped now; it expires with the group (a day).
            with contextlib.suppress(*layers.LAYER_ERRORS):
                await self.channel_layer.group_discard(self.group, self.channel_name)

    async def read(self, text_data: str | None, bytes_data: bytes | None) -> int | None:
        """A resume's `last_seq`, within the rate limit; None (with an error frame sent) if not, or if the
        message was a heartbeat (answered here)."""
        if not self._rate().allow():
            await self.send(
                text_data=answers.error_frame(f"Too many messages: at most {RATE_LIMIT} a second.")
            )
            return None
        try:
            message = read_message(text_data, bytes_data)
            value = MESSAGE_TYPES[message["type"]](message)
        except ValueError as error:
            await self.send(text_data=answers.error_frame(str(error)))
            return None
        if message["type"] == "heartbeat":
            await self.heartbeat(value)
            return None
        return value

    async def heartbeat(self, visible: bool | None) -> None:
        """Record this tab's beat (None: it closed) and push who is here to the place's pages when that
        changed; the first beat of a socket gets the region anyway. Someone no longer in the saga: 4403."""
        html, push = await _presence(self.place, self.scope["user"], self.channel_name, visible)
        if html is None:
            self.beating = False
            if visible is not None:
                await self.forbid()
            return
        self.beating = visible is not None
        if push:
            for group in presence.groups(self.place):
                await self.channel_layer.group_send(group, layers.layer_message(presence.FRAME_TYPE, html))
        elif visible is not None and not getattr(self, "presence_sent", False):
            await self.send(text_data=html)
        self.presence_sent = True

    async def presence_frame(self, message: dict) -> None:
        """Who is here, as rendered once for every page of the place."""
        await self.send(text_data=message["html"])

    def _rate(self) -> RateLimit:
        if getattr(self, "rate", None) is None:
            self.rate = RateLimit()
        return self.rate


class EncounterConsumer(LiveConsumer):
    """One connection of one page: storyguide or players audience."""

    async def connect(self) -> None:
        self.encounter_id = int(self.scope["url_route"]["kwargs"]["encounter_id"])
        self.audience = None
        self.group = None
        self.last_sent: int | None = None  # None until the client's first resume
        self.held: list[dict] = []
        user = self.scope.get("user")
        refusal = NOT_IN_SAGA
        if user is not None:
            self.audience, refusal = await _audience(user, self.encounter_id)
        if self.audience is None:
            await self.forbid(refusal)
            return
        self.group = Encounter.group_name(self.encounter_id, self.audience)
        self.place = presence.Place("encounter", self.encounter_id)
        if await self.join(self.group):
            await self.accept()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.group is None:
            return
        last_seq = await self.read(text_data, bytes_data)
        if last_seq is not None:
            await self.replay(last_seq)

    async def reseated(self) -> bool:
        """Whether this person's audience is no longer the one this socket joined: the seat was handed
        over (closed with 4409, which live.js answers by loading the page again), or they are out of the saga
        or the encounter is gone (4403, as when joining)."""
        audience, refusal = await _audience(self.scope.get("user"), self.encounter_id)
        if audience == self.audience:
            return False
        if audience is None:
            await self.forbid(refusal)
            return True
        await self.send(text_data=answers.error_frame(RESEATED, last=True))
        await self.close(code=CLOSE_RESEATED)
        return True

    async def replay(self, after_seq: int) -> None:
        """Everything after `after_seq`, then the panels, for the audience this person still has (else
        `reseated`); frames held meanwhile go after, if newer."""
        if await self.reseated():
            return
        replayed = await _replay(self.encounter_id, self.audience, after_seq)
        if replayed is None:
            await self.forbid(ENCOUNTER_GONE)
            return
        html, newest = replayed
        await self.send(text_data=html)
        self.last_sent = newest
        held, self.held = self.held, []
        for message in held:
            await self.encounter_frame(message)

    async def encounter_named(self, message: dict) -> None:
        """The encounter's new name (the heading); before the client has resumed, its replay shows it."""
        if self.last_sent is not None:
            await self.send(text_data=message["html"])

    async def encounter_frame(self, message: dict) -> None:
        """A frame from the group: held until the client has resumed, dropped when not newer; one that hands
        the seat over is sent only to a socket whose audience it leaves as it was (`reseated`)."""
        if message.get("seat") and await self.reseated():
            return
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


class SagaConsumer(LiveConsumer):
    """One saga page: its members, characters and encounters, pushed whole after each change."""

    async def connect(self) -> None:
        self.saga_id = int(self.scope["url_route"]["kwargs"]["saga_id"])
        self.group = None
        user = self.scope.get("user")
        place = await _saga_place(user, self.saga_id) if user is not None else None
        if place is None:
            await self.forbid()
            return
        self.audience, self.role, self.troupe = place
        self.group = saga_live.group_name(self.saga_id, self.audience)
        self.place = presence.Place("saga", self.saga_id)
        if await self.join(self.group):
            await self.accept()
            await self.send_saga_frame()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """A resume: the current regions again, if this person is still in the saga (else 4403)."""
        if self.group is None or await self.read(text_data, bytes_data) is None:
            return
        if not await self.replaced():
            await self.send_saga_frame()

    async def replaced(self) -> bool:
        """Whether this person's place on the page is no longer the one it was drawn for: out of the saga
        (4403), or their role or the lead changed (closed with 4409: saga_live.js loads the page again)."""
        place = await _saga_place(self.scope.get("user"), self.saga_id)
        if place is None:
            await self.forbid()
            return True
        if place[:2] == (self.audience, self.role):
            self.troupe = place[2]
            return False
        await self.send(text_data=answers.error_frame(REPLACED, last=True))
        await self.close(code=CLOSE_RESEATED)
        return True

    async def send_saga_frame(self) -> None:
        """The saga page's current regions; a saga deleted since the membership was read: 4403."""
        html = await _saga_frame(self.saga_id, self.audience)
        if html is None:
            await self.forbid(SAGA_GONE)
        else:
            await self.send(text_data=html)

    async def saga_frame(self, message: dict) -> None:
        """A frame from the group, as rendered once for this audience; one after a change of the troupe asks
        first whether this person's place changed (`replaced`)."""
        if message.get("troupe", self.troupe) != self.troupe and await self.replaced():
            return
        await self.send(text_data=message["html"])


class UnknownPath(AsyncWebsocketConsumer):
    """Any other websocket path: the handshake is refused (403), with no error logged."""

    async def connect(self) -> None:
        await self.close()
