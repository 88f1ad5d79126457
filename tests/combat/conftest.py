"""The core's tests play the coin duel (tests/coinduel), the test-only third system, so that they name no
real one: a saga of the personas (tests/personas.py) where Alice's Ada duels the storyguide's Bruno, and
Bob plays too, with no character in the duel."""

import pytest

from campaign import services as campaign_services
from campaign.models import Character, Membership
from combat import services
from combat.models import Encounter
from combat.rules.dice import ScriptedDice
from tests import personas
from tests.coinduel import KEY
from tests.coinduel import services as coin

HEADS, TAILS = 2, 1  # an even d6 is heads
# A Daphne of these tests (tests.browser.server) runs the test settings, where the coin duel is installed.
SERVES_THE_DUEL = {"DJANGO_SETTINGS_MODULE": "tests.settings"}


class Table:
    """The people, the saga and the duel; `refresh()` reloads the encounter, `v` is its version."""

    def __init__(self, physical=False):
        people = personas.make_people()
        self.storyguide, self.alice, self.bob = people.storyguide, people.player, people.second_player
        self.outsider = people.stranger
        self.saga = campaign_services.create_saga(
            self.storyguide, name="Test saga", rule_system=KEY, physical_dice=physical
        )
        Membership.objects.create(saga=self.saga, user=self.alice, role=Membership.Role.PLAYER)
        Membership.objects.create(saga=self.saga, user=self.bob, role=Membership.Role.PLAYER)
        self.ada_character = Character.objects.create(saga=self.saga, owner=self.alice, name="Ada")
        self.bruno_character = Character.objects.create(saga=self.saga, name="Bruno", is_npc=True)
        self.encounter = services.create_encounter(self.storyguide, self.saga.pk, "Duel at dawn", KEY)
        services.add_combatants(
            self.storyguide,
            self.encounter.pk,
            self.v,
            [self.ada_character.pk, self.bruno_character.pk],
            "Duellists",
        )
        by_name = {c.character.name: c for c in self.refresh().combatants.select_related("character")}
        self.ada, self.bruno = by_name["Ada"], by_name["Bruno"]

    def refresh(self) -> Encounter:
        self.encounter.refresh_from_db()
        return self.encounter

    @property
    def v(self) -> int:
        return self.refresh().version

    def flip(self, ada=HEADS, bruno=TAILS):
        """One turn of the duel, the storyguide's command, on the faces given (Ada heads, Bruno tails)."""
        return coin.flip(self.storyguide, self.encounter.pk, self.v, ScriptedDice([ada, bruno]))


@pytest.fixture
def table(db):
    return Table()
