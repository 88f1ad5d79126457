"""Ars Magica's pages follow the seat (issue 38, items 2 and 3): the lead who has handed an encounter's seat
to another storyguide is sent the player's page and declarations, and is refused the storyguide's commands
of it; the one who holds it has them. Sir Boris's fight, with Bob made one of the saga's storyguides."""

import re

import pytest
from django.urls import reverse

from arsmagica import services as services_of_ars
from campaign import services as campaign_services
from combat import services
from tests.personas import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def handed(table):
    """The fight's seat handed by the storyguide, the saga's lead, to Bob."""
    campaign_services.make_storyguide(table.saga, table.bob, by=table.storyguide)
    services.hand_over_seat(table.storyguide, table.encounter.pk, table.v, "bob", "Bob runs the road")
    return table


def test_the_lead_without_the_seat_is_sent_the_players_pages(handed):
    pk = handed.encounter.pk
    lead, bob = client_for(handed.storyguide), client_for(handed.bob)
    assert lead.get(reverse("arsmagica:play", args=[pk])).status_code == 200  # not sent to the controls
    assert bob.get(reverse("arsmagica:play", args=[pk])).status_code == 302  # the holder is
    for who, shown in ((lead, False), (bob, True)):
        panel = who.get(reverse("arsmagica:my_declarations", args=[pk])).content.decode()
        assert ("Declare for NPCs" in panel) is shown, "the NPCs' declarations are for whoever holds the seat"


def test_the_lead_without_the_seat_is_refused_its_storyguides_commands(handed):
    pk = handed.encounter.pk
    url = reverse("arsmagica:declare_npcs_as_before", args=[pk])
    data = {"expected_version": handed.v}
    refused = client_for(handed.storyguide).post(url, data, HTTP_HX_REQUEST="true")
    assert refused.status_code == 422 and b"bob holds this encounter" in refused.content
    url = reverse("arsmagica:declare", args=[pk, handed.bandits[0].pk])
    refused = client_for(handed.storyguide).post(url, data, HTTP_HX_REQUEST="true")
    assert refused.status_code in (403, 422) and handed.v == data["expected_version"]


def test_the_replay_and_charts_read_the_storyguides_version_for_the_holder_alone(handed):
    """The NPCs' declarations are the storyguide's alone: the lead who handed the seat over reads the replay's
    log without them, as a player does; the holder with them."""
    from combat.archive.replay import reader_events

    services_of_ars.open_declarations(handed.bob, handed.encounter.pk, handed.v)
    bandit = handed.bandits[0]
    values = {"action": "attack", "weapon_id": handed.weapon(bandit), "engage": [handed.boris.pk]}
    services_of_ars.declare(handed.bob, handed.encounter.pk, bandit.pk, values)
    readers = ((handed.bob, "storyguide"), (handed.storyguide, "players"), (handed.alice, "players"))
    for user, audience in readers:
        seen, events = reader_events(handed.encounter, user)
        declared = [e for e in events if e.kind == "declared"]
        assert seen == audience and bool(declared) is (audience == "storyguide"), user


def test_the_holders_own_character_is_run_from_the_storyguides_panel_and_stays_a_player_character(table):
    """Issue 38, item 4: Alice, made one of the storyguides, holds the fight's seat and plays Sir Boris. Her
    panel (the storyguide's) opens his entry first, before the NPCs'; her declaration for him is his player's,
    not the storyguide's, and Bob reads it as he reads any player character's."""
    campaign_services.make_storyguide(table.saga, table.alice, by=table.storyguide)
    services.hand_over_seat(table.storyguide, table.encounter.pk, table.v, "alice", "Alice runs the road")
    services_of_ars.open_declarations(table.alice, table.encounter.pk, table.v)
    pk = table.encounter.pk
    panel = client_for(table.alice).get(reverse("arsmagica:my_declarations", args=[pk])).content.decode()
    entry = r'<details id="declare-(\d+)"\s+class="declare( declare-other)?"[^>]*?( open)?>'
    entries = re.findall(entry, panel)
    assert entries[0] == (str(table.boris.pk), "", " open"), "her own character first, open, as hers"
    npcs = entries[1 : 1 + len(table.bandits)]
    assert {int(e[0]) for e in npcs} == {b.pk for b in table.bandits}  # then the NPCs
    url, data = table.boris_attack_form()
    response = client_for(table.alice).post(url, data, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    declared = table.encounter.events.filter(kind="declared").latest("seq")
    assert declared.payload["by_storyguide"] is False and not declared.storyguide_only
    assert declared.actor == table.alice
    bobs = client_for(table.bob).get(reverse("arsmagica:play", args=[pk])).content.decode()
    assert f'<li id="event-{declared.seq}" class="event event-declared" ' in bobs  # as any player's
