"""Issue 10, item 7: the storyguide renames, deletes (with a confirmation) or archives and restores sagas,
characters, NPCs, NPC templates and encounters; a saga or encounter with history is archived unless its
name is typed; players get 403 and outsiders 404."""

import pytest
from django.urls import reverse

from campaign import services
from campaign.models import Character, Saga
from combat import services as combat_services
from combat.models import Encounter, Event
from combat.rules.dice import ScriptedDice
from tests.coinduel import services as coin

pytestmark = pytest.mark.django_db


def encounter_of(saga, user, name="Ambush at the ford"):
    return combat_services.create_encounter(user, saga.pk, name, saga.rule_system)


def with_history(encounter, user, boris, bandit):
    """Two sides in, a turn of the duel flipped: the encounter's log holds more than its set-up."""
    combat_services.add_combatants(user, encounter.pk, 1, [boris.pk], "Players")
    combat_services.add_combatants(user, encounter.pk, 2, [bandit.pk], "Opponents")
    coin.flip(user, encounter.pk, 3, ScriptedDice([2, 1]))
    return encounter


# --- sagas ----------------------------------------------------------------------------------------


def test_the_storyguide_renames_a_saga(saga, as_storyguide):
    response = as_storyguide.post(reverse("saga_rename", args=[saga.pk]), {"name": "  The long winter "})
    assert response.status_code == 302 and response.url == reverse("saga_detail", args=[saga.pk])
    saga.refresh_from_db()
    assert saga.name == "The long winter"


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("   ", "Give it a name."),
        ("Nul\x00byte", "control characters"),
        ("x" * 121, "At most 120 characters."),
    ],
)
def test_a_bad_name_is_refused_next_to_its_field(saga, as_storyguide, name, message):
    response = as_storyguide.post(reverse("saga_rename", args=[saga.pk]), {"name": name})
    assert response.status_code == 400
    assert message in response.content.decode()
    saga.refresh_from_db()
    assert saga.name == "Sir Boris and the bandits"


def test_a_saga_without_history_is_deleted_once_the_box_is_ticked(saga, as_storyguide, boris):
    url = reverse("saga_delete", args=[saga.pk])
    unticked = as_storyguide.post(url, {})
    assert unticked.status_code == 400 and "Tick the box to confirm" in unticked.content.decode()
    assert Saga.objects.filter(pk=saga.pk).exists()
    response = as_storyguide.post(url, {"confirm": "on"})
    assert response.status_code == 302 and response.url == reverse("saga_list")
    assert not Saga.objects.filter(pk=saga.pk).exists()
    assert not Character.objects.filter(pk=boris.pk).exists()


def test_a_saga_with_history_is_archived_listed_apart_and_restored(
    saga, storyguide, as_storyguide, as_player, boris, bandit
):
    with_history(encounter_of(saga, storyguide), storyguide, boris, bandit)
    manage = as_storyguide.get(reverse("saga_manage", args=[saga.pk])).content.decode()
    assert "type its name" in manage
    as_storyguide.post(
        reverse("saga_delete", args=[saga.pk]), {"confirm": "on", "typed_name": "not its name"}
    )
    saga.refresh_from_db()
    assert saga.archived_at is not None
    for client in (as_storyguide, as_player):
        page = client.get(reverse("saga_list")).content.decode().split("<h1>My sagas</h1>")[1]
        current, archived = page.split('data-testid="archived-sagas"')
        assert saga.name in archived and saga.name not in current
    # An archived saga keeps its page, its history and its exports.
    for name in ("saga_detail", "saga_history", "saga_history_json", "saga_archive_json"):
        assert as_storyguide.get(reverse(name, args=[saga.pk])).status_code == 200, name
    as_storyguide.post(reverse("saga_restore", args=[saga.pk]), {})
    saga.refresh_from_db()
    assert saga.archived_at is None


def test_typing_its_name_destroys_a_saga_with_history(saga, storyguide, as_storyguide, boris, bandit):
    encounter = with_history(encounter_of(saga, storyguide), storyguide, boris, bandit)
    as_storyguide.post(reverse("saga_delete", args=[saga.pk]), {"confirm": "on", "typed_name": saga.name})
    assert not Saga.objects.filter(pk=saga.pk).exists()
    assert not Event.objects.filter(encounter_id=encounter.pk).exists()


@pytest.mark.parametrize("name", ["saga_manage", "saga_rename", "saga_delete", "saga_restore"])
def test_only_the_storyguide_manages_a_saga(saga, as_player, as_stranger, name):
    url = reverse(name, args=[saga.pk])
    send = (
        (lambda client: client.get(url))
        if name == "saga_manage"
        else (lambda client: client.post(url, {"name": "Mine", "confirm": "on"}))
    )
    assert send(as_player).status_code == 403
    assert send(as_stranger).status_code == 404
    saga.refresh_from_db()
    assert saga.name == "Sir Boris and the bandits" and saga.archived_at is None


# --- characters, NPCs and templates ----------------------------------------------------------------


def test_the_storyguide_renames_and_deletes_an_npc(saga, as_storyguide, bandit):
    as_storyguide.post(reverse("character_rename", args=[bandit.pk]), {"name": "Brigand"})
    bandit.refresh_from_db()
    assert bandit.name == "Brigand"
    response = as_storyguide.post(reverse("character_delete", args=[bandit.pk]), {"confirm": "on"})
    assert response.status_code == 302 and not Character.objects.filter(pk=bandit.pk).exists()


