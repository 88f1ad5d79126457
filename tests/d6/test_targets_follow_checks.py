"""The d6 fight's target lists (the turn's attack, a ranged attack into a cluster) are whom the roll's check
takes as a target (`can_roll`): every other fighter, and nobody once the turn's action is spent (issue 35,
item 7)."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from d6 import services
from d6.panels import state_context
from d6.rules import table as rules
from d6.state import table_state

from .test_fight import start

pytestmark = pytest.mark.django_db


def offered(html: str, testid: str) -> set[str]:
    """The combatant ids a select or the cluster's boxes offer (the empty "nobody" option left out)."""
    if testid == "roll-target":
        select = re.search(r'<select[^>]*data-testid="roll-target".*?</select>', html, re.S).group(0)
        return set(re.findall(r'<option\s+value="(\d+)"', select))
    return set(re.findall(r'name="targets"\s+value="(\d+)"', html))


def test_the_turn_s_targets_are_those_the_check_takes(table, dice):
    start(table, dice)  # Marta acts first
    client = Client()
    client.force_login(table.storyguide)
    html = client.get(reverse("d6:table", args=[table.encounter.pk])).content.decode()
    others = {str(c.pk) for c in (table.anselm, *table.bandits)}
    assert offered(html, "roll-target") == others and offered(html, "cluster") == others
    encounter = table.refresh()
    state = table_state(encounter)
    for target in others | {str(table.marta.pk)}:
        refusal = rules.can_roll(state, rules.STORYGUIDE, str(table.marta.pk), target=target)
        assert (refusal is None) == (target in others)


def test_a_spent_turn_offers_no_target(table, dice):
    start(table, dice)
    services.take_breather(table.storyguide, table.encounter.pk, table.v)
    assert state_context(table.refresh(), "storyguide")["targets"] == []
