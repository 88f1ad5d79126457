"""d6's table follows the seat (issue 38, items 2 and 3): the lead who has handed an encounter's seat to
another storyguide is sent the players' table, without its controls, and is refused its storyguide's
commands; the one who holds it has them. The chase through Ashford, with Bob one of the saga's storyguides."""

import re

import pytest
from django.urls import reverse

from campaign import services as campaign_services
from combat import services
from combat.errors import NotAllowed
from d6 import services as d6_services
from d6.models import Chase
from tests.personas import client_for

from .test_chase import start

pytestmark = pytest.mark.django_db


@pytest.fixture
def handed(table):
    """The chase's seat handed by the storyguide, the saga's lead, to Bob."""
    campaign_services.make_storyguide(table.saga, table.bob, by=table.storyguide)
    services.hand_over_seat(table.storyguide, table.encounter.pk, table.v, "bob", "Bob runs the chase")
    return table


def test_the_controls_are_the_holders(handed):
    url = reverse("d6:table", args=[handed.encounter.pk])
    assert 'data-testid="start-fight"' not in client_for(handed.storyguide).get(url).content.decode()
    assert 'data-testid="start-fight"' in client_for(handed.bob).get(url).content.decode()


def test_the_lead_without_the_seat_is_refused_the_storyguides_command(handed):
    version = handed.v
    url = reverse("d6:start_fight", args=[handed.encounter.pk])
    refused = client_for(handed.storyguide).post(url, {"expected_version": version}, HTTP_HX_REQUEST="true")
    assert refused.status_code == 422 and b"bob holds this encounter" in refused.content
    assert handed.v == version
    done = client_for(handed.bob).post(url, {"expected_version": version}, HTTP_HX_REQUEST="true")
    assert done.status_code == 200 and handed.v == version + 1


def test_the_holders_own_character_is_run_from_the_storyguides_panel_and_stays_a_player_character(table):
    """Issue 38, item 4: alice, one of the storyguides, holds the chase's seat and plays Marta, its target.
    Her own character's choice (where Marta runs) is hers from the storyguide's panel; Bob, a player, reads
    it as any player character's: it waits for alice, Marta's player."""
    start(table)  # Marta runs, the bandits chase
    campaign_services.make_storyguide(table.saga, table.alice, by=table.storyguide)
    services.hand_over_seat(table.storyguide, table.encounter.pk, table.v, "alice", "Alice runs the chase")
    offer = d6_services.offer_terrain(table.alice, table.encounter.pk, table.v, [("The river", "Swimming")])
    assert offer["chooser"] == "alice"  # Marta's player, whoever holds the seat
    url = reverse("d6:table", args=[table.encounter.pk])
    hers = client_for(table.alice).get(url).content.decode()
    assert "Marta is yours, your own character: choose for them." in hers
    form = re.search(r'<form[^>]*data-testid="choose-terrain-form">.*?</form>', hers, re.S).group(0)
    assert "disabled" not in form
    bobs = client_for(table.bob).get(url).content.decode()
    assert re.search(r"Waiting for alice to choose;", bobs) and "choose for them" not in bobs
    with pytest.raises(NotAllowed):  # the storyguide before chooses no more for her
        d6_services.choose_terrain(table.storyguide, table.encounter.pk, table.v, "The river")
    d6_services.choose_terrain(table.alice, table.encounter.pk, table.v, "The river")
    assert Chase.objects.get().stretches[-1]["name"] == "The river"
