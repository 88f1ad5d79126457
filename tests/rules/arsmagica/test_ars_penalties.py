"""Penalties (ArM3 p177): fatigue and wound penalties only ever lower totals, and never Soak."""

from __future__ import annotations

from ars_helpers import SWORD, attack, fighter
from hypothesis import given, settings
from hypothesis import strategies as st

from arsmagica.rules import (
    BodyLevel,
    FatigueLevel,
    Phase,
    ScriptedDiceBox,
    resolve_round,
    start_fight,
)

ACTING_FATIGUE = [level for level in FatigueLevel if level is not FatigueLevel.UNCONSCIOUS]
ACTING_BODY = [
    BodyLevel.UNHURT,
    BodyLevel.HURT,
    BodyLevel.LIGHT_WOUNDS,
    BodyLevel.MEDIUM_WOUNDS,
    BodyLevel.HEAVY_WOUNDS,
]
face = st.integers(2, 9)


def _totals(fatigue, body, faces):
    combatants = [fighter("a", SWORD, fatigue=fatigue, body=body, soak=50), fighter("b", soak=50)]
    dice = {
        "a": {"initiative": [faces[0]], "combat": [faces[1]], "fatigue": [faces[2]]},
        "b": {"initiative": [faces[3]], "combat": [faces[4]], "fatigue": [faces[5]]},
    }
    _, result = resolve_round(
        start_fight(combatants), [attack("a", "b"), attack("b", "a")], ScriptedDiceBox(dice)
    )
    melee = result.phase(Phase.MELEE)
    initiative = {item.combatant: item.total for item in result.phase(Phase.MOVEMENT).initiative}
    a_attack = [item for item in melee.attacks if item.attacker == "a"][0]
    b_attack = [item for item in melee.attacks if item.attacker == "b"][0]
    fatigue_roll = [item for item in result.phase(Phase.FATIGUE).fatigue if item.combatant == "a"][0]
    return (
        initiative["a"],
        a_attack.attack_total,
        b_attack.defense_total,
        fatigue_roll.total,
        b_attack.soak,
    )


@settings(max_examples=60, deadline=None)
@given(
    fatigue=st.sampled_from(ACTING_FATIGUE),
    body=st.sampled_from(ACTING_BODY),
    faces=st.tuples(face, face, face, face, face, face),
)
def test_penalties_only_ever_lower_totals_and_never_soak(fatigue, body, faces):
    fresh = _totals(FatigueLevel.FRESH, BodyLevel.UNHURT, faces)
    tired = _totals(fatigue, body, faces)
    for unhurt_total, penalised_total in zip(fresh[:4], tired[:4], strict=True):
        assert penalised_total <= unhurt_total
    assert tired[4] == fresh[4]
