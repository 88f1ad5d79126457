"""The coin duel's model: set-up, flips from typed faces or a seeded die, the end, the archive's commands
and the NPC-rolls setting, each sent as the storyguide, a player or a stranger (tests/model/harness.py)."""

from __future__ import annotations

import pytest
from hypothesis import strategies as st
from hypothesis.stateful import rule

from campaign.models import Character
from combat import services as core
from combat.models import Encounter
from combat.rules.dice import RandomDice, ScriptedDice
from tests.coinduel import rules, services

from .harness import TableModel, people, run, seeds

pytestmark = pytest.mark.django_db

dice = st.one_of(
    st.lists(st.integers(1, 6), min_size=2, max_size=2).map(ScriptedDice), seeds.map(RandomDice)
)


class CoinDuelModel(TableModel):
    system_key = "coinduel"
    starting_sides = ((("Ada", "Bruno"), "Duellists"),)
    template = "Cleo"

    def build(self) -> Encounter:
        self.characters = {
            "Ada": Character.objects.create(saga=self.saga, owner=self.player, name="Ada"),
            "Bruno": Character.objects.create(saga=self.saga, name="Bruno", is_npc=True),
            "Cleo": Character.objects.create(saga=self.saga, name="Cleo", is_npc=True),
        }
        return core.create_encounter(self.storyguide, self.saga.pk, "Duel at dawn", "coinduel")

    @rule(person=people, dice=dice)
    def flip(self, person, dice):
        duel, _ = services.duel_of(self.row())
        self.command(
            "flip",
            lambda: services.flip(self.who(person), self.encounter.pk, self.v, dice),
            refusal=rules.can_flip(duel),
            allowed=person == "storyguide",
        )


def test_the_coin_duel_model():
    run(CoinDuelModel)
