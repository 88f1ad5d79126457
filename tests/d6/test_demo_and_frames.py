"""The d6 demo loader, and what the pushed frames carry for each audience."""

import pytest
from django.core.management import call_command

from campaign.models import Saga
from combat.live import render_frame
from d6 import services
from d6.models import Chase

pytestmark = pytest.mark.django_db


def test_load_demo_d6_makes_a_chase_ready_to_roll_and_runs_twice(capsys):
    call_command("load_demo_d6")
    call_command("load_demo_d6")
    saga = Saga.objects.get(name="The chase through Ashford")
    assert saga.rule_system == "d6fatigue"
    assert sorted(saga.memberships.values_list("user__username", flat=True)) == [
        "player1",
        "player2",
        "storyguide",
    ]
    chase = Chase.objects.get(encounter__saga=saga)
    assert (chase.outcome, chase.exchanges, chase.escape_distance) == ("ongoing", 0, 6)
    assert [t["name"] for t in chase.route] == ["Market streets", "Rooftops", "The river"]
    assert "already there" in capsys.readouterr().out


def test_frames_differ_by_audience_and_announce_the_end(table, dice):
    services.start_chase(
        table.storyguide,
        table.encounter.pk,
        table.v,
        table.marta.pk,
        [(table.bandits[0].pk, 2)],
        [("Market streets", "Running")],
    )
    dice(1, 2)  # Marta drops out: caught
    services.exchange(table.storyguide, table.encounter.pk, table.v)
    encounter = table.refresh()
    events = list(encounter.events.order_by("seq"))
    players = render_frame(encounter, events, "players", 1, events[-1].seq)
    storyguide = render_frame(encounter, events, "storyguide", 1, events[-1].seq)
    assert 'data-testid="chase-outcome" data-outcome="caught"' in players
    assert "Chase over: caught" in players
    assert 'data-testid="d6-controls"' not in players
    assert 'data-testid="terrain-name-0"' in storyguide  # a new chase can start from the pushed controls
    assert 'data-testid="start-fight"' in storyguide


def test_the_fighter_whose_turn_it_is_waits_on_its_player(table, dice):
    """Issue 32, item 3: the current fighter's card is marked as a move waiting on its owner (presence.js
    names it at the top when that owner is gone); no other card is."""
    dice(2, 3, 8, 4, 5, 1, 1, 6)  # Marta first
    services.start_fight(table.storyguide, table.encounter.pk, table.v)
    encounter = table.refresh()
    events = list(encounter.events.order_by("seq"))
    storyguide = render_frame(encounter, events, "storyguide", 1, events[-1].seq)
    assert storyguide.count("data-waits=") == 1
    assert 'data-waits="Marta"' in storyguide
