"""The coin duel's model: set-up, flips from typed faces or a seeded die, the end, the archive's commands
and the NPC-rolls setting, each sent as the storyguide, a player or a stranger (tests/model/harness.py)."""

from __future__ import annotations

import pytest
from hypothesis import strategies as st
from hypothesis.stateful import initialize, rule

from campaign import services as campaign_services
from campaign.models import Character
from combat import services as core
from combat.models import Encounter
from combat.rules.dice import RandomDice, ScriptedDice
from tests.coinduel import rules, services

from .harness import NPC_ROLLS, TableModel, people, run, seeds

pytestmark = pytest.mark.django_db

NAMES = ("Ada", "Bruno", "Cleo")
dice = st.one_of(
    st.lists(st.integers(1, 6), min_size=2, max_size=2).map(ScriptedDice), seeds.map(RandomDice)
)


class CoinDuelModel(TableModel):
    system_key = "coinduel"

    def build(self) -> Encounter:
        self.characters = {
            "Ada": Character.objects.create(saga=self.saga, owner=self.player, name="Ada"),
            "Bruno": Character.objects.create(saga=self.saga, name="Bruno", is_npc=True),
            "Cleo": Character.objects.create(saga=self.saga, name="Cleo", is_npc=True),
        }
        return core.create_encounter(self.storyguide, self.saga.pk, "Duel at dawn", "coinduel")

    @initialize(duel=st.booleans())
    def duellists(self, duel):
        """Most examples start with Ada and Bruno facing each other."""
        if duel:
            ids = [self.characters["Ada"].pk, self.characters["Bruno"].pk]
            core.add_combatants(self.storyguide, self.encounter.pk, self.v, ids, "Duellists")

    def who(self, person: str):
        return getattr(self, person)

    def setup_refusal(self):
        return "over" if self.row().status == Encounter.Status.ENDED else None

    @rule(person=people, names=st.lists(st.sampled_from(NAMES), min_size=1, max_size=2, unique=True))
    def add(self, person, names):
        ids = [self.characters[name].pk for name in names]
        self.command(
            "add",
            lambda: core.add_combatants(self.who(person), self.encounter.pk, self.v, ids, "Duellists"),
            refusal=self.setup_refusal(),
            allowed=person == "storyguide",
        )

    @rule(person=people, index=st.integers(0, 3))
    def remove(self, person, index):
        ids = list(self.row().combatants.order_by("pk").values_list("pk", flat=True)) or [0]
        target = ids[index % len(ids)]
        self.command(
            "remove",
            lambda: core.remove_combatant(self.who(person), self.encounter.pk, self.v, target),
            refusal=self.setup_refusal(),
            allowed=person == "storyguide",
        )

    @rule(count=st.integers(1, 2))
    def stamp(self, count):
        """The storyguide stamps copies of Cleo: she becomes a template, added no more herself."""
        campaign_services.stamp_npc_copies(self.characters["Cleo"], count)

    @rule(person=people, dice=dice)
    def flip(self, person, dice):
        duel, _ = services.duel_of(self.row())
        self.command(
            "flip",
            lambda: services.flip(self.who(person), self.encounter.pk, self.v, dice),
            refusal=rules.can_flip(duel),
            allowed=person == "storyguide",
        )

    @rule(person=people)
    def end(self, person):
        ended = self.row().status == Encounter.Status.ENDED
        self.command(
            "end",
            lambda: core.end_encounter(self.who(person), self.encounter.pk, self.v),
            refusal="over" if ended else None,
            allowed=person == "storyguide",
            archive=True,  # refused on an ended encounter by its own precondition
        )

    @rule(person=people, name=st.sampled_from(["Duel at noon", "Ada and Bruno"]))
    def rename(self, person, name):
        self.command(
            "rename",
            lambda: core.rename_encounter(self.who(person), self.encounter.pk, name),
            allowed=person == "storyguide",
            archive=True,
        )

    @rule(person=people, archived=st.booleans())
    def archive(self, person, archived):
        self.command(
            "archive" if archived else "restore",
            lambda: core.set_encounter_archived(self.who(person), self.encounter.pk, archived),
            allowed=person == "storyguide",
            archive=True,
        )

    @rule(setting=NPC_ROLLS)
    def npc_rolls(self, setting):
        self.set_npc_rolls(setting)


def test_the_coin_duel_model():
    run(CoinDuelModel)
