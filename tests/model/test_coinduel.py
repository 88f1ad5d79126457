"""The coin duel's model: set-up, flips from typed faces or a seeded die, the end, the archive's commands
and the NPC-rolls setting, each sent as the storyguide, a player or a stranger (tests/model/harness.py)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import strategies as st
from hypothesis.stateful import rule

from campaign.models import Character
from combat import services as core
from combat.models import Encounter
from combat.rules.dice import RandomDice, ScriptedDice
from tests.coinduel import rules, services

from .harness import TableModel, checked, people, run, seeds

pytestmark = pytest.mark.django_db

dice = st.one_of(
    st.lists(st.integers(1, 6), min_size=2, max_size=2).map(ScriptedDice), seeds.map(RandomDice)
)


class CoinDuelModel(TableModel):
    system_key = "coinduel"
    starting_sides = ((("Ada", "Bruno"), "Duellists"),)
    template = "Cleo"

    def build(self) -> Encounter:
        self.know(Character.objects.create(saga=self.saga, owner=self.player, name="Ada"), "Ada")
        self.know(Character.objects.create(saga=self.saga, name="Bruno", is_npc=True), "Bruno")
        self.know(Character.objects.create(saga=self.saga, name="Cleo", is_npc=True), "Cleo")
        return core.create_encounter(self.storyguide, self.saga.pk, "Duel at dawn", "coinduel")

    @rule(person=people, dice=dice)
    def flip(self, person, dice):
        duel, _ = services.duel_of(self.row())
        self.command(
            "flip",
            lambda: services.flip(self.who(person), self.encounter.pk, self.v, dice),
            refusal=rules.can_flip(duel),
            allowed=self.holds(person),
        )

    @rule(person=people, index=st.integers(0, 2))
    def concede(self, person, index):
        """A duellist yields (the third choice names nobody in the duel: bad input, refused)."""
        duel, _ = services.duel_of(self.row())
        who = (*duel.duellists, "0", "0", "0")[index]
        self.command(
            "concede",
            lambda: services.concede(self.who(person), self.encounter.pk, self.v, who),
            refusal=rules.can_concede(duel),
            allowed=self.holds(person),
        )


def test_the_coin_duel_model():
    run(CoinDuelModel)


def test_a_duellist_who_yields_loses_through_the_page():
    """Ada yields at one hit to none: the page's button posts her combatant; Bruno wins, the duel ends, and
    the page offers no flip and no yielding after it."""
    machine = CoinDuelModel()
    try:
        machine.sides(start=True)  # Ada and Bruno, duellists
        services.flip(machine.storyguide, machine.encounter.pk, machine.v, ScriptedDice([2, 1]))
        ada = machine.row().combatants.get(character__name="Ada")
        client = Client()
        client.force_login(machine.storyguide)
        page = reverse("encounter_page", args=[machine.encounter.pk])
        url = reverse("coinduel:concede", args=[machine.encounter.pk])
        assert f'hx-post="{url}"' in client.get(page).content.decode()
        answer = client.post(url, {"expected_version": machine.v, "duellist": ada.pk}, HTTP_HX_REQUEST="true")
        assert answer.status_code == 200 and answer.content == b""
        encounter = machine.row()
        assert encounter.status == Encounter.Status.ENDED
        assert encounter.events.order_by("seq").last().payload["name"] == "Bruno"
        assert url not in client.get(page).content.decode()
    finally:
        machine.teardown()


def test_a_copy_that_takes_a_renamed_copys_name_is_known_after_a_restore():
    """The soak's failure of issue 35, item 16 (seed 3145562161), replayed step by step: two copies of Cleo
    stamped, "Cleo 2" renamed, one more stamped (taking the freed name "Cleo 2"), the saga deleted and
    restored: the machine knows all six characters, and plays on in the restored saga; every invariant
    holds after each step, and the example's last checks at its end."""
    machine = CoinDuelModel()
    try:
        checked(machine)
        machine.stamp(2)
        checked(machine)
        copy = next(c for c in machine.characters.values() if c.name == "Cleo 2")
        machine.rename_character(sorted(machine.characters).index(copy.pk), "Old Tom")
        checked(machine)
        machine.stamp(1)
        checked(machine)
        assert sorted(c.name for c in machine.saga.characters.all()) == [
            "Ada", "Bruno", "Cleo", "Cleo 1", "Cleo 2", "Old Tom"
        ]
        machine.delete_and_restore()
        checked(machine)
        assert len(machine.characters) == 6
        machine.knows_every_character()
        machine.add("storyguide", 5, "Bandits")  # the new "Cleo 2", in the restored saga
        checked(machine)
        assert machine.steps[-1] == "add", machine.steps
        assert machine.row().combatants.get().character.name == "Cleo 2"
    finally:
        machine.teardown()
