"""A hand-over of the seat on the open pages (issue 38, item 2): the sockets of the one who held it and of the
one who takes it are closed with 4409, so that their pages load again for their new place (live.js); every
other member's socket is sent the frame; a socket that missed the frame and resumes is closed the same."""

import json

import pytest
from channels.db import database_sync_to_async

from campaign import services as campaign_services
from combat import live, services
from combat.consumers import CLOSE_RESEATED

from .conftest import Table
from .test_consumer import TIMEOUT, event_ids, joined

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def troupe(db):
    table = Table()
    campaign_services.make_storyguide(table.saga, table.bob, by=table.storyguide)
    return table


@database_sync_to_async
def hand_over(table):
    services.hand_over_seat(table.storyguide, table.encounter.pk, table.v, "bob", "Bob runs the ambush")


async def closed_reseated(comm):
    said = json.loads(await comm.receive_from(timeout=TIMEOUT))
    assert said["last"] and "seat was handed over" in said["error"]
    assert await comm.receive_output(timeout=TIMEOUT) == {"type": "websocket.close", "code": CLOSE_RESEATED}


async def test_the_two_whose_place_changes_load_again_and_the_others_see_the_hand_over(troupe):
    sg, _ = await joined(troupe.encounter.pk, troupe.storyguide, 3)
    bob, _ = await joined(troupe.encounter.pk, troupe.bob, 3)
    alice, _ = await joined(troupe.encounter.pk, troupe.alice, 3)
    try:
        await hand_over(troupe)
        await closed_reseated(sg)
        await closed_reseated(bob)
        frame = await alice.receive_from(timeout=TIMEOUT)
        assert event_ids(frame) == [4] and "takes the storyguide’s seat" in frame
    finally:
        for comm in (sg, bob, alice):
            await comm.disconnect()


async def test_a_socket_that_missed_the_hand_over_is_closed_when_it_resumes(troupe, monkeypatch):
    """The hand-over's frame lost on the way (the channel layer dropped it): the old holder's socket, still
    in the storyguide's group, asks for what it missed and is closed for its new place, not replayed the
    storyguide's version."""
    sg, _ = await joined(troupe.encounter.pk, troupe.storyguide, 3)
    try:
        with monkeypatch.context() as patched:
            patched.setattr(live, "send_in_turn", dropped)
            await hand_over(troupe)
        await sg.send_to(text_data=json.dumps({"type": "resume", "last_seq": 3}))
        await closed_reseated(sg)
    finally:
        await sg.disconnect()


async def dropped(layer, frames):
    """The channel layer's send, every frame lost."""
