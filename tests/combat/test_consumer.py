"""The encounter websocket: join, push after a command, replay after a reconnect, refusals; on the coin duel
(its table: Ada and Bruno added, events 1 to 3; each flip one more).

Runs on the in-memory channel layer, and on Redis when REDIS_URL is set (make test).
"""

import json
import re

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.test import Client

from combat.consumers import ENCOUNTER_GONE
from combat.models import Encounter
from combat.routing import websocket_urlpatterns
from config.asgi import application

from .conftest import Table

FLIP_FORM = 'hx-post="/encounters/'

pytestmark = pytest.mark.django_db(transaction=True)
TIMEOUT = 10  # seconds to wait for a frame: only a failing test waits it out, and a loaded CI machine is slow
SEQ = re.compile(r'id="live-seq"[^>]*data-first-seq="(\d+)" data-last-seq="(\d+)"')


@pytest.fixture
def table_live(db):
    return Table()


def communicator(encounter_id, user):
    comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/encounters/{encounter_id}/")
    comm.scope["user"] = user
    return comm


async def joined(encounter_id, user, last_seq=0):
    comm = communicator(encounter_id, user)
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert connected
    await comm.send_to(text_data=json.dumps({"type": "resume", "last_seq": last_seq}))
    replay = await comm.receive_from(timeout=TIMEOUT)
    return comm, replay


@database_sync_to_async
def flip(table, ada=2):
    """A turn of the duel: Ada flips `ada` (2 heads, 1 tails), Bruno tails."""
    table.flip(ada=ada)


def seq_range(frame):
    first, last = SEQ.search(frame).groups()
    return int(first), int(last)


def event_ids(frame):
    return [int(n) for n in re.findall(r'<li id="event-(\d+)"', frame)]


async def test_the_storyguide_joins_and_gets_the_log_and_the_panels(table_live):
    comm, frame = await joined(table_live.encounter.pk, table_live.storyguide)
    try:
        assert 'data-replay="1"' in frame
        assert event_ids(frame) == [1, 2, 3]
        assert seq_range(frame) == (1, 3)
        assert 'id="coin-duel"' in frame and FLIP_FORM in frame
    finally:
        await comm.disconnect()


async def test_a_command_is_pushed_to_every_screen(table_live):
    sg, _ = await joined(table_live.encounter.pk, table_live.storyguide)
    alice, _ = await joined(table_live.encounter.pk, table_live.alice)
    try:
        await flip(table_live)
        for comm in (sg, alice):
            frame = await comm.receive_from(timeout=TIMEOUT)
            assert seq_range(frame) == (4, 4)
            assert event_ids(frame) == [4]
            assert "Ada flips heads, Bruno flips tails." in frame
            assert "Ada: 1 hit" in frame and "Bruno: 0 hits" in frame
        assert await alice.receive_nothing(timeout=0.2)
    finally:
        await sg.disconnect()
        await alice.disconnect()


async def test_a_pushed_frame_is_sent_without_a_hop_to_the_sync_thread(table_live, monkeypatch):
    """Issue 11: Channels' dispatch closes stale database connections in the shared sync thread before
    every handler; a pushed frame's handler only sends, so it skips that hop (a socket's own messages,
    which may read the log, still take it)."""
    import channels.consumer

    hops = []
    closing = channels.consumer.aclose_old_connections

    async def counted():
        hops.append(1)
        await closing()

    monkeypatch.setattr(channels.consumer, "aclose_old_connections", counted)
    sg, _ = await joined(table_live.encounter.pk, table_live.storyguide)
    alice, _ = await joined(table_live.encounter.pk, table_live.alice)
    try:
        joining = len(hops)
        assert joining >= 4  # each socket's connect and resume
        await flip(table_live)
        for comm in (sg, alice):
            assert seq_range(await comm.receive_from(timeout=TIMEOUT)) == (4, 4)
        assert len(hops) == joining
    finally:
        await sg.disconnect()
        await alice.disconnect()


async def test_players_get_their_audiences_frame_without_the_storyguides_controls(table_live):
    sg, sg_frame = await joined(table_live.encounter.pk, table_live.storyguide, 3)
    alice, frame = await joined(table_live.encounter.pk, table_live.alice, 3)
    try:
        assert FLIP_FORM in sg_frame and FLIP_FORM not in frame and 'id="coin-duel"' in frame
        await flip(table_live)
        sg_frame = await sg.receive_from(timeout=TIMEOUT)
        player_frame = await alice.receive_from(timeout=TIMEOUT)
        assert event_ids(sg_frame) == event_ids(player_frame) == [4]
        assert FLIP_FORM in sg_frame and FLIP_FORM not in player_frame and "Ada: 1 hit" in player_frame
    finally:
        await sg.disconnect()
        await alice.disconnect()


