"""The storyguide's options are part of the record (issue 31, item 7): each attack, spell and Fatigue roll a
modifier, botch dice, an ease factor or hit-or-advantage changed keeps which option changed whose roll, and
its line says so wherever the log is read, an NPC's modifier and ease factor as behind the screen where the
saga keeps its scores from players. Before, a +3 applied in a preview showed nowhere once confirmed.

The round is p168's: Sir Boris (Alice's) against three bandits."""

import pytest
from django.test import Client
from django.urls import reverse

from arsmagica import presenters
from arsmagica.events import Kind
from campaign.models import NpcRolls
from combat.audience import PLAYERS, STORYGUIDE
from combat.models import Event
from tests.audience_places import line_of

from .test_npc_rolls import at, html_places
from .test_services import resolve, through_movement

pytestmark = pytest.mark.django_db

SET = 'data-testid="storyguide-options">(set by the storyguide: '


@pytest.fixture
def chosen(table, scripted_dice):
    """Melee confirmed with Sir Boris +3, Bandit 1 +2 and three botch dice for Bandit 2; Fatigue with Sir
    Boris's ease factor at 9 and Bandit 3's left at the 6 the form sends anyway."""
    through_movement(table, scripted_dice)
    ids = table.ids()
    resolve(table, "first_missile")
    melee = {"modifiers": {ids["boris"]: "3", ids["bandit1"]: "2"}, "botch_dice": {ids["bandit2"]: "3"}}
    resolve(table, "melee", melee)
    for phase in ("second_missile", "magic"):
        resolve(table, phase)
    resolve(table, "fatigue", {"ease_factors": {ids["boris"]: "9", ids["bandit3"]: "6"}})
    return table


def entry(table, kind, **payload):
    """The one event of the kind whose payload holds these values."""
    events = Event.objects.filter(encounter=table.encounter, kind=kind)
    (found,) = [e for e in events if all(e.payload.get(k) == v for k, v in payload.items())]
    return found


def set_on(line: str) -> str:
    """The line's words after "(set by the storyguide: ", or "" when it has none."""
    return line.split(SET, 1)[1].split(")</span>", 1)[0] if SET in line else ""


def test_each_roll_keeps_the_options_that_changed_it(chosen):
    ids = chosen.ids()
    boris_on_1 = entry(chosen, Kind.ATTACK, attacker=ids["boris"], defender=ids["bandit1"])
    assert boris_on_1.payload["storyguide_options"] == [
        {"combatant": ids["boris"], "option": "modifier", "value": 3},
        {"combatant": ids["bandit1"], "option": "modifier", "value": 2},
    ]
    assert boris_on_1.actor == chosen.storyguide  # who set them: the storyguide confirmed the phase
    two_on_boris = entry(chosen, Kind.ATTACK, attacker=ids["bandit2"], defender=ids["boris"])
    assert two_on_boris.payload["storyguide_options"] == [
        {"combatant": ids["bandit2"], "option": "botch_dice", "value": 3},
        {"combatant": ids["boris"], "option": "modifier", "value": 3},
    ]
    fatigue = entry(chosen, Kind.FATIGUE_ROLL, combatant=ids["boris"])
    boris_ease = {"combatant": ids["boris"], "option": "ease_factor", "value": 9}
    assert fatigue.payload["storyguide_options"] == [boris_ease]
    # Left as the round would have it (the default ease factor the form sends): nothing is said.
    assert "storyguide_options" not in entry(chosen, Kind.FATIGUE_ROLL, combatant=ids["bandit3"]).payload


def test_the_storyguide_reads_every_option_on_its_line_everywhere(chosen):
    ids = chosen.ids()
    boris_on_1 = entry(chosen, Kind.ATTACK, attacker=ids["boris"], defender=ids["bandit1"])
    fatigue = entry(chosen, Kind.FATIGUE_ROLL, combatant=ids["boris"])
    for place, html in html_places(chosen, STORYGUIDE).items():
        assert set_on(line_of(html, boris_on_1.seq)) == "Sir Boris +3; Bandit 1 +2", place
        assert set_on(line_of(html, fatigue.seq)) == "Sir Boris ease factor 9", place


@pytest.mark.parametrize("npc_rolls", NpcRolls.values)
def test_players_read_a_player_characters_options_and_an_npcs_as_the_saga_says(chosen, npc_rolls):
    at(chosen, npc_rolls)
    ids = chosen.ids()
    boris_on_1 = entry(chosen, Kind.ATTACK, attacker=ids["boris"], defender=ids["bandit1"])
    two_on_boris = entry(chosen, Kind.ATTACK, attacker=ids["bandit2"], defender=ids["boris"])
    screened = npc_rolls != NpcRolls.EVERYTHING  # an NPC's modifier is a score, as the totals' parts are
    bandit1 = "Bandit 1 a modifier behind the screen" if screened else "Bandit 1 +2"
    for place, html in html_places(chosen, PLAYERS).items():
        assert set_on(line_of(html, boris_on_1.seq)) == f"Sir Boris +3; {bandit1}", place
        assert set_on(line_of(html, two_on_boris.seq)) == "Bandit 2 3 botch dice; Sir Boris +3", place


def test_the_recap_says_it_too(chosen):
    at(chosen, NpcRolls.RESULTS)
    client = Client()
    screened = "Bandit 1 a modifier behind the screen"
    for person, bandit1 in ((chosen.storyguide, "Bandit 1 +2"), (chosen.alice, screened)):
        client.force_login(person)
        response = client.get(reverse("saga_recap", args=[chosen.saga.pk]))
        recap = b"".join(response.streaming_content).decode()
        assert f"(set by the storyguide: Sir Boris +3; {bandit1})" in recap, person


def test_hit_or_advantage_switched_from_the_declaration_is_said(table, scripted_dice):
    """Sir Boris declared a hit; the storyguide takes his success on Bandit 1 as advantage (ArM3 p168)."""
    through_movement(table, scripted_dice)
    ids = table.ids()
    resolve(table, "first_missile")
    switched = {f"{ids['boris']}:{ids['bandit1']}": "advantage_attack"}
    resolve(table, "melee", {"on_success": {**switched, f"{ids['boris']}:{ids['bandit2']}": "hit"}})
    attack = entry(table, Kind.ATTACK, attacker=ids["boris"], defender=ids["bandit1"])
    assert attack.payload["result"] == "advantage"
    assert attack.payload["storyguide_options"] == [
        {"combatant": ids["boris"], "option": "on_success", "value": "advantage_attack"}
    ]
    # A hit as declared, sent back by the form as it is: nothing is said.
    assert (
        "storyguide_options"
        not in entry(table, Kind.ATTACK, attacker=ids["boris"], defender=ids["bandit2"]).payload
    )
    html = html_places(table, PLAYERS)["history page"]
    assert set_on(line_of(html, attack.seq)) == "Sir Boris success taken as Attack advantage"


def test_the_words_of_each_option():
    names = {"1": "Sir Boris", "2": "Bandit 1"}
    chosen = [
        {"combatant": "1", "option": "botch_dice", "value": 0},
        {"combatant": "1", "option": "called", "value": True},
        {"combatant": "2", "option": "ease_factor"},  # its value behind the screen
        {"combatant": "2", "option": "on_success", "value": "advantage_defense"},
        {"combatant": "2", "option": "modifier", "value": -2},
    ]
    assert presenters.chosen_words(chosen, names) == (
        "Sir Boris no botch dice, roll called; Bandit 1 an ease factor behind the screen,"
        " success taken as Defense advantage, -2"
    )
