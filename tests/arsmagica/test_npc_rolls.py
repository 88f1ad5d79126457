"""What players see of an NPC's rolls, at each of the saga's settings, in every place they read the log:
the pushed frame, the resume replay, the encounter page, the history page and the export (ArM3 p163-p177).
The round is p168's: Sir Boris (Alice's) against three bandits, through the Fatigue phase."""

import pytest

from arsmagica.events import Kind
from campaign.models import NpcRolls
from combat import systems
from combat.audience import PLAYERS, STORYGUIDE
from combat.models import Event
from tests.audience_places import encounter_page, exported, history_page, line_of, pushed, replayed

from .test_services import resolve, through_movement


def players_payload(event, own, players, npc_rolls):
    """What players see of an Ars Magica event: its kind's version (`arsmagica.events`)."""
    return systems.get("arsmagica").log.players_payload(event, own, players, npc_rolls)


pytestmark = pytest.mark.django_db

PHASES = ("first_missile", "melee", "second_missile", "magic", "fatigue")
DICE = 'class="roll'
SCREEN = "(behind the screen)"


@pytest.fixture
def round_one(table, scripted_dice):
    through_movement(table, scripted_dice)
    for phase in PHASES:
        resolve(table, phase)
    return table


def at(table, npc_rolls):
    table.saga.npc_rolls = npc_rolls
    table.saga.save()
    return table.refresh()


def event(table, kind, **payload):
    """The one event of the kind whose payload holds these values."""
    events = Event.objects.filter(encounter=table.encounter, kind=kind)
    (found,) = [e for e in events if all(e.payload.get(k) == v for k, v in payload.items())]
    return found


def bandits_entries(table):
    """Bandit 1's attack on Sir Boris, Bandit 1's Fatigue roll, Sir Boris's, and the Movement event."""
    ids = table.ids()
    return (
        event(table, Kind.ATTACK, attacker=ids["bandit1"], defender=ids["boris"]),
        event(table, Kind.FATIGUE_ROLL, combatant=ids["bandit1"]),
        event(table, Kind.FATIGUE_ROLL, combatant=ids["boris"]),
        event(table, Kind.MOVEMENT),
    )


def html_places(table, audience):
    """The log's HTML in each place the audience reads it."""
    encounter = table.refresh()
    person = table.storyguide if audience == STORYGUIDE else table.alice
    return {
        "pushed frame": pushed(encounter, audience),
        "replay": replayed(encounter, audience),
        "encounter page": encounter_page(person, encounter),
        "history page": history_page(person, encounter),
    }


@pytest.mark.parametrize("npc_rolls", NpcRolls.values)
def test_players_see_an_npcs_rolls_as_the_saga_says_in_every_place(round_one, npc_rolls):
    encounter = at(round_one, npc_rolls)
    attack, bandit_fatigue, boris_fatigue, movement = bandits_entries(round_one)
    dice, totals = npc_rolls == NpcRolls.EVERYTHING, npc_rolls != NpcRolls.RESULTS
    for place, html in html_places(round_one, PLAYERS).items():
        fatigue_line = line_of(html, bandit_fatigue.seq)
        assert (DICE in fatigue_line) == dice, place
        assert (f"<b>{bandit_fatigue.payload['total']}</b>" in fatigue_line) == totals, place
        assert ("Fatigue level lost" in fatigue_line) == bool(bandit_fatigue.payload["levels_lost"]), place
        attack_line = line_of(html, attack.seq)
        assert attack_line.count(DICE) == (2 if dice else 1), place  # Sir Boris's Defense roll stays
        attack_total = f'data-testid="attack-total">{attack.payload["attack_total"]}<'
        assert (attack_total in attack_line) == totals, place
        assert 'data-testid="attack-result"' in attack_line, place
        assert (SCREEN in attack_line) != totals, place
        boris_line = line_of(html, boris_fatigue.seq)  # a player character's: everyone sees it whole
        assert DICE in boris_line and f"<b>{boris_fatigue.payload['total']}</b>" in boris_line, place
        movement_line = line_of(html, movement.seq)
        assert movement_line.count(DICE) == (4 if dice else 1), place
    rows = {row["combatant"]: row for row in exported_payload(round_one, Kind.MOVEMENT)["initiative"]}
    bandit1 = rows[round_one.ids()["bandit1"]]
    assert ("roll" in bandit1, "total" in bandit1) == (dice, totals)
    assert "roll" in rows[round_one.ids()["boris"]]
    assert encounter.saga.npc_rolls == npc_rolls


