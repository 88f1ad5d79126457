"""Who is here (combat.presence): the service with a frozen clock (here, away, gone after the expiry,
gone at once when the last tab closes), and the sockets' heartbeats (the region pushed to every page of
the place, bad heartbeats answered with an error frame, no event and no new version).

Runs on the in-memory channel layer, and on Redis when REDIS_URL is set (make test).
"""

import json
import re

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.core.cache import cache

from campaign.models import Membership
from combat import presence
from combat.consumers import CLOSE_FORBIDDEN
from combat.models import Encounter, Event
from combat.routing import websocket_urlpatterns

from .conftest import Table

pytestmark = pytest.mark.django_db(transaction=True)
TIMEOUT = 10  # seconds to wait for a frame: only a failing test waits it out, and a loaded CI machine is slow
EXPIRY = 20


@pytest.fixture(autouse=True)
def fresh_cache(settings):
    settings.PRESENCE_EXPIRY = EXPIRY
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def table(db):
    return Table()


def states(place, table, now):
    """Each member's (state, since) by name, at `now`."""
    return {p.name: (p.state, p.since) for p in presence.people(place, place.members(), now)}


def test_a_shown_tab_is_here_a_hidden_one_away_and_no_beat_for_the_expiry_gone_since_the_last(table):
    place = presence.Place("encounter", table.encounter.pk)
    presence.beat(place, table.alice.pk, "tab-a", True, now=1000.0)
    presence.beat(place, table.bob.pk, "tab-b", False, now=1000.0)
    assert states(place, table, 1000.0 + EXPIRY - 1) == {
        "sg": ("gone", None), "alice": ("here", None), "bob": ("away", None)
    }
    assert states(place, table, 1000.0 + EXPIRY) == {
        "sg": ("gone", None), "alice": ("gone", 1000.0), "bob": ("gone", 1000.0)
    }


def test_a_person_is_here_while_any_tab_is_shown_and_gone_when_the_last_tab_closes(table):
    place = presence.Place("saga", table.saga.pk)
    presence.beat(place, table.alice.pk, "phone", False, now=1000.0)
    presence.beat(place, table.alice.pk, "laptop", True, now=1005.0)
    assert states(place, table, 1006.0)["alice"] == ("here", None)
    presence.leave(place, table.alice.pk, "laptop", now=1007.0)
    assert states(place, table, 1008.0)["alice"] == ("away", None)
    presence.leave(place, table.alice.pk, "phone", now=1009.0)
    assert states(place, table, 1009.5)["alice"] == ("gone", 1009.0)


def test_a_killed_processs_tab_is_forgotten_once_expired(table):
    place = presence.Place("saga", table.saga.pk)
    presence.beat(place, table.alice.pk, "on-the-killed-daphne", True, now=1000.0)
    presence.beat(place, table.alice.pk, "hidden-elsewhere", False, now=1000.0 + EXPIRY + 5)
    assert states(place, table, 1000.0 + EXPIRY + 6)["alice"] == ("away", None)


def test_the_region_is_pushed_only_when_what_it_shows_changes(table):
    place = presence.Place("encounter", table.encounter.pk)
    presence.beat(place, table.alice.pk, "tab", True, now=1000.0)
    assert presence.changed(place, presence.people(place, place.members(), 1000.0))
    presence.beat(place, table.alice.pk, "tab", True, now=1010.0)
    assert not presence.changed(place, presence.people(place, place.members(), 1010.0))
    assert presence.changed(place, presence.people(place, place.members(), 1010.0 + EXPIRY))


def test_a_places_people_are_its_sagas_members_only(table):
    assert presence.Place("encounter", table.encounter.pk).members() == [
        (table.storyguide.pk, "sg"), (table.alice.pk, "alice"), (table.bob.pk, "bob")
    ]
    html, _ = presence.heartbeat(presence.Place("saga", table.saga.pk), table.outsider.pk, "tab", True)
    assert html is None
    assert not cache.get(f"covenant:presence:saga-{table.saga.pk}:{table.outsider.pk}")


async def opened(path, user):
    comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), path)
    comm.scope["user"] = user
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert connected
    return comm


async def beat(comm, visible=True):
    await comm.send_to(text_data=json.dumps({"type": "heartbeat", "visible": visible}))


def shown(frame):
    """Who the presence region shows, by name, with their state."""
    assert 'id="presence"' in frame
    pairs = re.findall(r'data-state="(\w+)"\s+data-testid="presence-(\w+)"', frame)
    return {name: state for state, name in pairs}


