"""An ended encounter takes no command but the archive's, its pages offer none, and its closing line
counts the rounds that were played (issue 29, bug 1: "Same as last round" logged a declaration after
"The encounter is over after 4 rounds", which counted the round never played)."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from arsmagica import services
from combat.errors import WrongPhase
from combat.live import render_frame
from combat.models import Encounter, Event
from combat.services import setup
from tests.personas import login

from .test_services import resolve, through_movement

pytestmark = pytest.mark.django_db

ROUND = ("first_missile", "melee", "second_missile", "magic", "fatigue")


def ended_in_round_two(table, scripted_dice) -> Encounter:
    """Round 1 played whole, round 2's declarations open (Sir Boris declared), then the end."""
    through_movement(table, scripted_dice)
    for phase in ROUND:
        resolve(table, phase)
    services.end_round(table.storyguide, table.encounter.pk, table.v)
    services.declare_as_before(table.alice, table.encounter.pk, table.boris.pk, None)
    services.end_encounter(table.storyguide, table.encounter.pk, table.v)
    return table.refresh()


def closing_line(encounter) -> dict:
    return encounter.events.get(kind="encounter_ended").payload


def test_ending_with_declarations_open_counts_only_the_rounds_played(table, scripted_dice):
    encounter = ended_in_round_two(table, scripted_dice)
    assert encounter.round_number == 2 and closing_line(encounter) == {"rounds": 1}


def test_a_round_with_initiative_rolled_and_no_phase_confirmed_is_not_counted(table, scripted_dice):
    through_movement(table, scripted_dice)  # First Missile passes by itself: nobody shoots
    services.preview_phase(table.storyguide, table.encounter.pk, table.v, "melee")
    services.end_encounter(table.storyguide, table.encounter.pk, table.v)
    assert closing_line(table.refresh()) == {"rounds": 0}


def test_a_round_with_a_phase_confirmed_is_counted(table, scripted_dice):
    through_movement(table, scripted_dice)
    resolve(table, "first_missile")
    resolve(table, "melee")
    services.end_encounter(table.storyguide, table.encounter.pk, table.v)
    encounter = table.refresh()
    assert closing_line(encounter) == {"rounds": 1}
    page = login(Client(), table.storyguide).get(reverse("encounter_page", args=[encounter.pk]))
    assert "<b>The encounter is over</b> after 1 round." in page.content.decode()


def test_an_old_closing_line_still_reads(table):
    """A log written before the count changed keeps its payload and its words."""
    services.end_encounter(table.storyguide, table.encounter.pk, table.v)
    Event.objects.filter(kind="encounter_ended").update(payload={"rounds": 4})
    page = login(Client(), table.storyguide).get(reverse("saga_history", args=[table.saga.pk]))
    assert "<b>The encounter is over</b> after 4 rounds." in page.content.decode()


def refused_and_nothing_written(table, command) -> None:
    encounter = table.refresh()
    before = (encounter.version, encounter.last_seq, Event.objects.count())
    with pytest.raises(WrongPhase, match="This encounter is over."):
        command()
    encounter = table.refresh()
    assert (encounter.version, encounter.last_seq, Event.objects.count()) == before


def test_after_the_end_every_command_of_the_round_is_refused_and_writes_nothing(table, scripted_dice):
    encounter = ended_in_round_two(table, scripted_dice)
    assert encounter.phase == "declaring"  # the round stood at declarations when it ended
    sg, pk, v = table.storyguide, encounter.pk, encounter.version
    boris = {"action": "attack", "weapon_id": table.weapon(table.boris), "engage": [table.bandits[0].pk]}
    commands = [
        lambda: services.declare(table.alice, pk, table.boris.pk, boris),
        lambda: services.declare_as_before(table.alice, pk, table.boris.pk, None),
        lambda: services.declare_as_before(table.storyguide, pk, table.bandits[0].pk, v),
        lambda: services.declare_npcs_as_before(sg, pk, v),
        lambda: services.open_declarations(sg, pk, v),
        lambda: services.close_declarations(sg, pk, v),
        lambda: services.preview_phase(sg, pk, v, "first_missile"),
        lambda: services.confirm_phase(sg, pk, v, "first_missile"),
        lambda: services.undo_phase(sg, pk, v, "a wrong die"),
        lambda: services.end_round(sg, pk, v),
        lambda: services.correct(sg, pk, v, table.boris.pk, {"body_level": "hurt"}, "a scratch"),
        lambda: services.pass_time(sg, 10, encounter_id=pk, expected_version=v),
        lambda: services.sleep_night(sg, encounter_id=pk, expected_version=v),
        lambda: services.record_exertion(sg, table.boris_character.pk, 1, "a march", encounter_id=pk),
        lambda: services.add_combatants(sg, pk, v, [table.bandit_characters[0].pk], "Bandits"),
        lambda: services.remove_combatant(sg, pk, v, table.bandits[2].pk),
        lambda: services.end_encounter(sg, pk, v),
    ]
    for command in commands:
        refused_and_nothing_written(table, command)
    assert list(encounter.events.order_by("seq").values_list("kind", flat=True))[-1] == "encounter_ended"


def test_the_archive_still_renames_archives_restores_and_deletes_an_ended_encounter(table):
    sg, pk = table.storyguide, table.encounter.pk
    services.end_encounter(sg, pk, table.v)
    setup.rename_encounter(sg, pk, "The forest road, remembered")
    setup.set_encounter_archived(sg, pk, True)
    assert table.refresh().archived_at is not None
    setup.set_encounter_archived(sg, pk, False)
    encounter = table.refresh()
    assert encounter.name == "The forest road, remembered" and encounter.archived_at is None
    assert setup.delete_encounter(sg, pk, encounter.name)
    assert not Encounter.objects.filter(pk=pk).exists()


