"""The saga page's websocket (combat.saga_live): the current regions on connect, a push after each change
(a member joins, a character or NPC is made or changed, an encounter is made or moves on), NPCs only for
the storyguide, and the encounter socket's limits and close codes. On the coin duel (a command that leaves
the saga page as it was: tests/arsmagica/test_saga_live.py).

Runs on the in-memory channel layer, and on Redis when REDIS_URL is set (make test).
"""

import json
import re

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from campaign import services as campaign
from campaign.models import Character, Membership, Saga
from combat import saga_live, services
from combat.audience import AUDIENCES
from combat.consumers import (
    CLOSE_FORBIDDEN,
    CLOSE_RESEATED,
    CLOSE_UNAVAILABLE,
    LAYER_DOWN,
    RATE_LIMIT,
    SAGA_GONE,
)
from combat.routing import websocket_urlpatterns
from tests.coinduel import KEY
from tests.personas import make_user

from .conftest import Table

pytestmark = pytest.mark.django_db(transaction=True)
TIMEOUT = 10  # seconds to wait for a frame: only a failing test waits it out, and a loaded CI machine is slow
REGIONS = ("saga-stamp", "characters", "encounter-list", "members")


@pytest.fixture
def saga_table(db):
    return Table()


async def opened(saga_id, user):
    """A connected saga socket and the frame it got on connect."""
    comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/sagas/{saga_id}/")
    comm.scope["user"] = user
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert connected
    return comm, await comm.receive_from(timeout=TIMEOUT)


def closed_with(code):
    return {"type": "websocket.close", "code": code}


def stamp(frame):
    return int(re.search(r'id="saga-stamp"[^>]*data-stamp="(\d+)"', frame).group(1))


async def test_each_audience_gets_the_current_regions_on_connect(saga_table):
    sg, sg_frame = await opened(saga_table.saga.pk, saga_table.storyguide)
    alice, player_frame = await opened(saga_table.saga.pk, saga_table.alice)
    try:
        for region in REGIONS:
            assert f'id="{region}" hx-swap-oob="true"' in sg_frame
            assert f'id="{region}" hx-swap-oob="true"' in player_frame
        assert "Ada" in player_frame and "Duel at dawn" in player_frame and "preparing" in player_frame
        assert 'id="npcs"' in sg_frame and "Bruno" in sg_frame
        assert 'id="npcs"' not in player_frame and "Bruno" not in player_frame
    finally:
        await sg.disconnect()
        await alice.disconnect()


async def test_a_member_joining_is_pushed_to_every_page(saga_table):
    sg, first = await opened(saga_table.saga.pk, saga_table.storyguide)
    alice, _ = await opened(saga_table.saga.pk, saga_table.alice)
    try:
        dora = await database_sync_to_async(make_user)("dora")
        await database_sync_to_async(campaign.join_saga)(dora, saga_table.saga)
        for comm in (sg, alice):
            frame = await comm.receive_from(timeout=TIMEOUT)
            assert "dora" in frame
        assert stamp(frame) > stamp(first)
        assert await sg.receive_nothing(timeout=0.2)
    finally:
        await sg.disconnect()
        await alice.disconnect()


async def test_a_new_npc_reaches_the_storyguide_only_and_a_changed_character_everyone(saga_table):
    sg, _ = await opened(saga_table.saga.pk, saga_table.storyguide)
    alice, _ = await opened(saga_table.saga.pk, saga_table.alice)
    try:
        await database_sync_to_async(Character.objects.create)(saga=saga_table.saga, name="Wolf", is_npc=True)
        assert "Wolf" in await sg.receive_from(timeout=TIMEOUT)
        assert "Wolf" not in await alice.receive_from(timeout=TIMEOUT)

        def rename():
            ada = Character.objects.get(pk=saga_table.ada_character.pk)
            ada.name = "Ada the Bold"
            ada.save()

        await database_sync_to_async(rename)()
        for comm in (sg, alice):
            assert "Ada the Bold" in await comm.receive_from(timeout=TIMEOUT)
    finally:
        await sg.disconnect()
        await alice.disconnect()


