"""The campaign tests' saga, for the personas of tests/personas.py: the storyguide runs it, the player and
the second player play in it, the stranger is in none. It plays the coin duel (tests/coinduel), whose sheet
is a name and notes: what the campaign's pages do for every system (an Ars Magica or d6 sheet on them is
tested in tests/arsmagica and tests/d6)."""

import pytest

from campaign import services
from campaign.models import Character, Membership
from tests.coinduel import KEY


def character_form(name: str, **fields) -> dict:
    """A coin duel character's form as posted: its name and notes (its sheet has no rows)."""
    return {"name": name, "notes": "", "rows-TOTAL_FORMS": "0", "rows-INITIAL_FORMS": "0", **fields}


@pytest.fixture
def saga(storyguide, player, second_player):
    """A coin duel saga run by the storyguide, with the player and the second player."""
    saga = services.create_saga(storyguide, name="Sir Boris and the bandits", rule_system=KEY)
    Membership.objects.create(saga=saga, user=player, role=Membership.Role.PLAYER)
    Membership.objects.create(saga=saga, user=second_player, role=Membership.Role.PLAYER)
    return saga


@pytest.fixture
def boris(saga, player):
    """The player's character."""
    return Character.objects.create(saga=saga, owner=player, name="Sir Boris")


@pytest.fixture
def bandit(saga):
    """The storyguide's NPC template."""
    return Character.objects.create(saga=saga, name="Bandit", is_npc=True)
