"""The declaration form says in which missile phases each weapon fires, and the round fires it there: a short
bow that fires twice shoots in both missile phases whatever "Shoot in" says, a sling only in the phase
chosen (ArM3 p163; issue 31, item 8: the form said "Shoot in: First Missile" of a bow that fired twice)."""

import pytest
from django.urls import reverse

from arsmagica import services
from arsmagica.models import Weapon
from combat.models import Event
from tests.personas import login

from .test_services import resolve

pytestmark = pytest.mark.django_db

PHASES = ("first_missile", "melee", "second_missile", "magic", "fatigue")
BOTH = "Short bow fires in First Missile and Second Missile, whichever is chosen."
ONCE = "Sling fires in the phase chosen here."


@pytest.fixture
def archers(table):
    """Sir Boris with a short bow (fires twice), Brother Anselm with a sling (fires once), declarations
    open."""
    bow = Weapon.objects.create(
        character=table.boris_character, name="Short bow", initiative=5, attack=8, damage=6,
        optimum_range="long", missile=True, paces=60, twice=True,
    )  # fmt: skip
    sling = Weapon.objects.create(
        character=table.anselm_character, name="Sling", initiative=3, attack=5, damage=4,
        optimum_range="long", missile=True, paces=40,
    )  # fmt: skip
    services.open_declarations(table.storyguide, table.encounter.pk, table.v)
    return table, bow, sling


def shooting_help(client, table, person, combatant) -> str:
    """The help under "Shoot in" of the combatant's declaration form, as its player gets it."""
    login(client, person)
    url = reverse("arsmagica:declaration_form", args=[table.encounter.pk, combatant.pk])
    html = client.get(url, HTTP_HX_REQUEST="true").content.decode()
    client.logout()
    start = html.index(f'id="id_c{combatant.pk}-missile_phase_helptext">')
    return html[start:].split(">", 1)[1].split("<", 1)[0]


def test_the_form_says_a_bow_that_fires_twice_fires_in_both_phases_and_a_sling_once(client, archers):
    table, _, _ = archers
    assert shooting_help(client, table, table.alice, table.boris) == BOTH
    assert shooting_help(client, table, table.bob, table.anselm) == ONCE


def test_the_round_fires_each_weapon_in_the_phases_its_form_named(client, archers):
    table, bow, sling = archers
    for person, combatant, weapon in ((table.alice, table.boris, bow), (table.bob, table.anselm, sling)):
        values = {
            "action": "missile", "weapon_id": weapon.pk, "engage": [table.bandits[0].pk],
            "missile_phase": "first_missile", "distance": 20,
        }  # fmt: skip
        services.declare(person, table.encounter.pk, combatant.pk, values)
    for bandit in table.bandits:
        services.declare(table.storyguide, table.encounter.pk, bandit.pk, {"action": "other"})
    services.close_declarations(table.storyguide, table.encounter.pk, table.v)
    for phase in PHASES:
        resolve(table, phase)
    # A shot at a target already dead is a `skipped` entry of the phase it would have been in.
    shots = Event.objects.filter(encounter=table.encounter, kind__in=("attack", "skipped"))
    shooter = {e.pk: e.payload.get("attacker", e.payload.get("combatant")) for e in shots}
    fired = {who: sorted({e.phase for e in shots if shooter[e.pk] == who}) for who in set(shooter.values())}
    assert fired[str(table.boris.pk)] == ["first_missile", "second_missile"]
    assert fired[str(table.anselm.pk)] == ["first_missile"]
    assert shooting_help(client, table, table.alice, table.boris) == BOTH  # the same words after the round
