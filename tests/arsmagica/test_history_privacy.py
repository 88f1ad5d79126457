"""The history's players' version says what the live page says: another character's declaration is only
"X has declared", and no NPC declaration reaches a player, not even from a Movement event stored before
the Movement event stopped listing them (old events are never edited: they are filtered on read)."""

import json

import pytest
from django.urls import reverse

from arsmagica import services
from arsmagica.events import Kind
from combat.audience import PLAYERS, STORYGUIDE
from combat.live import render_frame
from combat.models import Event
from tests.personas import login

from .conftest import P168_FACES

pytestmark = pytest.mark.django_db

FACES = {**P168_FACES, "anselm": {"initiative": [4], "combat": [5], "fatigue": [6]}}


@pytest.fixture
def closed(table, scripted_dice):
    """Round one: Sir Boris (Alice's) and the bandits as on p168, Brother Anselm (Bob's) with his mace."""
    scripted_dice(table, FACES)
    services.open_declarations(table.storyguide, table.encounter.pk, table.v)
    table.declare_p168()
    services.declare(
        table.bob,
        table.encounter.pk,
        table.anselm.pk,
        {
            "action": "attack",
            "weapon_id": table.weapon(table.anselm),
            "engage": [table.bandits[0].pk],
            "range": "reach",
        },
    )
    services.close_declarations(table.storyguide, table.encounter.pk, table.v)
    return table


def export(client, table, user):
    login(client, user)
    response = client.get(reverse("saga_history_json", args=[table.saga.pk]))
    assert response.status_code == 200
    return response.json()["encounters"][0]["events"]


def declared_events(events):
    return {
        event["payload"]["combatant"]: event["payload"] for event in events if event["kind"] == "declared"
    }


def movement_of(events):
    (movement,) = [event for event in events if event["kind"] == "movement"]
    return movement["payload"]


def make_old_movement(table):
    """The Movement event as saved before commit 0707100: every declaration, the bandits' too."""
    movement = Event.objects.get(encounter=table.encounter, kind=Kind.MOVEMENT)
    bandit_rows = [
        {**declared.payload["summary"], "combatant": declared.payload["combatant"]}
        for declared in Event.objects.filter(
            encounter=table.encounter, kind=Kind.DECLARED, storyguide_only=True
        )
    ]
    payload = {**movement.payload, "declarations": movement.payload["declarations"] + bandit_rows}
    Event.objects.filter(pk=movement.pk).update(payload=payload)
    return payload


def test_a_players_export_says_only_who_declared_for_another_players_character(client, closed):
    events = export(client, closed, closed.alice)
    boris, anselm = str(closed.boris.pk), str(closed.anselm.pk)
    declared = declared_events(events)
    assert set(declared) == {boris, anselm}  # the bandits' declarations are the storyguide's
    assert declared[boris]["summary"]["weapon"] == "Sword"  # her own, in full
    assert declared[anselm] == {"combatant": anselm, "name": "Brother Anselm"}
    rows = {row["combatant"]: row for row in movement_of(events)["declarations"]}
    assert rows[boris]["weapon"] == "Sword" and rows[anselm] == {"combatant": anselm}
    assert "Mace" not in json.dumps(events)
    # the stored events are untouched
    stored = Event.objects.get(encounter=closed.encounter, kind=Kind.DECLARED, payload__combatant=anselm)
    assert stored.payload["summary"]["weapon"] == "Mace"
    movement = Event.objects.get(encounter=closed.encounter, kind=Kind.MOVEMENT)
    assert {row["combatant"]: row["weapon"] for row in movement.payload["declarations"]}[anselm] == "Mace"


def test_the_other_player_sees_the_mirror_image(client, closed):
    events = export(client, closed, closed.bob)
    boris, anselm = str(closed.boris.pk), str(closed.anselm.pk)
    declared = declared_events(events)
    assert declared[anselm]["summary"]["weapon"] == "Mace"
    assert declared[boris] == {"combatant": boris, "name": "Sir Boris"}
    assert "Sword" not in json.dumps(events)


def test_a_players_history_page_shows_only_who_declared(client, closed):
    login(client, closed.alice)
    response = client.get(reverse("saga_history", args=[closed.saga.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    assert "<b>Brother Anselm</b> has declared." in html and "<b>Sir Boris</b> has declared." in html
    assert "Mace" not in html and "Dagger" not in html and "Bandit 1</b> has declared" not in html


def test_the_storyguide_keeps_every_declaration(client, closed):
    events = export(client, closed, closed.storyguide)
    declared = declared_events(events)
    assert declared[str(closed.anselm.pk)]["summary"]["weapon"] == "Mace"
    assert declared[str(closed.bandits[2].pk)]["summary"]["weapon"] == "Dagger"
    assert len(declared) == 5
    html = client.get(reverse("saga_history", args=[closed.saga.pk])).content.decode()
    assert "with Mace" in html and "with Dagger" in html


def test_an_old_movement_event_loses_its_npc_declarations_for_players(client, closed):
    stored = make_old_movement(closed)
    bandits = {str(bandit.pk) for bandit in closed.bandits}
    assert bandits <= {row["combatant"] for row in stored["declarations"]}
    events = export(client, closed, closed.alice)
    rows = movement_of(events)["declarations"]
    assert sorted(row["combatant"] for row in rows) == sorted([str(closed.boris.pk), str(closed.anselm.pk)])
    assert "Dagger" not in json.dumps(events)
    # engagements are everyone's, as on the live page; the bandits' Initiative is behind the screen
    assert movement_of(events)["engagements"] == stored["engagements"]
    players = {str(closed.boris.pk), str(closed.anselm.pk)}
    shown = {row["combatant"]: row for row in movement_of(events)["initiative"]}
    assert all(shown[row["combatant"]] == row for row in stored["initiative"] if row["combatant"] in players)
    assert all(shown[b] == {"combatant": b, "paces": None} for b in bandits)
    # the stored event is never edited
    movement = Event.objects.get(encounter=closed.encounter, kind=Kind.MOVEMENT)
    assert movement.payload == stored


def test_an_old_movement_event_stays_whole_for_the_storyguide(client, closed):
    stored = make_old_movement(closed)
    events = export(client, closed, closed.storyguide)
    assert movement_of(events)["declarations"] == stored["declarations"]


def test_the_players_replay_renders_nothing_of_an_old_movement_events_declarations(closed):
    make_old_movement(closed)
    encounter = closed.refresh()
    events = list(encounter.events.order_by("seq"))
    players = render_frame(encounter, events, PLAYERS, 1, events[-1].seq, replay=True)
    assert "Dagger" not in players and "Mace" not in players
    storyguide = render_frame(encounter, events, STORYGUIDE, 1, events[-1].seq, replay=True)
    assert "with Dagger" in storyguide  # from the storyguide-only declared event


def test_outsiders_get_no_export(client, closed):
    login(client, closed.outsider)
    assert client.get(reverse("saga_history_json", args=[closed.saga.pk])).status_code == 404
