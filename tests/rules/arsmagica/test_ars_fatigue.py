"""The Fatigue phase (ArM3 p168) and fatigue tests outside combat (ArM3 p177)."""

from __future__ import annotations

import pytest
from ars_helpers import attack, fighter

from arsmagica.rules import (
    Action,
    BodyLevel,
    Declaration,
    Exertion,
    FatigueLevel,
    FatigueState,
    Phase,
    PhaseOptions,
    ScriptedDiceBox,
    fatigue_test,
    resolve_round,
    start_fight,
)
from combat.rules.dice import ScriptedDice


def _fatigue_after_a_fight(face, options=None, **scores):
    combatants = [fighter("a", **scores), fighter("b")]
    faces = {
        "a": {"initiative": [5], "combat": [5], "fatigue": face},
        "b": {"initiative": [4], "combat": [5], "fatigue": [9]},
    }
    state, result = resolve_round(
        start_fight(combatants),
        [attack("a", "b"), attack("b", "a")],
        ScriptedDiceBox(faces),
        options or PhaseOptions(),
    )
    return state, result.phase(Phase.FATIGUE)


def _roll_of(phase, combatant):
    (roll,) = [item for item in phase.fatigue if item.combatant == combatant]
    return roll


@pytest.mark.parametrize(
    ("face", "combat_fatigue", "levels_lost", "rule"),
    [
        ([4], 2, 1, "a total of 6 does not beat an ease factor of 6: the seed page wins"),
        ([5], 2, 0, "7 beats 6"),
        ([0, 0], 9, 2, "a botch costs two levels"),
        ([0, 5], 9, 0, "a first 0 without a botch is 0 + Combat Fatigue"),
    ],
)
def test_fatigue_phase_stress_die_plus_combat_fatigue_must_beat_6(face, combat_fatigue, levels_lost, rule):
    state, phase = _fatigue_after_a_fight(face, combat_fatigue=combat_fatigue)
    roll = _roll_of(phase, "a")
    assert roll.ease_factor == 6
    assert roll.levels_lost == levels_lost, rule
    assert len(state.combatant("a").fatigue.lost) == levels_lost


def test_wound_and_fatigue_penalties_apply_to_the_fatigue_roll():
    _, phase = _fatigue_after_a_fight(
        [9], combat_fatigue=2, soak=30, body=BodyLevel.MEDIUM_WOUNDS, fatigue=FatigueLevel.WEARY
    )
    assert _roll_of(phase, "a").total == 9 + 2 - 3 - 1


def test_the_storyguide_may_change_the_ease_factor_per_combatant():
    _, phase = _fatigue_after_a_fight([9], PhaseOptions(ease_factors={"a": 12}), combat_fatigue=2)
    assert _roll_of(phase, "a").ease_factor == 12 and _roll_of(phase, "a").levels_lost == 1
    assert _roll_of(phase, "b").ease_factor == 6


def test_only_combatants_who_engaged_hand_to_hand_roll_unless_the_storyguide_asks():
    combatants = [fighter("a"), fighter("b"), fighter("runner")]
    declarations = [attack("a", "b"), Declaration("runner", Action.MOVE)]
    faces = {
        "a": {"initiative": [5], "combat": [5], "fatigue": [9]},
        "b": {"combat": [5], "fatigue": [9]},
        "runner": {"initiative": [5], "fatigue": [1, 2]},
    }
    _, plain = resolve_round(start_fight(combatants), declarations, ScriptedDiceBox(faces))
    assert [roll.combatant for roll in plain.phase(Phase.FATIGUE).fatigue] == ["a", "b"]
    _, asked = resolve_round(
        start_fight(combatants),
        declarations,
        ScriptedDiceBox(faces),
        PhaseOptions(extra_fatigue_rollers=("runner",)),
    )
    assert [roll.combatant for roll in asked.phase(Phase.FATIGUE).fatigue] == ["a", "runner", "b"]


def test_a_combatant_knocked_out_in_melee_makes_no_fatigue_roll():
    combatants = [fighter("a"), fighter("b", body=BodyLevel.HEAVY_WOUNDS)]
    faces = {"a": {"initiative": [5], "combat": [9], "fatigue": [9]}, "b": {"combat": [2]}}
    _, result = resolve_round(start_fight(combatants), [attack("a", "b")], ScriptedDiceBox(faces))
    phase = result.phase(Phase.FATIGUE)
    assert [roll.combatant for roll in phase.fatigue] == ["a"]
    assert [item.combatant for item in phase.skipped] == ["b"]


@pytest.mark.parametrize(
    ("faces", "stamina", "levels_lost"),
    [([4], 2, 0), ([3], 2, 1), ([0, 0], 9, 2)],  # meeting the ease factor is enough here
)
def test_fatigue_test_stamina_plus_encumbrance_against_6_meet_or_exceed(faces, stamina, levels_lost):
    after, roll = fatigue_test("a", ScriptedDice(faces), FatigueState(), stamina=stamina, encumbrance=0)
    assert roll.levels_lost == levels_lost and roll.kind == "test"
    assert len(after.lost) == levels_lost


def test_fatigue_test_for_long_term_exertion_marks_the_level_long_term():
    after, _ = fatigue_test(
        "a", ScriptedDice([2]), FatigueState(), stamina=0, encumbrance=-1, exertion=Exertion.LONG_TERM
    )
    assert after.lost == (Exertion.LONG_TERM,)


def test_fatigue_penalties_apply_to_further_fatigue_tests():
    _, roll = fatigue_test(
        "a", ScriptedDice([7]), FatigueState.at(FatigueLevel.TIRED), stamina=1, encumbrance=0
    )
    assert roll.total == 7 + 1 - 3 and roll.levels_lost == 1
