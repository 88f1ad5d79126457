"""Issue 10, item 7: a combatant leaves a d6 encounter as a logged event before the fight or chase is
under way; while one runs (its turns rebuilt from who is in it), the refusal says so in plain words."""

import pytest
from django.test import Client
from django.urls import reverse

from combat import services as combat_services
from combat.errors import WrongPhase
from d6 import services


def test_a_combatant_leaves_before_the_fight_as_a_logged_event(table):
    bandit = table.bandits[1]
    combat_services.remove_combatant(table.storyguide, table.encounter.pk, table.v, bandit.pk)
    encounter = table.refresh()
    assert not encounter.combatants.filter(pk=bandit.pk).exists()
    last = encounter.events.order_by("-seq").first()
    assert last.kind == "combatant_removed" and last.payload["name"] == bandit.character.name


def test_nobody_leaves_while_the_fight_runs(table, dice):
    dice(2, 3, 8, 4, 5, 1, 1, 6)
    services.start_fight(table.storyguide, table.encounter.pk, table.v)
    client = Client()
    client.force_login(table.storyguide)
    page = client.get(reverse("d6:table", args=[table.encounter.pk])).content.decode()
    assert 'data-testid="remove-' not in page
    version = table.v
    with pytest.raises(WrongPhase, match="^Combatants join or leave before the fight or the chase starts"):
        combat_services.remove_combatant(table.storyguide, table.encounter.pk, version, table.bandits[0].pk)
    assert table.v == version and table.encounter.combatants.filter(pk=table.bandits[0].pk).exists()
