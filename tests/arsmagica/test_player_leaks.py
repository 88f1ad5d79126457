"""What a player must never receive: the NPCs' declarations, in any event that reaches the players."""

import pytest
from django.urls import reverse

from arsmagica import services
from arsmagica.events import Kind
from combat.audience import PLAYERS, visible_to
from combat.live import render_frame
from combat.models import Event
from tests.personas import PASSWORD

from .conftest import P168_FACES

pytestmark = pytest.mark.django_db


def closed(table, scripted_dice):
    """Round one of p168: Sir Boris (Alice's) and the three bandits (the storyguide's) declared."""
    scripted_dice(table, P168_FACES)
    services.open_declarations(table.storyguide, table.encounter.pk, table.v)
    table.declare_p168()
    services.close_declarations(table.storyguide, table.encounter.pk, table.v)
    return Event.objects.get(encounter=table.encounter, kind=Kind.MOVEMENT)


def test_the_movement_event_lists_only_the_player_characters_declarations(table, scripted_dice):
    movement = closed(table, scripted_dice)
    assert not movement.storyguide_only
    assert [row["combatant"] for row in movement.payload["declarations"]] == [str(table.boris.pk)]
    # the bandits' declarations are kept, for the storyguide only
    hidden = Event.objects.filter(encounter=table.encounter, kind=Kind.DECLARED, storyguide_only=True)
    assert sorted(event.payload["combatant"] for event in hidden) == sorted(str(b.pk) for b in table.bandits)


def test_a_players_history_export_holds_no_npc_declaration(client, table, scripted_dice):
    closed(table, scripted_dice)
    assert client.login(username=table.alice.username, password=PASSWORD)
    data = client.get(reverse("saga_history_json", args=[table.saga.pk])).json()
    bandits = {str(bandit.pk) for bandit in table.bandits}
    events = data["encounters"][0]["events"]
    declared = {
        row["combatant"]
        for event in events
        for row in event["payload"].get("declarations", [])
        + ([event["payload"]] if event["kind"] == "declared" else [])
    }
    assert declared == {str(table.boris.pk)} and not bandits & declared


def test_the_players_replay_frame_holds_no_npc_declaration(table, scripted_dice):
    closed(table, scripted_dice)
    encounter = table.refresh()
    events = list(encounter.events.order_by("seq"))
    shown = visible_to(events, PLAYERS)
    boris = str(table.boris.pk)
    assert all(event.kind != "declared" or event.payload["combatant"] == boris for event in shown)
    html = render_frame(encounter, events, PLAYERS, 1, events[-1].seq, replay=True)
    assert "Dagger" not in html  # Bandit 3's declared weapon
