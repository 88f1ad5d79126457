"""The encounter websocket: join, push after a command, replay after a reconnect, refusals.

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

from arsmagica import services
from combat.consumers import ENCOUNTER_GONE
from combat.models import Encounter
from combat.routing import websocket_urlpatterns
from config.asgi import application

from .conftest import Table

pytestmark = pytest.mark.django_db(transaction=True)
TIMEOUT = 3
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
def open_declarations(table):
    services.open_declarations(table.storyguide, table.encounter.pk, table.v)


def seq_range(frame):
    first, last = SEQ.search(frame).groups()
    return int(first), int(last)


def event_ids(frame):
    return [int(n) for n in re.findall(r'<li id="event-(\d+)"', frame)]


async def test_the_storyguide_joins_and_gets_the_log_and_the_panels(table_live):
    comm, frame = await joined(table_live.encounter.pk, table_live.storyguide)
    try:
        assert 'data-replay="1"' in frame
        assert event_ids(frame) == [1, 2, 3, 4, 5, 6]
        assert seq_range(frame) == (1, 6)
        for panel in ("encounter-status", "combatants", "acting-order", "sg-controls", "declaration-status"):
            assert f'id="{panel}"' in frame
    finally:
        await comm.disconnect()


async def test_a_command_is_pushed_to_every_screen(table_live):
    sg, _ = await joined(table_live.encounter.pk, table_live.storyguide)
    alice, _ = await joined(table_live.encounter.pk, table_live.alice)
    try:
        version = await database_sync_to_async(lambda: table_live.v)()
        await database_sync_to_async(services.open_declarations)(
            table_live.storyguide, table_live.encounter.pk, version
        )
        for comm in (sg, alice):
            frame = await comm.receive_from(timeout=TIMEOUT)
            assert seq_range(frame) == (7, 7)
            assert event_ids(frame) == [7]
            assert "declarations are open" in frame
            assert 'data-phase="declaring"' in frame
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
        version = await database_sync_to_async(lambda: table_live.v)()
        await database_sync_to_async(services.open_declarations)(
            table_live.storyguide, table_live.encounter.pk, version
        )
        for comm in (sg, alice):
            assert seq_range(await comm.receive_from(timeout=TIMEOUT)) == (7, 7)
        assert len(hops) == joining
    finally:
        await sg.disconnect()
        await alice.disconnect()


async def test_players_do_not_see_npc_declarations_nor_the_storyguide_panel(table_live):
    await open_declarations(table_live)
    sg, _ = await joined(table_live.encounter.pk, table_live.storyguide, 7)
    alice, frame = await joined(table_live.encounter.pk, table_live.alice, 7)
    try:
        assert 'id="sg-controls"' not in frame
        bandit = table_live.bandits[0]
        weapon = await database_sync_to_async(table_live.weapon)(bandit)
        await database_sync_to_async(services.declare)(
            table_live.storyguide,
            table_live.encounter.pk,
            bandit.pk,
            {"action": "attack", "weapon_id": weapon, "engage": [table_live.boris.pk]},
        )
        sg_frame = await sg.receive_from(timeout=TIMEOUT)
        player_frame = await alice.receive_from(timeout=TIMEOUT)
        assert event_ids(sg_frame) == [8] and "Bandit 1</b> has declared" in sg_frame
        assert event_ids(player_frame) == [] and seq_range(player_frame) == (8, 8)
        assert f'data-testid="declared-{bandit.pk}" class="done"' in player_frame
    finally:
        await sg.disconnect()
        await alice.disconnect()


async def test_a_reconnecting_client_gets_what_it_missed_in_order(table_live):
    alice, frame = await joined(table_live.encounter.pk, table_live.alice)
    _, last_seen = seq_range(frame)
    await alice.disconnect()
    await open_declarations(table_live)
    await database_sync_to_async(
        lambda: services.correct(
            table_live.storyguide,
            table_live.encounter.pk,
            table_live.v,
            table_live.boris.pk,
            {"body_level": "hurt"},
            "Old wound",
        )
    )()
    alice, frame = await joined(table_live.encounter.pk, table_live.alice, last_seen)
    try:
        assert event_ids(frame) == [7, 8]
        assert seq_range(frame) == (7, 8)
        assert "Old wound" in frame and 'data-testid="body-level">Hurt' in frame
        assert await alice.receive_nothing(timeout=0.2)
    finally:
        await alice.disconnect()


async def test_pushes_wait_until_the_client_has_resumed_and_are_not_sent_twice(table_live):
    comm = communicator(table_live.encounter.pk, table_live.alice)
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert connected
    try:
        await open_declarations(table_live)
        assert await comm.receive_nothing(timeout=0.3)  # held: the client has not said what it has
        await comm.send_to(text_data=json.dumps({"type": "resume", "last_seq": 6}))
        frame = await comm.receive_from(timeout=TIMEOUT)
        assert event_ids(frame) == [7]
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
        await comm.send_to(text_data=json.dumps({"type": "resume", "last_seq": 5}))
        assert event_ids(await comm.receive_from(timeout=TIMEOUT)) == [6]
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
        assert 'id="sg-controls"' not in frame and event_ids(frame) == [1, 2, 3, 4, 5, 6]
    finally:
        await comm.disconnect()
