"""The saga's setting for NPC rolls: chosen when the saga starts, changed by its storyguide on its page."""

import pytest

from campaign.models import NpcRolls, Saga
from tests.coinduel import KEY

pytestmark = pytest.mark.django_db


def test_a_new_saga_shows_players_an_npcs_results_only(as_stranger):
    as_stranger.post(
        "/sagas/new/", {"name": "Winter raid", "rule_system": KEY, "physical_dice": "False"}
    )
    assert Saga.objects.get().npc_rolls == NpcRolls.RESULTS


def test_the_saga_form_offers_the_three_choices(as_stranger):
    page = as_stranger.get("/sagas/new/").content.decode()
    assert all(f'value="{choice}"' in page for choice in NpcRolls.values)
    data = {"name": "Open table", "rule_system": KEY, "physical_dice": "False"}
    as_stranger.post("/sagas/new/", {**data, "npc_rolls": "everything"})
    assert Saga.objects.get().npc_rolls == NpcRolls.EVERYTHING


def test_the_storyguide_changes_the_setting_on_the_saga_page(saga, as_storyguide):
    response = as_storyguide.get(f"/sagas/{saga.pk}/")
    assert 'id="npc-rolls"' in response.content.decode()
    assert response.context["npc_rolls_form"]["npc_rolls"].value() == "results"
    response = as_storyguide.post(f"/sagas/{saga.pk}/npc-rolls/", {"npc_rolls": "totals"})
    assert response.status_code == 302
    saga.refresh_from_db()
    assert saga.npc_rolls == NpcRolls.TOTALS


def test_a_value_outside_the_choices_changes_nothing(saga, as_storyguide):
    response = as_storyguide.post(f"/sagas/{saga.pk}/npc-rolls/", {"npc_rolls": "dice only"}, follow=True)
    assert "Choose one of the settings for NPC rolls." in response.content.decode()
    saga.refresh_from_db()
    assert saga.npc_rolls == NpcRolls.RESULTS


def test_a_player_may_not_change_it_nor_sees_the_form(saga, as_player):
    assert 'id="npc-rolls"' not in as_player.get(f"/sagas/{saga.pk}/").content.decode()
    assert as_player.post(f"/sagas/{saga.pk}/npc-rolls/", {"npc_rolls": "everything"}).status_code == 403
    saga.refresh_from_db()
    assert saga.npc_rolls == NpcRolls.RESULTS


def test_a_system_without_words_of_its_own_reads_as_the_core(as_stranger):
    as_stranger.post("/sagas/new/", {"name": "Coins", "rule_system": "coinduel", "physical_dice": "False"})
    page = as_stranger.get(f"/sagas/{Saga.objects.get().pk}/").content.decode()
    assert NpcRolls.RESULTS.label in page and NpcRolls.TOTALS.label in page
    new_saga = as_stranger.get(
        "/sagas/new/"
    ).content.decode()  # the system is not chosen yet: the core's words
    assert NpcRolls.RESULTS.label in new_saga and "wound" not in new_saga