def test_a_character_in_an_encounter_is_kept_with_a_plain_message(saga, storyguide, as_storyguide, boris):
    encounter = encounter_of(saga, storyguide)
    combat_services.add_combatants(storyguide, encounter.pk, 1, [boris.pk], "Players")
    response = as_storyguide.post(reverse("character_delete", args=[boris.pk]), {"confirm": "on"})
    assert response.status_code == 400
    assert "Sir Boris is in the saga&#x27;s history" in response.content.decode()
    assert Character.objects.filter(pk=boris.pk).exists()


@pytest.mark.parametrize("name", ["character_manage", "character_rename", "character_delete"])
def test_only_the_storyguide_manages_a_character_even_its_player(
    boris, as_player, as_second_player, as_stranger, name
):
    url = reverse(name, args=[boris.pk])
    for client, status in ((as_player, 403), (as_second_player, 403), (as_stranger, 404)):
        response = (
            client.get(url)
            if name == "character_manage"
            else client.post(url, {"name": "Sir Borrowed", "confirm": "on"})
        )
        assert response.status_code == status
    boris.refresh_from_db()
    assert boris.name == "Sir Boris"


def test_templates_are_listed_apart_from_the_npcs_stamped_from_them(saga, as_storyguide, bandit):
    copies = services.stamp_npc_copies(bandit, 2)
    assert [copy.stamped_from_id for copy in copies] == [bandit.pk, bandit.pk]
    page = as_storyguide.get(reverse("saga_detail", args=[saga.pk])).content.decode()
    npcs, templates = page.split('id="npcs"')[1].split('data-testid="npc-templates"')
    assert "Bandit 1" in npcs and "Bandit 2" in npcs and ">Bandit<" not in npcs
    assert ">Bandit</a>" in templates and "2 copies stamped" in templates
    manage = as_storyguide.get(reverse("character_manage", args=[bandit.pk])).content.decode()
    assert "NPC template" in manage


def test_the_stamp_hint_uses_the_templates_own_name(saga, as_storyguide):
    grog = Character.objects.create(saga=saga, name="Grog", is_npc=True)
    page = as_storyguide.get(reverse("character_detail", args=[grog.pk])).content.decode()
    assert "Copies are numbered: Grog 1, Grog 2" in page and "Bandit" not in page


def test_deleting_a_template_keeps_its_copies(saga, as_storyguide, bandit):
    copy = services.stamp_npc_copies(bandit, 1)[0]
    as_storyguide.post(reverse("character_delete", args=[bandit.pk]), {"confirm": "on"})
    copy.refresh_from_db()
    assert copy.stamped_from is None and copy.name == "Bandit 1"


# --- encounters ------------------------------------------------------------------------------------


def test_an_encounter_without_history_is_deleted(saga, storyguide, as_storyguide):
    encounter = encounter_of(saga, storyguide)
    response = as_storyguide.post(reverse("encounter_delete", args=[encounter.pk]), {"confirm": "on"})
    assert response.status_code == 302 and not Encounter.objects.filter(pk=encounter.pk).exists()


def test_an_encounter_with_history_is_archived_listed_apart_and_restored(
    saga, storyguide, as_storyguide, as_player, boris, bandit
):
    encounter = with_history(encounter_of(saga, storyguide), storyguide, boris, bandit)
    as_storyguide.post(reverse("encounter_rename", args=[encounter.pk]), {"name": "The ford"})
    as_storyguide.post(reverse("encounter_delete", args=[encounter.pk]), {"confirm": "on"})
    encounter.refresh_from_db()
    assert encounter.name == "The ford" and encounter.archived_at is not None
    page = as_storyguide.get(reverse("saga_detail", args=[saga.pk])).content.decode()
    current, archived = page.split('data-testid="archived-encounters"')
    assert "The ford" in archived and "The ford" not in current.split('id="encounters"')[1]
    assert "The ford" not in as_player.get(reverse("saga_detail", args=[saga.pk])).content.decode()
    history = as_storyguide.get(reverse("saga_history", args=[saga.pk])).content.decode()
    assert "Coins flipped" in history or "flips heads" in history
    as_storyguide.post(reverse("encounter_restore", args=[encounter.pk]), {})
    encounter.refresh_from_db()
    assert encounter.archived_at is None


def test_typing_its_name_destroys_an_encounter_with_history(saga, storyguide, as_storyguide, boris, bandit):
    encounter = with_history(encounter_of(saga, storyguide), storyguide, boris, bandit)
    typed = {"confirm": "on", "typed_name": encounter.name}
    as_storyguide.post(reverse("encounter_delete", args=[encounter.pk]), typed)
    assert not Encounter.objects.filter(pk=encounter.pk).exists()


@pytest.mark.parametrize(
    "name", ["encounter_manage", "encounter_rename", "encounter_delete", "encounter_restore"]
)
def test_only_the_storyguide_manages_an_encounter(saga, storyguide, as_player, as_stranger, name):
    encounter = encounter_of(saga, storyguide)
    url = reverse(name, args=[encounter.pk])
    for client, status in ((as_player, 403), (as_stranger, 404)):
        response = (
            client.get(url)
            if name == "encounter_manage"
            else client.post(url, {"name": "Mine", "confirm": "on"})
        )
        assert response.status_code == status
    encounter.refresh_from_db()
    assert encounter.name == "Ambush at the ford"
