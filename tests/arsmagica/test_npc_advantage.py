"""An NPC's advantage is the margin of its success (ArM3 p168), a total's: under "results only" players read
which roll it helps and not by how much, on the combatant cards, in the round's end and the next round's
start, in the pushed frame, the replay and the downloads; at the other settings they read its size (issue 35,
item 10: privacy covers values as well as dice)."""

import json
from types import SimpleNamespace

import pytest
from django.test import Client
from django.urls import reverse

from arsmagica.events import Kind
from arsmagica.presenters import advantage_carried
from arsmagica.sheet import carry
from campaign.models import NpcRolls
from combat import systems
from combat.audience import AUDIENCES, PLAYERS, STORYGUIDE
from combat.models import Event
from combat.services.log import EventLog, lock_encounter
from tests.audience_places import encounter_page, exported, line_of, pushed


def players_payload(event, own, players, npc_rolls):
    """What players see of an Ars Magica event: its kind's version (`arsmagica.events`)."""
    return systems.get("arsmagica").log.players_payload(event, own, players, npc_rolls)


pytestmark = pytest.mark.django_db

SCREEN = "Attack (behind the screen)"


def ended(npc: str, player: str) -> dict:
    return {
        "round": 1,
        "advantages": [
            {"combatant": npc, "attack": 3, "defense": 0},
            {"combatant": player, "attack": 0, "defense": 2},
        ],
    }


def opened(npc: str) -> dict:
    start = {"combatant": npc, "fatigue_level": "fresh", "body_level": "unhurt"}
    return {"round": 2, "start": [{**start, "advantage_attack": 3, "advantage_defense": 0}]}


@pytest.mark.parametrize("npc_rolls", NpcRolls.values)
def test_the_round_end_and_start_give_an_npcs_advantage_as_the_setting_says(npc_rolls):
    hidden = npc_rolls == NpcRolls.RESULTS
    shown = players_payload(
        SimpleNamespace(kind=Kind.ROUND_ENDED, payload=ended("7", "1")), set(), {"1"}, npc_rolls
    )
    npc, player = shown["advantages"]
    assert player == {"combatant": "1", "attack": 0, "defense": 2}  # a player character's, everyone's
    assert ("attack" in npc, advantage_carried(npc)) == (
        (False, " on Attack (behind the screen)") if hidden else (True, " Attack +3")
    )
    start = players_payload(
        SimpleNamespace(kind=Kind.DECLARATIONS_OPENED, payload=opened("7")), set(), {"1"}, npc_rolls
    )
    (row,) = start["start"]
    assert ("advantage_attack" in row, row.get("advantage_screened")) == (
        (False, ["attack"]) if hidden else (True, None)
    )
    assert row["fatigue_level"] == "fresh"


def log(table, kind, payload) -> Event:
    entries = EventLog(lock_encounter(table.encounter.pk, None), table.storyguide)
    entries.append(kind, payload)
    entries.save()
    return Event.objects.filter(encounter=table.encounter).order_by("-seq").first()


