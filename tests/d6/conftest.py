"""A d6 saga for the d6 table tests, for the personas of tests/personas.py: the storyguide, Alice and Bob
(the players), an outsider; Marta (Alice's), Brother Anselm (Bob's) and two bandits (NPCs)."""

import pytest

from campaign import services as campaign_services
from campaign.models import Character, Membership, Saga
from combat import services as combat_services
from combat.models import Encounter
from combat.rules.dice import ScriptedDice
from d6 import services
from d6.services import dice as dice_module
from d6.sheet import new_sheet
from d6.sheet import sheet_of as d6_sheet
from tests import personas


class D6Table:
    """The people, the saga and an encounter with four combatants; `v` is the current version."""

    def __init__(self, physical=False):
        people = personas.make_people()
        self.storyguide, self.alice, self.bob = people.storyguide, people.player, people.second_player
        self.outsider = people.stranger
        self.saga = Saga.objects.create(
            name="Ashford",
            storyguide=self.storyguide,
            rule_system="d6fatigue",
            physical_dice=physical,
        )
        Membership.objects.create(saga=self.saga, user=self.storyguide, role=Membership.Role.STORYGUIDE)
        Membership.objects.create(saga=self.saga, user=self.alice, role=Membership.Role.PLAYER)
        Membership.objects.create(saga=self.saga, user=self.bob, role=Membership.Role.PLAYER)
        running = {"name": "Running", "attribute": "stamina", "consistency": 1, "physical": True}
        swimming = {"name": "Swimming", "attribute": "strength", "consistency": 0, "physical": True}
        self.marta_character = self.character(
            "Marta", self.alice, dexterity=2, stamina=1, strength=0, abilities=[running, swimming]
        )
        self.anselm_character = self.character("Brother Anselm", self.bob, dexterity=0, stamina=2, strength=1)
        self.bandit_characters = [
            self.character(
                f"Bandit {n}", None, dexterity=1, stamina=0, strength=1, abilities=[running, swimming]
            )
            for n in (1, 2)
        ]
        self.encounter = services.create_encounter(self.storyguide, self.saga.pk, "The chase through Ashford")
        combat_services.add_combatants(
            self.storyguide,
            self.encounter.pk,
            self.v,
            [self.marta_character.pk, self.anselm_character.pk],
            "Companions",
        )
        combat_services.add_combatants(
            self.storyguide, self.encounter.pk, self.v, [c.pk for c in self.bandit_characters], "Bandits"
        )
        by_name = {c.character.name: c for c in self.refresh().combatants.select_related("character")}
        self.marta, self.anselm = by_name["Marta"], by_name["Brother Anselm"]
        self.bandits = [by_name["Bandit 1"], by_name["Bandit 2"]]

    def character(self, name, owner, *, abilities=(), **attributes):
        base = max(1, 4 - attributes.get("stamina", 0))
        return Character.objects.create(
            saga=self.saga,
            name=name,
            owner=owner,
            is_npc=owner is None,
            sheet=new_sheet(attributes=attributes, abilities=list(abilities), fatigue=base),
        )

    def refresh(self) -> Encounter:
        self.encounter.refresh_from_db()
        return self.encounter

    def with_npc_rolls(self, npc_rolls: str) -> Encounter:
        """The saga's "NPC rolls players see" set to `npc_rolls`; the encounter as it is now."""
        self.saga.npc_rolls = npc_rolls
        self.saga.save(update_fields=["npc_rolls"])
        return self.refresh()

    @property
    def v(self) -> int:
        return self.refresh().version

    def fatigue(self, combatant) -> int:
        combatant.character.refresh_from_db()
        return d6_sheet(combatant.character).fatigue


@pytest.fixture
def table(db):
    return D6Table()


@pytest.fixture
def physical_table(db):
    return D6Table(physical=True)


@pytest.fixture
def dice(monkeypatch):
    """Script the server's dice: `dice(3, 7, ...)`; a d10 ten is 0, as the die shows it."""

    def script(*faces):
        scripted = ScriptedDice(faces)
        monkeypatch.setattr(dice_module, "server_dice", lambda: scripted)
        return scripted

    return script


@pytest.fixture
def d6_saga(storyguide, player, second_player):
    """The campaign's pages on a d6 saga: the personas' (tests/personas.py), run by the storyguide."""
    saga = campaign_services.create_saga(storyguide, name="The long chase", rule_system="d6fatigue")
    Membership.objects.create(saga=saga, user=player, role=Membership.Role.PLAYER)
    Membership.objects.create(saga=saga, user=second_player, role=Membership.Role.PLAYER)
    return saga
