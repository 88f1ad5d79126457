"""A d6 saga's add-to-the-fight list names each character's player (the hand-over itself:
tests/campaign/test_hand_over.py)."""

import pytest
from django.urls import reverse

from campaign.models import Character
from combat import services as combat
from tests.personas import client_for

pytestmark = pytest.mark.django_db


def test_the_d6_add_to_fight_list_names_each_characters_player(d6_saga, storyguide, player):
    Character.objects.create(saga=d6_saga, name="Wren", owner=player, sheet={"fatigue": 0})
    Character.objects.create(saga=d6_saga, name="Moth", sheet={"fatigue": 0})
    fight = combat.create_encounter(storyguide, d6_saga.pk, "Alley", "d6fatigue")
    page = (
        client_for(storyguide).get(reverse("encounter_page", args=[fight.pk]), follow=True).content.decode()
    )
    assert "Wren, played by alice" in page and "Moth, waiting for a player" in page
