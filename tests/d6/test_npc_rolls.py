"""What players see of an NPC's d6 challenges, at each of the saga's settings, in every place they read the
log: the pushed frame, the resume replay, the table page, the history page and the export (d6 seed)."""

import pytest

from campaign.models import NpcRolls
from combat.audience import PLAYERS, STORYGUIDE
from combat.models import Event
from d6 import events, kinds, presenters, services
from tests.audience_places import encounter_page, exported, history_page, line_of, pushed, replayed

from .test_fight import INITIATIVE

pytestmark = pytest.mark.django_db

FACES = 'data-testid="faces"'
STREETS = [("Market streets", "Running"), ("The river", "Swimming")]


@pytest.fixture
def fight(table, dice):
    """Marta attacks Bandit 2, who defends against a value of 8 with a 3 and a 5."""
    dice(*INITIATIVE)
    services.start_fight(table.storyguide, table.encounter.pk, table.v)
    dice(2, 7, 3)
    services.roll(
        table.storyguide,
        table.encounter.pk,
        table.v,
        table.marta.pk,
        "attribute:dexterity",
        value=6,
        target_id=table.bandits[1].pk,
    )
    services.set_challenge_value(table.storyguide, table.encounter.pk, table.v, 8)
    dice(3, 5)
    services.roll(table.storyguide, table.encounter.pk, table.v, table.bandits[1].pk, "attribute:dexterity")
    return table


@pytest.fixture
def chase(table, dice):
    """Bandit 1 chases Marta two squares behind: she rolls 6, he rolls 10 and closes to 1."""
    services.start_chase(
        table.storyguide, table.encounter.pk, table.v, table.marta.pk, [(table.bandits[0].pk, 2)], STREETS
    )
    dice(4, 6, 5, 0)
    services.exchange(table.storyguide, table.encounter.pk, table.v)
    return table


def places(table, audience):
    """The log's HTML in each place the audience reads it."""
    encounter = table.refresh()
    person = table.storyguide if audience == STORYGUIDE else table.alice
    return {
        "pushed frame": pushed(encounter, audience),
        "replay": replayed(encounter, audience),
        "table page": encounter_page(person, encounter),
        "history page": history_page(person, encounter),
    }


def entry(table, kind, **payload):
    (found,) = [
        e
        for e in Event.objects.filter(encounter=table.encounter, kind=kind)
        if all(e.payload.get(k) == v for k, v in payload.items())
    ]
    return found


def exported_entry(table, user, kind, **payload):
    (found,) = [
        e["payload"]
        for e in exported(user, table.encounter)
        if e["kind"] == kind and all(e["payload"].get(k) == v for k, v in payload.items())
    ]
    return found


@pytest.mark.parametrize("npc_rolls", NpcRolls.values)
def test_an_npcs_fight_challenges_as_the_saga_says(fight, npc_rolls):
    fight.with_npc_rolls(npc_rolls)
    dice, totals = npc_rolls == NpcRolls.EVERYTHING, npc_rolls != NpcRolls.RESULTS
    bandit, marta = str(fight.bandits[1].pk), str(fight.marta.pk)
    defence, attack = entry(fight, kinds.ROLL, combatant=bandit), entry(fight, kinds.ROLL, combatant=marta)
    started = entry(fight, kinds.FIGHT_STARTED)
    for place, html in places(fight, PLAYERS).items():
        line = line_of(html, defence.seq)
        assert (FACES in line, "result <b" in line) == (dice, totals), place
        assert "the attack is stopped" in line or "the attack lands" in line, place
        assert FACES in line_of(html, attack.seq), place  # Marta's, everyone's
        assert line_of(html, started.seq).count(FACES) == (4 if dice else 2), place
    shown = exported_entry(fight, fight.alice, kinds.ROLL, combatant=bandit)
    assert ("faces" in shown, "result" in shown, "consistency" in shown) == (dice, totals, dice)
    assert shown["success"] == defence.payload["success"]
    assert exported_entry(fight, fight.alice, kinds.ROLL, combatant=marta) == attack.payload


@pytest.mark.parametrize("npc_rolls", NpcRolls.values)
def test_an_npcs_chase_rolls_as_the_saga_says(chase, npc_rolls):
    chase.with_npc_rolls(npc_rolls)
    dice, totals = npc_rolls == NpcRolls.EVERYTHING, npc_rolls != NpcRolls.RESULTS
    exchange = entry(chase, kinds.EXCHANGE)
    bandit = f'data-testid="exchange-roll-{chase.bandits[0].pk}"'
    for place, html in places(chase, PLAYERS).items():
        line = line_of(html, exchange.seq)
        row = line[line.index(bandit) :].split("</li>")[0]
        assert (FACES in row, "<b>10</b>" in row, "+4" in row) == (dice, totals, totals), place
        assert "closes" in line, place  # the move stays
    (row,) = [
        r
        for r in exported_entry(chase, chase.alice, kinds.EXCHANGE)["rolls"]
        if r["runner"] == str(chase.bandits[0].pk)
    ]
    assert ("faces" in row, "margin" in row) == (dice, totals)


def test_the_storyguide_sees_every_die_at_results_only(fight):
    fight.with_npc_rolls(NpcRolls.RESULTS)
    defence = entry(fight, kinds.ROLL, combatant=str(fight.bandits[1].pk))
    for place, html in places(fight, STORYGUIDE).items():
        assert FACES in line_of(html, defence.seq), place
    assert (
        exported_entry(fight, fight.storyguide, kinds.ROLL, combatant=str(fight.bandits[1].pk))
        == defence.payload
    )


NPC_TARGET_EXCHANGE = {
    "rolls": [
        {"runner": "1", "name": "Watchman", "role": "target", "faces": [3, 4], "result": 7},
        {"runner": "2", "name": "Tobias", "role": "chaser", "faces": [6, 0], "result": 10, "margin": 3},
    ],
    "moved_ahead": [],
}


@pytest.mark.parametrize(
    "npc_rolls, words",
    [
        (NpcRolls.RESULTS, 'Tobias</b> <span class="muted">(chaser)</span>'),
        (NpcRolls.TOTALS, '<b>10</b> · <span class="success">+3: closes a square</span>'),
    ],
)
def test_a_player_chasers_step_stays_when_an_npc_targets_margin_is_hidden(npc_rolls, words):
    shown = events.players_entry(kinds.EXCHANGE, NPC_TARGET_EXCHANGE, {"2"}, npc_rolls)
    target, tobias = shown["rolls"]
    assert "faces" not in target and ("result" in target) == (npc_rolls == NpcRolls.TOTALS)
    line = presenters.exchange_roll(tobias, shown)
    assert words in line and "closes a square" in line
    assert ("margin" in tobias, tobias.get("step")) == (
        (False, "closes") if npc_rolls == NpcRolls.RESULTS else (True, None)
    )