def exported_payload(table, kind, **payload):
    """The payload of the one event of the kind in Alice's export that holds these values."""
    events = exported(table.alice, table.encounter)
    (found,) = [
        e for e in events if e["kind"] == kind and all(e["payload"].get(k) == v for k, v in payload.items())
    ]
    return found["payload"]


def test_the_export_keeps_an_npcs_outcomes_only_by_default(round_one):
    ids = round_one.ids()
    attack = exported_payload(round_one, Kind.ATTACK, attacker=ids["bandit1"], defender=ids["boris"])
    assert set(attack) == {
        "phase",
        "attacker",
        "defender",
        "weapon",
        "range",
        "defense_total",
        "defense_parts",
        "defense_roll",
        "defense_with",
        "result",
        "applied_as",
        "soak",
        "body_levels_lost",
        "damage_prevented",
    }
    fatigue = exported_payload(round_one, Kind.FATIGUE_ROLL, combatant=ids["bandit1"])
    assert set(fatigue) == {"combatant", "kind", "botch", "levels_lost", "fatigue_level"}


def test_the_storyguide_sees_everything_at_every_setting(round_one):
    at(round_one, NpcRolls.RESULTS)
    attack, bandit_fatigue, _, movement = bandits_entries(round_one)
    for place, html in html_places(round_one, STORYGUIDE).items():
        assert line_of(html, attack.seq).count(DICE) == 2, place
        assert DICE in line_of(html, bandit_fatigue.seq), place
        assert line_of(html, movement.seq).count(DICE) == 4, place
    stored = {e.seq: e.payload for e in Event.objects.filter(encounter=round_one.encounter)}
    assert [e["payload"] for e in exported(round_one.storyguide, round_one.encounter)] == list(
        stored[seq] for seq in sorted(stored)
    )


SPELL = {
    "phase": "magic",
    "caster": "7",
    "kind": "spontaneous",
    "spell": "Pilum of Fire",
    "casting_speed": 2,
    "casting_total": 17,
    "parts": [["Creo", 8]],
    "roll": {"faces": [5], "botch_faces": [], "value": 5, "botches": 0},
    "fatigue_test": {
        "combatant": "7",
        "kind": "spell",
        "total": 6,
        "ease_factor": 9,
        "roll": {"faces": [2], "botch_faces": [], "value": 2, "botches": 0},
        "parts": [["Stamina", 1]],
        "botch": False,
        "levels_lost": 1,
        "fatigue_level": "winded",
    },
}


class Spell:
    kind = Kind.SPELL
    payload = SPELL


@pytest.mark.parametrize(
    "npc_rolls, kept",
    [
        (NpcRolls.RESULTS, {"phase", "caster", "kind", "spell", "fatigue_test"}),
        (NpcRolls.TOTALS, {"phase", "caster", "kind", "spell", "fatigue_test", "casting_total"}),
        (NpcRolls.EVERYTHING, set(SPELL)),
    ],
)
def test_an_npcs_spell_keeps_its_fatigue_lost_at_every_setting(npc_rolls, kept):
    shown = players_payload(Spell(), set(), set(), npc_rolls)
    assert set(shown) == kept
    assert shown["fatigue_test"]["levels_lost"] == 1 and shown["fatigue_test"]["fatigue_level"] == "winded"
    assert ("roll" in shown["fatigue_test"]) == (npc_rolls == NpcRolls.EVERYTHING)


def test_a_player_characters_spell_is_everyones():
    assert players_payload(Spell(), set(), {"7"}, NpcRolls.RESULTS) == SPELL