@pytest.mark.parametrize("npc_rolls", [NpcRolls.RESULTS, NpcRolls.TOTALS])
def test_an_npcs_carried_advantage_reaches_players_as_the_setting_says(table, npc_rolls):
    table.saga.npc_rolls = npc_rolls
    table.saga.save()
    bandit = table.bandits[0]
    carry(bandit, advantage_attack=3)
    bandit.save(update_fields=["state"])
    round_ended = log(table, Kind.ROUND_ENDED, ended(str(bandit.pk), str(table.boris.pk)))
    hidden = npc_rolls == NpcRolls.RESULTS
    card = f'data-testid="combatant-{bandit.pk}"'
    alice, storyguide = (
        encounter_page(table.alice, table.refresh()),
        encounter_page(table.storyguide, table.encounter),
    )
    assert "Attack +3" in storyguide[storyguide.index(card) :]
    alices_card = alice[alice.index(card) :].split("</article>")[0]
    assert (SCREEN in alices_card, "Attack +3" in alices_card) == (hidden, not hidden)
    frames = {
        audience: line_of(pushed(table.refresh(), audience), round_ended.seq)
        for audience in (PLAYERS, STORYGUIDE)
    }
    assert "Attack +3" in frames[STORYGUIDE]
    assert ("on " + SCREEN in frames[PLAYERS], "Attack +3" in frames[PLAYERS]) == (hidden, not hidden)
    (entry,) = [e["payload"] for e in exported(table.alice, table.encounter) if e["kind"] == Kind.ROUND_ENDED]
    assert ("attack" in entry["advantages"][0]) == (not hidden)
    client = Client()
    client.force_login(table.alice)
    replay = client.get(reverse("encounter_replay", args=[table.encounter.pk]), {"seq": round_ended.seq})
    row = replay.content.decode().split(f'data-testid="replay-row-{bandit.pk}"')[1].split("</tr>")[0]
    assert (SCREEN in row, "Attack +3" in row) == (hidden, not hidden)


@pytest.mark.parametrize("npc_rolls", [NpcRolls.RESULTS, NpcRolls.TOTALS])
def test_a_players_archive_carries_an_npcs_advantage_as_its_card_does(table, npc_rolls):
    """archive.json's combatant rows: an NPC's carried advantage as the rolls it helps under "results only"
    (found by the model: the state was exported whole to players); the storyguide's keeps its size."""
    table.saga.npc_rolls = npc_rolls
    table.saga.save()
    bandit = table.bandits[0]
    carry(bandit, advantage_attack=3)
    bandit.save(update_fields=["state"])
    states = {}
    for person in (table.alice, table.storyguide):
        client = Client()
        client.force_login(person)
        response = client.get(reverse("saga_archive_json", args=[table.saga.pk]))
        archive = json.loads(b"".join(response.streaming_content))
        (row,) = [c for e in archive["encounters"] for c in e["combatants"] if c["id"] == bandit.pk]
        states[person] = row["state"]
    assert states[table.storyguide]["advantage_attack"] == 3
    hidden = npc_rolls == NpcRolls.RESULTS
    assert ("advantage_attack" in states[table.alice]) == (not hidden)
    assert (states[table.alice].get("advantage_screened") == ["attack"]) == hidden


@pytest.mark.parametrize("first", AUDIENCES)
def test_one_pushs_facts_give_each_audience_its_own_frame(table, first):
    """A push works out what both audiences' panels share once (`PanelFacts.shared`, each card's derived
    values, kept): whichever audience's frame is drawn first, each frame is the one drawn from facts of its
    own, and under "results only" the players still read an NPC's advantage as the rolls it helps."""
    from arsmagica.panels import table_facts
    from arsmagica.services.corrections import correct
    from combat.live import render_frame

    table.saga.npc_rolls = NpcRolls.RESULTS
    table.saga.save()
    bandit = table.bandits[0]
    correct(
        table.storyguide, table.encounter.pk, table.v, bandit.pk, {"advantage_attack": 3}, "Knocked aside"
    )
    encounter = table.refresh()
    event = encounter.events.order_by("-seq").first()
    facts = table_facts(encounter)
    order = sorted(AUDIENCES, key=lambda audience: audience != first)
    shared = {
        audience: render_frame(encounter, [event], audience, event.seq, event.seq, facts=facts)
        for audience in order
    }
    for audience in AUDIENCES:
        alone = render_frame(encounter, [event], audience, event.seq, event.seq, facts=table_facts(encounter))
        assert shared[audience] == alone
    card = f'data-testid="combatant-{bandit.pk}"'
    players_card = shared[PLAYERS][shared[PLAYERS].index(card) :].split("</article>")[0]
    storyguides_card = shared[STORYGUIDE][shared[STORYGUIDE].index(card) :].split("</article>")[0]
    assert SCREEN in players_card and "Attack +3" not in players_card
    assert "Attack +3" in storyguides_card
