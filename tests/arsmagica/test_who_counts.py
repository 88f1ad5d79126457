"""Who counts (issue 29, bug 4): "N/M declared" and the storyguide's close button count only those who can
act; the Declarations panel names who cannot and why, in the rulebook's words for the levels (ArM3 p177), on
the pages and in the frames pushed to every screen."""

import re
from unittest.mock import patch

import pytest
from channels.layers import get_channel_layer
from django.test import Client
from django.urls import reverse

from arsmagica import services
from combat.audience import AUDIENCES, PLAYERS, STORYGUIDE
from combat.live import FRAME_TYPE, replay_frame

from .test_query_counts import _element

pytestmark = pytest.mark.django_db


def page(table, user, name) -> str:
    """The encounter's page as `user` reads it."""
    client = Client()
    client.force_login(user)
    return client.get(reverse(name, args=[table.encounter.pk])).content.decode()


def correct(table, combatant, changes):
    """The storyguide's correction of a combatant's levels."""
    services.correct(table.storyguide, table.encounter.pk, table.v, combatant.pk, changes, "Struck down")


def test_the_pages_count_only_who_can_act_and_say_who_cannot_and_why(table):
    """Two of five down: "0 / 3", not "0 / 5", for the storyguide and a player, each down one named with
    why; the close button counts the same, and says how many cannot act."""
    bandit2, boris = table.bandits[1], table.boris
    correct(table, bandit2, {"body_level": "dead"})
    correct(table, boris, {"fatigue_level": "unconscious"})
    services.open_declarations(table.storyguide, table.encounter.pk, table.v)
    bandit1 = table.bandits[0]
    attack = {"action": "attack", "weapon_id": table.weapon(bandit1), "engage": [table.anselm.pk]}
    services.declare(table.storyguide, table.encounter.pk, bandit1.pk, attack)
    storyguide = page(table, table.storyguide, "encounter_page")
    player = page(table, table.alice, "arsmagica:play")
    for html in (storyguide, player):
        status = _element(html, "section", "declaration-status")
        assert 'data-testid="declared-count">1 / 3<' in status
        assert re.search(rf'data-testid="unable-{bandit2.pk}">is dead: cannot act<', status)
        assert re.search(rf'data-testid="unable-{boris.pk}">is unconscious: cannot act<', status)
        assert f'data-testid="declared-{bandit2.pk}" class="unable"' in status
        assert f'data-testid="declared-{table.anselm.pk}" class="waiting"' in status
    assert "Close declarations, roll Initiative (1/3 declared; 2 cannot act)" in storyguide


def test_a_correction_that_incapacitates_someone_updates_the_count_on_every_screen(
    table, django_capture_on_commit_callbacks
):
    """A combatant who has not declared is incapacitated while declarations are open: every screen's count
    drops to those who can act and names him, as a reload would show (the frame used to leave the
    Declarations panel alone, still counting him)."""
    services.open_declarations(table.storyguide, table.encounter.pk, table.v)
    sent = {}

    async def group_send(group, message):
        if message["type"] == FRAME_TYPE:
            sent[group] = message["html"]

    with patch.object(get_channel_layer(), "group_send", side_effect=group_send):
        with django_capture_on_commit_callbacks(execute=True):
            correct(table, table.bandits[1], {"body_level": "incapacitated"})
    for audience in AUDIENCES:
        status = _element(sent[f"encounter-{table.encounter.pk}-{audience}"], "section", "declaration-status")
        fresh = replay_frame(table.encounter.pk, audience, 0)[0]
        assert status == _element(fresh, "section", "declaration-status")
        assert 'data-testid="declared-count">0 / 4<' in status
        assert f'data-testid="unable-{table.bandits[1].pk}">is incapacitated: cannot act<' in status
    assert "(0/4 declared; 1 cannot act)" in sent[f"encounter-{table.encounter.pk}-{STORYGUIDE}"]
    assert "cannot act)" not in sent[f"encounter-{table.encounter.pk}-{PLAYERS}"]  # the storyguide's button

