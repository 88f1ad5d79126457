"""Issue 10, item 8: a side is a choice (the players' side, the opponents, or a named third side), on the
set-up panels of both rule systems; the free-text sides of existing encounters are renamed by a data
migration (combat 0007)."""

import importlib

import pytest
from django.apps import apps
from django.test import Client
from django.urls import reverse

from campaign.models import Character
from combat.errors import InvalidCommand
from combat.models import Combatant
from combat.sides import OPPONENTS, PLAYERS, THIRD, chosen_side
from tests.arsmagica.conftest import Table
from tests.d6.conftest import D6Table

MIGRATION = importlib.import_module("combat.migrations.0007_sides_as_a_choice")


def test_the_choice_names_the_side():
    assert chosen_side(PLAYERS) == "Players"
    assert chosen_side(OPPONENTS, "ignored") == "Opponents"
    assert chosen_side(THIRD, "  Beasts ") == "Beasts"
    assert chosen_side(THIRD, "opponents") == "Opponents"  # not a third side after all


@pytest.mark.parametrize(
    ("choice", "name", "message"),
    [("", "", "Choose a side"), (THIRD, "", "Name the third side"), (THIRD, "x" * 61, "at most 60")],
)
def test_a_side_left_out_is_refused_in_plain_words(choice, name, message):
    with pytest.raises(InvalidCommand, match=message):
        chosen_side(choice, name)


@pytest.mark.django_db
@pytest.mark.parametrize("make_table", [Table, D6Table])
def test_both_set_up_panels_offer_the_choice_and_take_a_named_third_side(make_table):
    table = make_table()
    wolf = Character.objects.create(saga=table.saga, name="Wolf", is_npc=True)
    client = Client()
    client.force_login(table.storyguide)
    page = client.get(reverse("encounter_page", args=[table.encounter.pk]), follow=True).content.decode()
    for value in ("Players", "Opponents", "third"):
        assert f'name="side" value="{value}"' in page
    assert 'name="third_side"' in page
    url = reverse("add_combatants", args=[table.encounter.pk])
    refused = client.post(
        url, {"expected_version": table.v, "characters": [wolf.pk], "side": THIRD}, HTTP_HX_REQUEST="true"
    )
    assert refused.status_code == 422 and b"Name the third side" in refused.content
    client.post(
        url,
        {"expected_version": table.v, "characters": [wolf.pk], "side": THIRD, "third_side": "Beasts"},
        HTTP_HX_REQUEST="true",
    )
    assert Combatant.objects.get(character=wolf).side == "Beasts"


def test_the_migration_names_the_players_and_the_opponents_and_keeps_a_third_side():
    sides = {
        "Companions": {"size": 2, "first": 1, "players": True},
        "Bandits": {"size": 3, "first": 3, "players": False},
        "Beasts": {"size": 1, "first": 6, "players": False},
    }
    assert MIGRATION.renamed_sides(sides) == {"Companions": PLAYERS, "Bandits": OPPONENTS}
    npcs_only = {
        "Guards": {"size": 2, "first": 1, "players": False},
        "Thieves": {"size": 2, "first": 3, "players": False},
    }
    assert MIGRATION.renamed_sides(npcs_only) == {"Guards": OPPONENTS}
    already = {
        "Players": {"size": 1, "first": 1, "players": True},
        "Grogs": {"size": 1, "first": 2, "players": True},
    }
    assert MIGRATION.renamed_sides(already) == {}


@pytest.mark.django_db
def test_the_migration_renames_an_encounters_free_text_sides(db):
    table = Table()  # Sir Boris and Brother Anselm as "Companions", three bandits as "Bandits"
    wolf = Character.objects.create(saga=table.saga, name="Wolf", is_npc=True)
    Combatant.objects.create(encounter=table.encounter, character=wolf, side="Beasts", order=9)
    MIGRATION.sides_as_a_choice(apps, None)
    sides = dict(table.encounter.combatants.values_list("character__name", "side"))
    assert sides == {
        "Sir Boris": PLAYERS,
        "Brother Anselm": PLAYERS,
        "Bandit 1": OPPONENTS,
        "Bandit 2": OPPONENTS,
        "Bandit 3": OPPONENTS,
        "Wolf": "Beasts",
    }
