"""An ended d6 encounter takes no command but the archive's, its pages offer none (issue 29, bug 9: the
runner's phone still showed "Where do you run?" with its button enabled), and its closing line counts
the rounds that were played."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from combat import services as combat_services
from combat.errors import WrongPhase
from combat.live import render_frame
from combat.models import Event
from d6 import services

from .test_fight import INITIATIVE, start

pytestmark = pytest.mark.django_db

STREETS = [("Market streets", "Running"), ("The river", "Swimming")]


def offered(html: str) -> list[str]:
    """The commands a page or frame offers: every form or button that posts."""
    return re.findall(r'hx-post="([^"]+)"', html)


def choice_offered_then_ended(table):
    """Marta (Alice's) runs from Bandit 1; the river is offered to her; the storyguide ends the encounter."""
    services.start_chase(
        table.storyguide, table.encounter.pk, table.v, table.marta.pk, [(table.bandits[0].pk, 2)], STREETS
    )
    services.offer_terrain(table.storyguide, table.encounter.pk, table.v, [("The river", "Swimming")])
    page = page_of(table, table.alice)
    assert "Where do you run?" in page and reverse("d6_choose_terrain", args=[table.encounter.pk]) in page
    combat_services.end_encounter(table.storyguide, table.encounter.pk, table.v)
    return table.refresh()


def page_of(table, user) -> str:
    client = Client()
    client.force_login(user)
    response = client.get(reverse("d6_table", args=[table.encounter.pk]))
    assert response.status_code == 200
    return response.content.decode()


def test_after_the_end_the_runner_is_offered_no_choice_of_terrain(table):
    encounter = choice_offered_then_ended(table)
    for user in (table.alice, table.storyguide):
        page = page_of(table, user)
        assert "Where do you run?" not in page and "Waiting for" not in page
        assert offered(page) == [] and 'data-status="ended"' in page
    end = encounter.events.get(kind="encounter_ended")
    for audience in ("players", "storyguide"):
        frame = render_frame(encounter, [end], audience, end.seq, end.seq)
        assert 'id="d6-chase"' in frame and "Where do you run?" not in frame and offered(frame) == []


def test_after_the_end_every_d6_command_is_refused_and_writes_nothing(table, dice):
    start(table, dice)
    dice(4, 4, 4)
    services.roll(table.storyguide, table.encounter.pk, table.v, table.marta.pk, "attribute:dexterity")
    combat_services.end_encounter(table.storyguide, table.encounter.pk, table.v)
    encounter = table.refresh()
    sg, pk, v, marta = table.storyguide, encounter.pk, encounter.version, table.marta.pk
    commands = [
        lambda: services.start_fight(sg, pk, v),
        lambda: services.roll(table.alice, pk, v, marta, "attribute:dexterity"),
        lambda: services.cluster_attack(sg, pk, v, marta, "attribute:dexterity", [table.bandits[0].pk]),
        lambda: services.set_challenge_value(sg, pk, v, 5),
        lambda: services.take_breather(sg, pk, v),
        lambda: services.end_turn(sg, pk, v),
        lambda: services.start_chase(sg, pk, v, marta, [(table.bandits[0].pk, 2)], STREETS),
        lambda: services.exchange(sg, pk, v),
        lambda: services.offer_terrain(sg, pk, v, [("The river", "Swimming")]),
        lambda: services.choose_terrain(table.alice, pk, v, "The river"),
        lambda: services.runner_breather(sg, pk, v, marta),
        lambda: services.enter_faces(table.alice, pk, 1, marta, "4 6"),
        lambda: services.choose_at_target(sg, pk, 1, table.bandits[0].pk, True),
        lambda: combat_services.add_combatants(sg, pk, v, [table.bandit_characters[0].pk], "Bandits"),
        lambda: combat_services.remove_combatant(sg, pk, v, table.bandits[1].pk),
        lambda: combat_services.end_encounter(sg, pk, v),
    ]
    before = (encounter.version, encounter.last_seq, Event.objects.count())
    for command in commands:
        with pytest.raises(WrongPhase, match="This encounter is over."):
            command()
        encounter = table.refresh()
        assert (encounter.version, encounter.last_seq, Event.objects.count()) == before


def test_the_closing_line_counts_a_round_only_once_someone_acted_in_it(table, dice):
    start(table, dice)
    dice(4, 4, 4)
    services.roll(table.storyguide, table.encounter.pk, table.v, table.marta.pk, "attribute:dexterity")
    for _ in range(4):  # everyone's turn passes: round 2 begins, and nobody acts in it
        services.end_turn(table.storyguide, table.encounter.pk, table.v)
    assert table.refresh().round_number == 2
    combat_services.end_encounter(table.storyguide, table.encounter.pk, table.v)
    assert table.refresh().events.get(kind="encounter_ended").payload == {"rounds": 1}


def test_a_fight_ended_after_initiative_played_no_round(table, dice):
    dice(*INITIATIVE)
    services.start_fight(table.storyguide, table.encounter.pk, table.v)
    combat_services.end_encounter(table.storyguide, table.encounter.pk, table.v)
    assert table.refresh().events.get(kind="encounter_ended").payload == {"rounds": 0}


def test_a_breather_plays_the_round(table, dice):
    start(table, dice)
    services.take_breather(table.storyguide, table.encounter.pk, table.v)
    combat_services.end_encounter(table.storyguide, table.encounter.pk, table.v)
    assert table.refresh().events.get(kind="encounter_ended").payload == {"rounds": 1}
