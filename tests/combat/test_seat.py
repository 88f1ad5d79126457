"""An encounter's storyguide's seat (issue 38, item 2): whoever makes the encounter holds it; the holder or
the saga's lead hands it to another of the saga's storyguides, with a reason, logged for everyone; from
that event on the new holder has its controls and the storyguide's version of it, and the one before sees
the players'. On the coin duel: Bob is made one of the saga's storyguides."""

import pytest
from django.urls import reverse

from campaign import services as campaign_services
from combat import services
from combat.access import holds_seat
from combat.audience import PLAYERS, STORYGUIDE, audience_for
from combat.errors import InvalidCommand, NotAllowed, StaleCommand, WrongPhase
from combat.views import visible_log
from tests.coinduel import KEY
from tests.personas import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def troupe(table):
    """The duel's saga with Bob one of its storyguides (the storyguide its lead, holding the duel's seat)."""
    campaign_services.make_storyguide(table.saga, table.bob, by=table.storyguide)
    return table


def hand_over(table, by, to, reason="Bob runs the ambush"):
    return services.hand_over_seat(by, table.encounter.pk, table.v, to.get_username(), reason)


def flip(client, table):
    url = reverse("coinduel:flip", args=[table.encounter.pk])
    return client.post(url, {"expected_version": table.v}, HTTP_HX_REQUEST="true")


def test_whoever_makes_the_encounter_holds_its_seat(troupe):
    assert holds_seat(troupe.storyguide, troupe.encounter)
    made = services.create_encounter(troupe.bob, troupe.saga.pk, "Bob's ambush", KEY)
    assert made.seat_holder == troupe.bob and not holds_seat(troupe.storyguide, made)
    assert audience_for(troupe.bob, made) == STORYGUIDE and audience_for(troupe.storyguide, made) == PLAYERS
    with pytest.raises(NotAllowed):
        services.create_encounter(troupe.alice, troupe.saga.pk, "Alice's", KEY)


def test_the_holder_hands_the_seat_over_and_everyone_sees_it(troupe):
    hand_over(troupe, troupe.storyguide, troupe.bob)
    encounter = troupe.refresh()
    assert encounter.seat_holder == troupe.bob
    event = encounter.events.latest("seq")
    assert event.kind == "seat_handed_over" and not event.storyguide_only and event.actor == troupe.storyguide
    assert event.payload == {"by": "sg", "was": "sg", "to": "bob", "reason": "Bob runs the ambush"}
    encounter = type(encounter).objects.select_related("saga").get(pk=encounter.pk)
    for audience in (PLAYERS, STORYGUIDE):
        assert visible_log(encounter, audience)[-1].kind == "seat_handed_over"
    page = client_for(troupe.alice).get(reverse("encounter_page", args=[encounter.pk]), follow=True)
    line = "<b>bob</b> takes the storyguide’s seat from <b>sg</b>: Bob runs the ambush"
    assert line in page.content.decode()
    assert audience_for(troupe.bob, encounter) == STORYGUIDE
    assert audience_for(troupe.storyguide, encounter) == PLAYERS == audience_for(troupe.alice, encounter)


def test_from_the_hand_over_on_the_controls_are_the_new_holders(troupe):
    sg, bob = client_for(troupe.storyguide), client_for(troupe.bob)
    refused = flip(bob, troupe)
    assert refused.status_code == 422 and b"sg holds this encounter" in refused.content
    hand_over(troupe, troupe.storyguide, troupe.bob)
    refused = flip(sg, troupe)
    assert refused.status_code == 422 and b"bob holds this encounter" in refused.content
    assert flip(bob, troupe).status_code == 200
    assert troupe.encounter.events.latest("seq").kind == "coin_flip"
    refused = flip(client_for(troupe.alice), troupe)
    assert refused.status_code == 422 and b"Only the storyguide can do that." in refused.content


def test_the_pages_follow_the_seat(troupe):
    url = reverse("encounter_page", args=[troupe.encounter.pk])
    flip_form = f'hx-post="{reverse("coinduel:flip", args=[troupe.encounter.pk])}"'
    assert flip_form in client_for(troupe.storyguide).get(url).content.decode()
    assert flip_form not in client_for(troupe.bob).get(url, follow=True).content.decode()
    hand_over(troupe, troupe.storyguide, troupe.bob)
    assert flip_form in client_for(troupe.bob).get(url).content.decode()
    assert flip_form not in client_for(troupe.storyguide).get(url, follow=True).content.decode()


def test_the_lead_hands_over_a_seat_they_do_not_hold(troupe):
    made = services.create_encounter(troupe.bob, troupe.saga.pk, "Bob's ambush", KEY)
    services.hand_over_seat(troupe.storyguide, made.pk, made.version, "sg", "Bob is away tonight")
    made.refresh_from_db()
    assert made.seat_holder == troupe.storyguide
    payload = made.events.latest("seq").payload
    assert payload["by"] == "sg" and payload["was"] == "bob"


def test_a_storyguide_without_the_seat_who_is_not_the_lead_cannot_hand_it_over(troupe):
    hand_over(troupe, troupe.storyguide, troupe.bob)
    campaign_services.make_storyguide(troupe.saga, troupe.alice, by=troupe.storyguide)
    with pytest.raises(NotAllowed, match="holds this seat"):
        hand_over(troupe, troupe.alice, troupe.alice)
    with pytest.raises(NotAllowed):
        hand_over(troupe, troupe.outsider, troupe.storyguide)


def test_a_hand_over_that_may_not_happen_writes_nothing(troupe):
    version = troupe.v
    with pytest.raises(InvalidCommand, match="one of the saga's storyguides"):
        hand_over(troupe, troupe.storyguide, troupe.alice)  # a player
    with pytest.raises(InvalidCommand, match="one of the saga's storyguides"):
        hand_over(troupe, troupe.storyguide, troupe.outsider)
    with pytest.raises(InvalidCommand, match="already"):
        hand_over(troupe, troupe.storyguide, troupe.storyguide)
    with pytest.raises(InvalidCommand, match="Say why"):
        hand_over(troupe, troupe.storyguide, troupe.bob, reason="  ")
    with pytest.raises(InvalidCommand, match="at most 200"):
        hand_over(troupe, troupe.storyguide, troupe.bob, reason="x" * 201)
    with pytest.raises(StaleCommand):
        services.hand_over_seat(troupe.storyguide, troupe.encounter.pk, version - 1, "bob", "late")
    with pytest.raises(NotAllowed):
        services.hand_over_seat(troupe.storyguide, 0, version, "bob", "no such encounter")
    assert troupe.v == version and troupe.refresh().seat_holder == troupe.storyguide


def test_an_ended_encounters_seat_stays_with_who_ran_it(troupe):
    services.end_encounter(troupe.storyguide, troupe.encounter.pk, troupe.v)
    with pytest.raises(WrongPhase):
        hand_over(troupe, troupe.storyguide, troupe.bob)
    assert troupe.refresh().seat_holder == troupe.storyguide