async def test_a_reconnecting_client_gets_what_it_missed_in_order(table_live):
    alice, frame = await joined(table_live.encounter.pk, table_live.alice)
    _, last_seen = seq_range(frame)
    await alice.disconnect()
    await flip(table_live)
    await flip(table_live, ada=1)
    alice, frame = await joined(table_live.encounter.pk, table_live.alice, last_seen)
    try:
        assert event_ids(frame) == [4, 5]
        assert seq_range(frame) == (4, 5)
        assert "Ada flips tails, Bruno flips tails." in frame and "Ada: 1 hit" in frame
        assert await alice.receive_nothing(timeout=0.2)
    finally:
        await alice.disconnect()


async def test_pushes_wait_until_the_client_has_resumed_and_are_not_sent_twice(table_live):
    comm = communicator(table_live.encounter.pk, table_live.alice)
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert connected
    try:
        await flip(table_live)
        assert await comm.receive_nothing(timeout=0.3)  # held: the client has not said what it has
        await comm.send_to(text_data=json.dumps({"type": "resume", "last_seq": 3}))
        frame = await comm.receive_from(timeout=TIMEOUT)
        assert event_ids(frame) == [4]
        assert await comm.receive_nothing(timeout=0.3)  # the held push covered nothing new
    finally:
        await comm.disconnect()


async def test_a_bad_frame_gets_an_error_frame_and_the_socket_stays_open(table_live):
    comm, _ = await joined(table_live.encounter.pk, table_live.alice)
    try:
        await comm.send_to(text_data="not json")
        assert json.loads(await comm.receive_from(timeout=TIMEOUT)) == {"error": "Messages must be JSON."}
        await comm.send_to(text_data=json.dumps({"type": "resume", "last_seq": -1}))
        assert "last_seq" in json.loads(await comm.receive_from(timeout=TIMEOUT))["error"]
        await comm.send_to(text_data=json.dumps({"type": "dance"}))
        assert "Unknown message" in json.loads(await comm.receive_from(timeout=TIMEOUT))["error"]
        await comm.send_to(text_data=json.dumps({"type": "resume", "last_seq": 2}))
        assert event_ids(await comm.receive_from(timeout=TIMEOUT)) == [3]
    finally:
        await comm.disconnect()


@pytest.mark.parametrize("who", ["outsider", "anonymous"])
async def test_anyone_not_in_the_saga_is_refused(table_live, who):
    user = table_live.outsider if who == "outsider" else AnonymousUser()
    comm = communicator(table_live.encounter.pk, user)
    try:
        connected, _ = await comm.connect(timeout=TIMEOUT)
        assert connected  # accepted only to say why, then closed with 4403 (no reconnect loop)
        assert "error" in json.loads(await comm.receive_from(timeout=TIMEOUT))
        closing = await comm.receive_output(timeout=TIMEOUT)
        assert closing == {"type": "websocket.close", "code": 4403}
    finally:
        await comm.disconnect()


async def test_an_encounter_deleted_while_its_page_is_open_closes_it_with_4403_on_resume(table_live):
    """Issue 35, item 3: the replay of an encounter that is gone was an exception inside the application."""
    alice, _ = await joined(table_live.encounter.pk, table_live.alice)
    try:
        await database_sync_to_async(Encounter.objects.filter(pk=table_live.encounter.pk).delete)()
        await alice.send_to(text_data=json.dumps({"type": "resume", "last_seq": 0}))
        farewell = json.loads(await alice.receive_from(timeout=TIMEOUT))
        assert farewell == {"error": ENCOUNTER_GONE, "last": True}
        assert await alice.receive_output(timeout=TIMEOUT) == {"type": "websocket.close", "code": 4403}
    finally:
        await alice.disconnect()


async def test_the_full_stack_authenticates_by_session_cookie(table_live):
    def session_cookie():
        client = Client()
        client.force_login(table_live.alice)
        return client.cookies["sessionid"].value

    cookie = await database_sync_to_async(session_cookie)()
    comm = WebsocketCommunicator(
        application,
        f"/ws/encounters/{table_live.encounter.pk}/",
        headers=[
            (b"origin", b"http://testserver"),
            (b"host", b"testserver"),
            (b"cookie", f"sessionid={cookie}".encode()),
        ],
    )
    try:
        connected, _ = await comm.connect(timeout=TIMEOUT)
        assert connected
        await comm.send_to(text_data=json.dumps({"type": "resume", "last_seq": 0}))
        frame = await comm.receive_from(timeout=TIMEOUT)
        assert FLIP_FORM not in frame and event_ids(frame) == [1, 2, 3]
    finally:
        await comm.disconnect()
