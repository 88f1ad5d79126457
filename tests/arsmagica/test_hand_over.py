"""An Ars Magica encounter's add-to-the-fight list names each character's player, or says one waits for a
player (the hand-over itself: tests/campaign/test_hand_over.py)."""

import pytest
from django.urls import reverse

from campaign.models import Character
from combat import services as combat
from tests.personas import client_for

pytestmark = pytest.mark.django_db


def test_the_add_to_fight_list_names_each_characters_player(saga, storyguide, boris):
    Character.objects.create(saga=saga, name="Ada", owner=None)  # made for a player who will join
    Character.objects.create(saga=saga, name="Bandit", is_npc=True)
    fight = combat.create_encounter(storyguide, saga.pk, "Forest road", "arsmagica")
    page = (
        client_for(storyguide).get(reverse("encounter_page", args=[fight.pk]), follow=True).content.decode()
    )
    assert "Sir Boris, played by alice" in page
    assert "Ada, waiting for a player" in page
    assert "Bandit (NPC)" in page
