"""NPC templates (NPCs with stamped copies) stay out of "Add to the fight" and "Time passes":
a group takes part through its copies; a template already in a fight keeps working."""

import pytest
from django.test import Client
from django.urls import reverse

from arsmagica import services
from arsmagica.panels import setup_context
from arsmagica.services import recovery
from arsmagica.sheet import new_sheet
from campaign.models import Character
from campaign.services import stamp_npc_copies
from combat import services as combat_services
from combat.audience import STORYGUIDE
from combat.errors import InvalidCommand
from d6 import services as d6_services
from d6.panels import state_context
from tests.d6.conftest import D6Table
from tests.personas import PASSWORD


def _wolf_and_copies(saga, sheet):
    wolf = Character.objects.create(saga=saga, name="Wolf", is_npc=True, sheet=sheet)
    return wolf, stamp_npc_copies(wolf, 2, "Wolf")


def _choices(form) -> set[str]:
    return {label for _, label in form.fields["characters"].choices}


def test_the_add_to_the_fight_list_offers_the_copies_not_the_template(table):
    wolf, copies = _wolf_and_copies(table.saga, new_sheet(soak=2, combat_fatigue=1, dodge_defense=3))
    encounter = services.create_encounter(table.storyguide, table.saga.pk, "Wolves")
    offered = _choices(setup_context(encounter, [])["add_form"])
    assert {f"{copy.name} (NPC)" for copy in copies} <= offered
    assert "Wolf (NPC)" not in offered
    assert "Sir Boris, played by alice" in offered


def test_adding_a_template_is_refused_with_a_plain_message(table):
    wolf, _ = _wolf_and_copies(table.saga, new_sheet(soak=2, combat_fatigue=1, dodge_defense=3))
    encounter = services.create_encounter(table.storyguide, table.saga.pk, "Wolves")
    version = encounter.version
    with pytest.raises(InvalidCommand, match="Wolf is an NPC template"):
        combat_services.add_combatants(table.storyguide, encounter.pk, version, [wolf.pk], "Opponents")
    assert not encounter.combatants.exists()


def test_a_template_already_in_a_fight_keeps_working(table):
    bandit = table.bandit_characters[0]
    stamp_npc_copies(bandit, 1, "Bandit")
    encounter = table.refresh()
    cards = [
        type("Card", (), {"character": c.character, "combatant": c})() for c in encounter.combatants.all()
    ]
    context = setup_context(encounter, cards)
    assert "Bandit 1" in {label for _, label in context["correction_form"].fields["combatant"].choices}
    services.open_declarations(table.storyguide, encounter.pk, table.v)
    table.declare_p168()  # the storyguide still declares for it
    assert encounter.combatants.get(character=bandit).declarations.exists()


def test_time_passes_lists_no_template_and_refuses_one(table):
    wolf, copies = _wolf_and_copies(table.saga, new_sheet(soak=2, combat_fatigue=1, dodge_defense=3))
    client = Client()
    client.login(username="sg", password=PASSWORD)
    page = client.get(reverse("arsmagica:saga_time", args=[table.saga.pk])).content.decode()
    assert f'data-testid="scene-{copies[0].pk}"' in page
    assert f'data-testid="scene-{wolf.pk}"' not in page
    with pytest.raises(InvalidCommand, match="Wolf is an NPC template"):
        recovery.pass_time(table.storyguide, 10, saga_id=table.saga.pk, character_ids=[wolf.pk])


@pytest.mark.django_db
def test_the_d6_add_list_offers_the_copies_not_the_template():
    d6 = D6Table()
    from d6.sheet import new_sheet as d6_sheet

    wolf, copies = _wolf_and_copies(d6.saga, d6_sheet())
    encounter = d6_services.create_encounter(d6.storyguide, d6.saga.pk, "Wolves")
    names = {c.name for c in state_context(encounter, STORYGUIDE)["available"]}
    assert {copy.name for copy in copies} <= names and "Wolf" not in names
