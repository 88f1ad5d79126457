"""Ars Magica's tests: a fight for the personas of tests/personas.py (the storyguide, Alice and Bob playing,
an outsider), Sir Boris (Attack 10, ArM3 p168) and his companion against three bandits with sword, sword
and dagger; and a saga with a knight and an NPC for the campaign's pages."""

import pytest
from django.urls import reverse

from arsmagica import services
from arsmagica.models import Weapon
from arsmagica.rules import ScriptedDiceBox
from arsmagica.services import dice as dice_module
from arsmagica.sheet import new_sheet
from campaign import services as campaign_services
from campaign.models import Character, Membership, Saga
from combat.models import Encounter
from tests import personas


class Table:
    """The people and the fight; `refresh()` reloads the encounter, `v` is its version."""

    def __init__(self, physical=False):
        people = personas.make_people()
        self.storyguide, self.alice, self.bob = people.storyguide, people.player, people.second_player
        self.outsider = people.stranger
        self.saga = Saga.objects.create(name="Test saga", storyguide=self.storyguide, physical_dice=physical)
        Membership.objects.create(saga=self.saga, user=self.storyguide, role=Membership.Role.STORYGUIDE)
        Membership.objects.create(saga=self.saga, user=self.alice, role=Membership.Role.PLAYER)
        Membership.objects.create(saga=self.saga, user=self.bob, role=Membership.Role.PLAYER)
        self.boris_character = self.character(
            "Sir Boris",
            self.alice,
            soak=5,
            combat_fatigue=3,
            weapon=dict(name="Sword", initiative=12, attack=10, defense=8, damage=7, optimum_range="reach"),
        )
        self.anselm_character = self.character(
            "Brother Anselm",
            self.bob,
            soak=4,
            combat_fatigue=2,
            weapon=dict(name="Mace", initiative=3, attack=7, defense=6, damage=8, optimum_range="reach"),
        )
        self.bandit_characters = [
            self.character(f"Bandit {n}", None, soak=3, combat_fatigue=1, weapon=weapon)
            for n, weapon in (
                (1, dict(name="Sword", initiative=5, attack=7, defense=6, damage=6, optimum_range="reach")),
                (2, dict(name="Sword", initiative=5, attack=7, defense=6, damage=6, optimum_range="reach")),
                (3, dict(name="Dagger", initiative=3, attack=6, defense=4, damage=3, optimum_range="touch")),
            )
        ]
        self.encounter = services.create_encounter(self.storyguide, self.saga.pk, "Forest road")
        services.add_combatants(
            self.storyguide,
            self.encounter.pk,
            self.v,
            [self.boris_character.pk, self.anselm_character.pk],
            "Companions",
        )
        services.add_combatants(
            self.storyguide, self.encounter.pk, self.v, [c.pk for c in self.bandit_characters], "Bandits"
        )
        by_name = {c.character.name: c for c in self.refresh().combatants.select_related("character")}
        self.boris, self.anselm = by_name["Sir Boris"], by_name["Brother Anselm"]
        self.bandits = [by_name[f"Bandit {n}"] for n in (1, 2, 3)]

    def character(self, name, owner, *, soak, combat_fatigue, weapon):
        character = Character.objects.create(
            saga=self.saga,
            name=name,
            owner=owner,
            is_npc=owner is None,
            sheet=new_sheet(soak=soak, combat_fatigue=combat_fatigue, dodge_defense=3),
        )
        Weapon.objects.create(character=character, **weapon)
        return character

    def refresh(self) -> Encounter:
        self.encounter.refresh_from_db()
        return self.encounter

    @property
    def v(self) -> int:
        return self.refresh().version

    def weapon(self, combatant):
        return combatant.character.weapons.first().pk

    def boris_attack_form(self) -> tuple[str, dict]:
        """Sir Boris's declaration form as his player posts it: its address, and an attack on a bandit."""
        prefix = f"c{self.boris.pk}-"
        data = {
            prefix + "action": "attack",
            prefix + "weapon": self.weapon(self.boris),
            prefix + "engage": [str(self.bandits[0].pk)],
            prefix + "on_success": "hit",
            prefix + "missile_phase": "first_missile",
        }
        return reverse("arsmagica:declare", args=[self.encounter.pk, self.boris.pk]), data

    def declare_p168(self, dice=None):
        """Sir Boris engages all three at Reach; the bandits engage him, the dagger at Touch (p168)."""
        dice = dice or {}
        services.declare(
            self.alice,
            self.encounter.pk,
            self.boris.pk,
            {
                "action": "attack",
                "weapon_id": self.weapon(self.boris),
                "engage": [b.pk for b in self.bandits],
                "range": "reach",
                "dice": dice.get("boris", {}),
            },
        )
        for index, bandit in enumerate(self.bandits):
            services.declare(
                self.storyguide,
                self.encounter.pk,
                bandit.pk,
                {
                    "action": "attack",
                    "weapon_id": self.weapon(bandit),
                    "engage": [self.boris.pk],
                    "range": "touch" if index == 2 else "reach",
                    "dice": dice.get(f"bandit{index + 1}", {}),
                },
            )

    def ids(self):
        return {
            "boris": str(self.boris.pk),
            "anselm": str(self.anselm.pk),
            **{f"bandit{n}": str(b.pk) for n, b in enumerate(self.bandits, start=1)},
        }