async def test_heartbeats_push_who_is_here_to_every_page_and_a_closed_tab_goes_gone(table):
    path = f"/ws/encounters/{table.encounter.pk}/"
    sg = await opened(path, table.storyguide)
    await beat(sg)
    assert shown(await sg.receive_from(timeout=TIMEOUT)) == {"sg": "here", "alice": "gone", "bob": "gone"}
    alice = await opened(path, table.alice)
    await beat(alice)
    for comm in (sg, alice):
        assert shown(await comm.receive_from(timeout=TIMEOUT))["alice"] == "here"
    await beat(alice, visible=False)
    for comm in (sg, alice):
        assert shown(await comm.receive_from(timeout=TIMEOUT))["alice"] == "away"
    await alice.disconnect()
    frame = await sg.receive_from(timeout=TIMEOUT)
    assert shown(frame)["alice"] == "gone" and "gone since" in frame
    await sg.disconnect()


async def test_an_unchanged_beat_pushes_nothing_but_a_new_tab_gets_the_region(table):
    path = f"/ws/sagas/{table.saga.pk}/"
    first = await opened(path, table.alice)
    await first.receive_from(timeout=TIMEOUT)  # the saga's regions on connect
    await beat(first)
    assert shown(await first.receive_from(timeout=TIMEOUT))["alice"] == "here"
    second = await opened(path, table.alice)
    await second.receive_from(timeout=TIMEOUT)
    await beat(second)
    assert shown(await second.receive_from(timeout=TIMEOUT))["alice"] == "here"
    await beat(first)
    assert await first.receive_nothing(timeout=0.3)
    await first.disconnect()
    await second.disconnect()


@database_sync_to_async
def version_of(encounter_id):
    return Encounter.objects.get(pk=encounter_id).version


async def test_presence_writes_no_event_and_keeps_the_version(table):
    version = await version_of(table.encounter.pk)
    events = await database_sync_to_async(Event.objects.count)()
    comm = await opened(f"/ws/encounters/{table.encounter.pk}/", table.bob)
    await beat(comm)
    await comm.receive_from(timeout=TIMEOUT)
    await comm.disconnect()
    assert await version_of(table.encounter.pk) == version
    assert await database_sync_to_async(Event.objects.count)() == events


@pytest.mark.parametrize("message", [
    {"type": "heartbeat"},
    {"type": "heartbeat", "visible": "yes"},
    {"type": "heartbeat", "visible": 1},
])
async def test_a_bad_heartbeat_gets_an_error_frame(table, message):
    comm = await opened(f"/ws/encounters/{table.encounter.pk}/", table.alice)
    await comm.send_to(text_data=json.dumps(message))
    assert json.loads(await comm.receive_from(timeout=TIMEOUT)) == {"error": "visible must be true or false."}
    await comm.disconnect()


async def test_someone_who_left_the_saga_is_closed_at_their_next_heartbeat(table):
    comm = await opened(f"/ws/encounters/{table.encounter.pk}/", table.bob)
    await database_sync_to_async(Membership.objects.filter(user=table.bob).delete)()
    await beat(comm)
    assert "not in this saga" in json.loads(await comm.receive_from(timeout=TIMEOUT))["error"]
    closed = await comm.receive_output(timeout=TIMEOUT)
    assert closed == {"type": "websocket.close", "code": CLOSE_FORBIDDEN}
    await comm.disconnect()


def test_one_not_come_yet_is_drawn_apart_from_one_who_left(table):
    """Someone never seen at the place reads "not here", muted; someone who left, "gone since", in red."""
    from django.template.loader import render_to_string

    place = presence.Place("encounter", table.encounter.pk)
    presence.beat(place, table.alice.pk, "tab-a", True, now=1000.0)
    people = presence.people(place, place.members(), 1000.0 + EXPIRY)
    html = render_to_string("combat/_presence.html", {"people": people})
    unseen = re.search(r'<li class="([^"]*)"[^>]*data-testid="presence-sg"', html).group(1)
    left = re.search(r'<li class="([^"]*)"[^>]*data-testid="presence-alice"', html).group(1)
    assert unseen == "presence-gone presence-unseen" and left == "presence-gone"


def test_presence_names_who_runs_the_table_now(table):
    """The encounter's seat holder "runs the table"; on the saga page the lead is marked; a hand-over of the
    seat changes what the region shows (so it is pushed)."""
    from campaign import services as campaign_services
    from combat import services

    def running(html: str, mark: str = "runs the table") -> list[str]:
        items = re.findall(r'data-testid="presence-(\w+)">(.*?)</li>', html, re.S)
        return [name for name, item in items if mark in item]

    place = presence.Place("encounter", table.encounter.pk)
    html, _ = presence.heartbeat(place, table.alice.pk, "tab", True)
    assert running(html) == ["sg"]
    campaign_services.make_storyguide(table.saga, table.bob, by=table.storyguide)
    services.hand_over_seat(table.storyguide, table.encounter.pk, table.v, "bob", "Bob runs it")
    html, changed = presence.heartbeat(place, table.alice.pk, "tab", True)
    assert changed and running(html) == ["bob"]
    saga_html, _ = presence.heartbeat(presence.Place("saga", table.saga.pk), table.alice.pk, "tab", True)
    assert running(saga_html, "lead storyguide") == ["sg"]