# --- the pages --------------------------------------------------------------------------------------


def offered(html: str) -> list[str]:
    """The commands a page or frame offers: every form or button that posts."""
    return re.findall(r'hx-post="([^"]+)"', html)


def test_while_declarations_are_open_the_pages_offer_them(client, table, scripted_dice):
    """The other side of the checks below: the same pages offer the round's commands while it is open."""
    through_movement(table, scripted_dice)
    for phase in ROUND:
        resolve(table, phase)
    services.end_round(table.storyguide, table.encounter.pk, table.v)
    pk, boris = table.encounter.pk, table.boris.pk
    panel = login(Client(), table.alice).get(reverse("arsmagica:my_declarations", args=[pk])).content.decode()
    assert {
        reverse("arsmagica:declare", args=[pk, boris]),
        reverse("arsmagica:declare_as_before", args=[pk, boris]),
    } <= set(offered(panel))
    page = login(client, table.storyguide).get(reverse("encounter_page", args=[pk])).content.decode()
    commands = (
        "arsmagica:declare_npcs_as_before",
        "arsmagica:close_declarations",
        "end_encounter",
        "arsmagica:pass_time",
        "arsmagica:correct",
    )
    assert {reverse(name, args=[pk]) for name in commands} <= set(offered(page))


def test_after_the_end_no_page_offers_a_declaration_or_any_command(client, table, scripted_dice):
    encounter = ended_in_round_two(table, scripted_dice)
    player = login(Client(), table.alice)
    panel = player.get(reverse("arsmagica:my_declarations", args=[encounter.pk])).content.decode()
    assert offered(panel) == [] and "The encounter is over." in panel
    play = player.get(reverse("arsmagica:play", args=[encounter.pk])).content.decode()
    assert offered(play) == [] and 'data-status="ended"' in play
    control = login(client, table.storyguide).get(reverse("encounter_page", args=[encounter.pk]))
    html = control.content.decode()
    assert offered(html) == [] and "The encounter is over." in html


def test_the_end_s_frame_replaces_the_panels_that_offered_commands(table, scripted_dice):
    encounter = ended_in_round_two(table, scripted_dice)
    end = encounter.events.get(kind="encounter_ended")
    storyguide = render_frame(encounter, [end], "storyguide", end.seq, end.seq)
    for panel in ('id="sg-controls"', 'id="my-declarations"', 'id="declaration-status"', 'id="time-panel"'):
        assert panel in storyguide
    assert offered(storyguide) == [] and "The encounter is over." in storyguide
    players = render_frame(encounter, [end], "players", end.seq, end.seq)
    # The status bar's status changes, so each player's own declarations fetch themselves again (live.js).
    assert 'data-status="ended"' in players and offered(players) == []


# --- issue 35, item 6: an ended table names no next step ----------------------------------------------

# What a running Ars Magica table says of what comes next: none of it may stay on an ended one.
NEXT_STEPS = re.compile(
    r"Initiative is rolled when|Close declarations|Start round|Roll (First|Melee|Second|Magic|Fatigue)"
    r"|End round|not declared yet|data-waits|is rolling|Keys \(not while typing"
)


def ended_pages(table, encounter) -> dict[str, str]:
    """Every page and frame of the ended encounter, by who reads it."""
    end = encounter.events.get(kind="encounter_ended")
    shown = {}
    for user in (table.storyguide, table.alice):
        client = login(Client(), user)
        shown[user.username] = client.get(reverse("encounter_page", args=[encounter.pk]), follow=True)
        shown[f"{user.username}'s declarations"] = client.get(
            reverse("arsmagica:my_declarations", args=[encounter.pk])
        )
    shown = {who: answer.content.decode() for who, answer in shown.items()}
    for audience in ("players", "storyguide"):
        shown[audience] = render_frame(encounter, [end], audience, end.seq, end.seq)
    return shown


@pytest.mark.parametrize("when", ["setting up", "declarations open", "a phase rolled"])
def test_an_ended_encounter_names_no_next_step_on_any_page_or_frame(table, scripted_dice, when):
    """The evening's page said "Initiative is rolled when the storyguide closes declarations." after the
    end: each page and frame, both audiences, now says it is over and nothing more."""
    if when == "declarations open":
        ended_in_round_two(table, scripted_dice)
    else:
        if when == "a phase rolled":
            through_movement(table, scripted_dice)
            services.preview_phase(table.storyguide, table.encounter.pk, table.v, "melee")
        services.end_encounter(table.storyguide, table.encounter.pk, table.v)
    encounter = table.refresh()
    for who, html in ended_pages(table, encounter).items():
        assert NEXT_STEPS.findall(html) == [], who
        assert "The encounter is over" in html, who


def test_the_replay_s_last_step_says_the_encounter_is_over_not_where_the_round_stood(table, scripted_dice):
    encounter = ended_in_round_two(table, scripted_dice)
    client = login(Client(), table.alice)
    last = client.get(reverse("encounter_replay", args=[encounter.pk]), {"seq": encounter.last_seq})
    step = last.content.decode()
    step = step[step.index('data-testid="replay-table"') :]
    assert re.search(r"Round 2 · <span data-testid=\"replay-over\">Encounter over</span>", step)
    before = client.get(reverse("encounter_replay", args=[encounter.pk]), {"seq": encounter.last_seq - 1})
    assert "Round 2 · <span>Declarations</span>" in before.content.decode()
