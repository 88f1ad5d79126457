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
    assert "Where do you run?" in page and reverse("d6:choose_terrain", args=[table.encounter.pk]) in page
    combat_services.end_encounter(table.storyguide, table.encounter.pk, table.v)
    return table.refresh()


def page_of(table, user) -> str:
    client = Client()
    client.force_login(user)
    response = client.get(reverse("d6:table", args=[table.encounter.pk]))
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


# --- issue 35, item 6: an ended table names no next step ----------------------------------------------

# What a running d6 table says of what comes next: none of it may stay on an ended one.
NEXT_STEPS = re.compile(
    r"next: exchange|’s turn|The fight waits|Waiting for|has acted|▶ acting|data-waits"
    r"|Roll initiative|Start the chase"
)


def ended_mid_chase(table, dice):
    """Marta acts in the fight's first round; a chase starts and runs two exchanges; then the end."""
    start(table, dice)
    dice(4, 4, 4)
    services.roll(table.storyguide, table.encounter.pk, table.v, table.marta.pk, "attribute:dexterity")
    services.start_chase(
        table.storyguide, table.encounter.pk, table.v, table.marta.pk, [(table.bandits[0].pk, 2)], STREETS
    )
    dice(*[5] * 8)
    for _ in range(2):
        services.exchange(table.storyguide, table.encounter.pk, table.v)
    combat_services.end_encounter(table.storyguide, table.encounter.pk, table.v)
    return table.refresh()


def test_a_chase_ended_with_the_encounter_reads_as_stopped_on_every_page_and_frame(table, dice):
    """The evening's page said "next: exchange 3", "Round 1: Mara Flint's turn" and "The fight waits while
    the chase runs" after the end: each page and frame, both audiences, now says it is over and nothing
    more."""
    encounter = ended_mid_chase(table, dice)
    end = encounter.events.get(kind="encounter_ended")
    shown = {user.username: page_of(table, user) for user in (table.storyguide, table.alice)}
    for audience in ("players", "storyguide"):
        shown[audience] = render_frame(encounter, [end], audience, end.seq, end.seq)
    for who, html in shown.items():
        assert NEXT_STEPS.findall(html) == [], who
        assert 'data-testid="status-ended"' in html and 'data-outcome="stopped"' in html, who
        assert "The encounter is over: the fight stopped in round 1." in html, who
        assert "The encounter ended while the chase ran." in html, who


def test_the_replay_s_last_step_of_an_ended_chase_names_no_turn_and_no_running_chase(table, dice):
    encounter = ended_mid_chase(table, dice)
    client = Client()
    for user in (table.storyguide, table.alice):
        client.force_login(user)
        page = client.get(reverse("encounter_replay", args=[encounter.pk]), {"seq": encounter.last_seq})
        html = page.content.decode()
        step = html[html.index('data-testid="replay-table"') :]
        assert 'data-testid="replay-over"' in step and "(their turn)" not in step
        assert "exchange 2, stopped when the encounter ended" in step
        assert ">running<" not in step and "in the chase when it stopped" in step
    # One step before the end, the same table runs: whose turn it was, and the chase running.
    page = client.get(reverse("encounter_replay", args=[encounter.pk]), {"seq": encounter.last_seq - 1})
    step = page.content.decode()
    assert "(their turn)" in step and "exchange 2, running" in step
    assert 'data-testid="replay-over"' not in step