# The dice of p168: Sir Boris's Initiative Total 20 against 23, 15 and 11; his roll of 7.
P168_FACES = {
    "boris": {"initiative": [8], "combat": [7], "fatigue": [9]},
    "bandit1": {"initiative": [1, 9], "combat": [3], "fatigue": [5]},  # 5 + 18 = 23, a lucky roll
    "bandit2": {"initiative": [1, 5], "combat": [4], "fatigue": [2]},  # 5 + 10 = 15
    "bandit3": {"initiative": [8], "combat": [6], "fatigue": [8]},  # 3 + 8 = 11
}


@pytest.fixture
def table(db):
    return Table()


@pytest.fixture
def physical_table(db):
    return Table(physical=True)


@pytest.fixture
def scripted_dice(monkeypatch):
    """Script the server's dice: `scripted_dice(table, P168_FACES)` with faces by persona name."""

    def script(table, faces):
        ids = table.ids()
        box = {ids[name]: purposes for name, purposes in faces.items()}
        monkeypatch.setattr(dice_module, "server_box", lambda: ScriptedDiceBox(box))

    return script


# The campaign's pages on an Ars Magica saga: the personas' (tests/personas.py), with a knight and an NPC.


@pytest.fixture
def saga(storyguide, player, second_player):
    """An Ars Magica saga run by the storyguide, with the player and the second player."""
    name = "Sir Boris and the bandits"
    saga = campaign_services.create_saga(storyguide, name=name, rule_system="arsmagica")
    Membership.objects.create(saga=saga, user=player, role=Membership.Role.PLAYER)
    Membership.objects.create(saga=saga, user=second_player, role=Membership.Role.PLAYER)
    return saga


@pytest.fixture
def boris(saga, player):
    """The player's knight, with a sword."""
    boris = Character.objects.create(
        saga=saga,
        owner=player,
        name="Sir Boris",
        sheet=new_sheet(quickness=1, stamina=2, soak=8, encumbrance=-2),
    )
    Weapon.objects.create(character=boris, name="Long sword", initiative=6, attack=8, defense=5, damage=9)
    return boris


@pytest.fixture
def bandit(saga):
    """The storyguide's NPC template, with a bow and a club."""
    bandit = Character.objects.create(
        saga=saga, name="Bandit", is_npc=True, sheet=new_sheet(soak=4, quickness=1)
    )
    Weapon.objects.create(character=bandit, name="Club", initiative=2, attack=4, defense=2, damage=5)
    Weapon.objects.create(
        character=bandit, name="Short bow", initiative=1, attack=5, damage=6, missile=True, paces=30
    )
    return bandit
