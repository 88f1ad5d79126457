"""The campaign tests' sagas, for the personas of tests/personas.py: the storyguide runs them, the player
and the second player play in them, the stranger is in none."""

import pytest

from arsmagica.models import Weapon
from arsmagica.sheet import new_sheet
from campaign import services
from campaign.models import Character, Membership


@pytest.fixture
def saga(storyguide, player, second_player):
    """An Ars Magica saga run by the storyguide, with the player and the second player."""
    saga = services.create_saga(storyguide, name="Sir Boris and the bandits", rule_system="arsmagica")
    Membership.objects.create(saga=saga, user=player, role=Membership.Role.PLAYER)
    Membership.objects.create(saga=saga, user=second_player, role=Membership.Role.PLAYER)
    return saga


@pytest.fixture
def d6_saga(storyguide, player, second_player):
    saga = services.create_saga(storyguide, name="The long chase", rule_system="d6fatigue")
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