async def test_stamping_copies_pushes_once(saga_table):
    sg, _ = await opened(saga_table.saga.pk, saga_table.storyguide)
    try:
        await database_sync_to_async(campaign.stamp_npc_copies)(saga_table.bruno_character, 3, "Grog")
        frame = await sg.receive_from(timeout=TIMEOUT)
        assert all(f"Grog {n}" in frame for n in (1, 2, 3))
        assert await sg.receive_nothing(timeout=0.3)  # one transaction, one push
    finally:
        await sg.disconnect()


async def test_encounters_are_pushed_when_made_and_when_their_round_moves_on(saga_table):
    alice, _ = await opened(saga_table.saga.pk, saga_table.alice)
    try:
        ambush = await database_sync_to_async(services.create_encounter)(
            saga_table.storyguide, saga_table.saga.pk, "Ambush at the ford", KEY
        )
        frame = await alice.receive_from(timeout=TIMEOUT)
        assert f'data-testid="encounter-{ambush.pk}"' in frame and "Ambush at the ford" in frame
        assert await alice.receive_nothing(timeout=0.3)  # made in one command: one push
        await database_sync_to_async(saga_table.flip)()
        frame = await alice.receive_from(timeout=TIMEOUT)
        state = rf'data-testid="encounter-state-{saga_table.encounter.pk}">([^<]*)<'
        assert re.search(state, frame).group(1) == "round 1, live"
        assert await alice.receive_nothing(timeout=0.3)  # the encounter's push carried it: not twice
    finally:
        await alice.disconnect()


@pytest.mark.parametrize("who", ["outsider", "anonymous"])
async def test_anyone_not_in_the_saga_is_refused_with_4403(saga_table, who):
    user = saga_table.outsider if who == "outsider" else AnonymousUser()
    comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/sagas/{saga_table.saga.pk}/")
    comm.scope["user"] = user
    try:
        connected, _ = await comm.connect(timeout=TIMEOUT)
        assert connected
        assert "error" in json.loads(await comm.receive_from(timeout=TIMEOUT))
        assert await comm.receive_output(timeout=TIMEOUT) == closed_with(CLOSE_FORBIDDEN)
    finally:
        await comm.disconnect()


async def test_a_member_no_longer_in_the_saga_is_closed_with_4403_on_resume(saga_table):
    alice, _ = await opened(saga_table.saga.pk, saga_table.alice)
    try:
        await database_sync_to_async(Membership.objects.filter(user=saga_table.alice).delete)()
        await alice.receive_from(timeout=TIMEOUT)  # the members list without her, to the players' group
        await alice.send_to(text_data=json.dumps({"type": "resume", "last_seq": 0}))
        assert "error" in json.loads(await alice.receive_from(timeout=TIMEOUT))
        assert await alice.receive_output(timeout=TIMEOUT) == closed_with(CLOSE_FORBIDDEN)
    finally:
        await alice.disconnect()


async def test_a_saga_deleted_as_its_page_connects_closes_it_with_4403(saga_table, monkeypatch):
    """The membership was read just before the saga went (issue 35, item 3: its frame was a traceback)."""
    monkeypatch.setattr(saga_live, "place_of", lambda user, saga_id: (saga_live.PLAYERS, "player", "1:1"))
    saga_id = saga_table.saga.pk
    await database_sync_to_async(Saga.objects.filter(pk=saga_id).delete)()
    comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/sagas/{saga_id}/")
    comm.scope["user"] = saga_table.alice
    try:
        connected, _ = await comm.connect(timeout=TIMEOUT)
        assert connected
        assert json.loads(await comm.receive_from(timeout=TIMEOUT))["error"] == SAGA_GONE
        assert await comm.receive_output(timeout=TIMEOUT) == closed_with(CLOSE_FORBIDDEN)
    finally:
        await comm.disconnect()


async def test_bad_and_too_many_messages_get_error_frames(saga_table):
    alice, _ = await opened(saga_table.saga.pk, saga_table.alice)
    try:
        await alice.send_to(text_data="x" * 5000)
        assert "too long" in json.loads(await alice.receive_from(timeout=TIMEOUT))["error"]
        await alice.send_to(text_data=json.dumps({"type": "resume", "last_seq": 0}))
        assert 'id="members"' in await alice.receive_from(timeout=TIMEOUT)
        for _ in range(RATE_LIMIT + 1):
            await alice.send_to(text_data="{}")
        answers = [await alice.receive_from(timeout=TIMEOUT) for _ in range(RATE_LIMIT + 1)]
        assert any("Too many messages" in answer for answer in answers)
    finally:
        await alice.disconnect()


