"""Troupe play in Ars Magica (issue 38): a storyguide who is not the saga's lead lets time pass on the saga
page, and a storyguide's own character reads as a storyguide's in the list of who may join a fight."""

import pytest
from django.urls import reverse

from arsmagica.models import Weapon
from arsmagica.sheet import new_sheet
from campaign import services
from campaign.models import Character
from campaign.sent_once import fresh_key
from combat.models import SagaRecord
from combat.services.setup import create_encounter
from tests.personas import client_for

pytestmark = pytest.mark.django_db


def test_a_storyguide_who_is_not_the_lead_lets_time_pass(saga, storyguide, player, second_player):
    services.make_storyguide(saga, player, by=storyguide)
    boris = Character.objects.create(
        saga=saga, owner=second_player, name="Sir Boris", sheet=new_sheet(stamina=2, fatigue_level="winded")
    )
    alice = client_for(player)
    page = alice.get(reverse("saga_detail", args=[saga.pk])).content.decode()
    assert 'data-testid="saga-time"' in page  # the time panel, as the lead has it
    data = {"characters": [str(boris.pk)], "minutes": "30", "stamina": "none", "command_key": fresh_key()}
    passed = alice.post(reverse("arsmagica:saga_pass_time", args=[saga.pk]), data)
    assert passed.status_code == 200 and 'data-testid="saga-time-done"' in passed.content.decode()
    assert SagaRecord.objects.filter(saga=saga, kind="time_passed").count() == 1
    bob = client_for(second_player)
    assert 'data-testid="saga-time"' not in bob.get(reverse("saga_detail", args=[saga.pk])).content.decode()
    data["command_key"] = fresh_key()
    assert bob.post(reverse("arsmagica:saga_pass_time", args=[saga.pk]), data).status_code == 403
    assert SagaRecord.objects.filter(saga=saga, kind="time_passed").count() == 1


def test_a_storyguides_own_character_is_offered_to_a_fight_as_a_storyguides(saga, storyguide, player):
    services.make_storyguide(saga, player, by=storyguide)
    cado = Character.objects.create(saga=saga, owner=player, name="Cado", sheet=new_sheet())
    Weapon.objects.create(character=cado, name="Sword")
    encounter = create_encounter(storyguide, saga.pk, "At the ford", "arsmagica")
    page = client_for(storyguide).get(reverse("encounter_page", args=[encounter.pk])).content.decode()
    assert "Cado, played by alice (storyguide)" in page