async def test_the_channel_layer_down_closes_with_4503(saga_table, monkeypatch):
    async def refused(group, channel):
        raise ConnectionRefusedError("redis is down")

    monkeypatch.setattr(get_channel_layer(), "group_add", refused)  # in memory, or Redis (make test)
    comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/sagas/{saga_table.saga.pk}/")
    comm.scope["user"] = saga_table.alice
    try:
        connected, _ = await comm.connect(timeout=TIMEOUT)
        assert connected
        assert json.loads(await comm.receive_from(timeout=TIMEOUT)) == {"error": LAYER_DOWN}
        assert await comm.receive_output(timeout=TIMEOUT) == closed_with(CLOSE_UNAVAILABLE)
    finally:
        await comm.disconnect()


def test_a_saga_frame_reads_a_few_rows_however_many_characters(saga_table, django_assert_max_num_queries):
    for n in range(12):
        Character.objects.create(saga=saga_table.saga, name=f"Grog {n}", is_npc=True)
    with django_assert_max_num_queries(4):
        regions = saga_live.saga_regions(saga_table.saga)
        for audience in AUDIENCES:
            saga_live.render_frame(regions, audience)


async def test_the_push_lists_templates_apart_and_leaves_archived_encounters_out(saga_table):
    def set_up():
        template = Character.objects.create(saga=saga_table.saga, name="Grog", is_npc=True)
        campaign.stamp_npc_copies(template, 2)
        old = services.create_encounter(saga_table.storyguide, saga_table.saga.pk, "Old ambush", KEY)
        type(old).objects.filter(pk=old.pk).update(archived_at="2026-11-01T00:00:00Z")

    await database_sync_to_async(set_up)()
    sg, frame = await opened(saga_table.saga.pk, saga_table.storyguide)
    try:
        templates = frame[frame.index('id="npc-templates"') :]
        assert "Grog" in templates and "2 copies stamped" in templates
        npcs = frame[frame.index('id="npcs"') : frame.index('id="npc-templates"')]
        assert "Grog 1" in npcs and ">Grog<" not in npcs
        assert "Duel at dawn" in frame and "Old ambush" not in frame
    finally:
        await sg.disconnect()


async def test_a_change_of_the_troupe_loads_again_the_pages_of_those_whose_place_it_changes(saga_table):
    """The lead makes alice a storyguide, then passes her the lead: her saga page (and then the old lead's)
    is closed with 4409, which saga_live.js answers by loading it again, drawn for the new place; bob's, a
    player's still, is sent the frame that lists the troupe."""
    saga = saga_table.saga
    sg, _ = await opened(saga.pk, saga_table.storyguide)
    alice, _ = await opened(saga.pk, saga_table.alice)
    bob, _ = await opened(saga.pk, saga_table.bob)
    try:
        make = database_sync_to_async(campaign.make_storyguide)
        await make(saga, saga_table.alice, by=saga_table.storyguide)
        said = json.loads(await alice.receive_from(timeout=TIMEOUT))
        assert said["last"] and "troupe changed" in said["error"]
        assert await alice.receive_output(timeout=TIMEOUT) == closed_with(CLOSE_RESEATED)
        for comm in (sg, bob):  # their place is as it was: the frame comes
            assert 'data-testid="storyguide-alice"' in await comm.receive_from(timeout=TIMEOUT)
        alice, _ = await opened(saga.pk, saga_table.alice)  # the page loaded again
        await database_sync_to_async(campaign.pass_lead)(saga, saga_table.alice, by=saga_table.storyguide)
        for comm in (sg, alice):
            assert json.loads(await comm.receive_from(timeout=TIMEOUT))["last"]
            assert await comm.receive_output(timeout=TIMEOUT) == closed_with(CLOSE_RESEATED)
        assert "passes the saga’s lead to <b>alice</b>" in await bob.receive_from(timeout=TIMEOUT)
    finally:
        for comm in (sg, alice, bob):
            await comm.disconnect()
