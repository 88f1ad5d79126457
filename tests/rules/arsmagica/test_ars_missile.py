"""First and Second Missile (ArM3 p163, p168): shots resolved like melee."""

from __future__ import annotations

from ars_helpers import BOW, SLING, SWORD, attack, fighter

from arsmagica.rules import (
    Action,
    BodyLevel,
    Declaration,
    DefenseWith,
    OnSuccess,
    Phase,
    Result,
    ScriptedDiceBox,
    declare,
    first_missile_phase,
    melee_phase,
    movement_phase,
    second_missile_phase,
    start_fight,
)


def shoot(target: str, combatant: str = "archer", weapon: str = "bow", **fields) -> Declaration:
    return Declaration(combatant, Action.MISSILE, weapon, (target,), **fields)


def _phases(combatants, declarations, faces):
    box = ScriptedDiceBox(faces)
    state = declare(start_fight(combatants), declarations)
    state, _ = movement_phase(state, box)
    state, first = first_missile_phase(state, box)
    state, melee = melee_phase(state, box)
    state, second = second_missile_phase(state, box)
    return state, first, melee, second


def test_a_missile_attack_is_attack_plus_missile_die_against_the_targets_defense_or_dodge():
    target = fighter("target", SWORD, dodge=7)
    _, first, _, _ = _phases(
        [fighter("archer", BOW), target],
        [shoot("target"), Declaration("target", Action.OTHER, "sword")],
        {"archer": {"initiative": [5], "missile": [8]}, "target": {"initiative": [5], "combat": [3]}},
    )
    (record,) = first.attacks
    assert record.phase is Phase.FIRST_MISSILE
    assert record.attack_total == 7 + 8
    assert record.defense_with is DefenseWith.DODGE  # Dodge 7 beats the sword's Defense 5
    assert record.defense_total == 7 + 3
    assert record.result is Result.HIT and record.damage_total == 8 + 5


def test_the_targets_one_combat_die_serves_its_defense_against_missiles_and_melee():
    combatants = [fighter("archer", BOW), fighter("target"), fighter("foe")]
    state, first, melee, _ = _phases(
        combatants,
        [shoot("target"), attack("target", "foe"), attack("foe", "target")],
        {
            "archer": {"initiative": [5], "missile": [8]},
            "target": {"initiative": [6], "combat": [4]},
            "foe": {"initiative": [2], "combat": [3]},
        },
    )
    assert first.attacks[0].defense_roll.faces == (4,)
    assert melee.attacks[0].attack_roll.faces == (4,)
    assert [die.combatant for die in state.combat_dice] == ["target", "foe"]


def test_a_missile_weapon_that_cannot_fire_twice_fires_in_the_declared_phase_only():
    _, first, _, second = _phases(
        [fighter("archer", BOW), fighter("target")],
        [shoot("target", missile_phase=Phase.SECOND_MISSILE)],
        {"archer": {"initiative": [5], "missile_second": [6]}, "target": {"combat": [2]}},
    )
    assert first.attacks == ()
    assert [record.phase for record in second.attacks] == [Phase.SECOND_MISSILE]
    assert second.attacks[0].attack_roll.faces == (6,)


def test_a_weapon_that_fires_twice_fires_in_both_missile_phases():
    _, first, _, second = _phases(
        [fighter("slinger", SLING), fighter("target")],
        [shoot("target", "slinger", "sling")],
        {"slinger": {"initiative": [5], "missile": [6], "missile_second": [7]}, "target": {"combat": [2]}},
    )
    assert len(first.attacks) == len(second.attacks) == 1


def test_shots_go_in_acting_order_and_a_shooter_downed_first_does_not_shoot():
    heavy = BOW.__class__("arbalest", 0, 30, 0, 40, BOW.range, True, 80)
    combatants = [fighter("archer", heavy), fighter("target", BOW)]
    _, first, _, _ = _phases(
        combatants,
        [shoot("target", weapon="arbalest"), shoot("archer", "target")],
        {"archer": {"initiative": [9], "missile": [5]}, "target": {"initiative": [2], "combat": [2]}},
    )
    assert [record.attacker for record in first.attacks] == ["archer"]
    assert first.deaths == ("target",)
    assert [(item.combatant, item.reason) for item in first.skipped] == [("target", "Target is down")]


def test_nobody_shoots_the_dead_twice():
    heavy = BOW.__class__("arbalest", 0, 30, 0, 40, BOW.range, True, 80)
    combatants = [fighter("archer", heavy), fighter("second", heavy), fighter("target")]
    _, first, _, _ = _phases(
        combatants,
        [shoot("target", weapon="arbalest"), shoot("target", "second", "arbalest")],
        {
            "archer": {"initiative": [9], "missile": [5]},
            "second": {"initiative": [2], "missile": [5]},
            "target": {"combat": [2]},
        },
    )
    assert [item.reason for item in first.skipped] == ["Target is already dead"]


def test_a_shot_can_be_kept_as_advantage():
    state, first, _, _ = _phases(
        [fighter("archer", BOW), fighter("target")],
        [shoot("target", on_success=OnSuccess.ADVANTAGE_DEFENSE)],
        {"archer": {"initiative": [5], "missile": [8]}, "target": {"combat": [2]}},
    )
    assert first.attacks[0].result is Result.ADVANTAGE
    assert state.combatant("archer").next_advantage_defense == first.attacks[0].difference
    assert state.combatant("target").body_level is BodyLevel.UNHURT


def test_a_missile_that_does_not_beat_the_defense_does_nothing():
    state, first, _, _ = _phases(
        [fighter("archer", BOW), fighter("target", dodge=20)],
        [shoot("target")],
        {"archer": {"initiative": [5], "missile": [2]}, "target": {"combat": [5]}},
    )
    assert first.attacks[0].result is Result.MISS and first.attacks[0].damage_total is None
    assert state.combatant("archer").next_advantage_attack == 0


def test_a_shooter_engaged_hand_to_hand_defends_with_dodge_not_the_bow():
    _, _, melee, _ = _phases(
        [fighter("archer", BOW, dodge=4), fighter("foe")],
        [shoot("foe"), attack("foe", "archer")],
        {
            "archer": {"initiative": [5], "missile": [2], "combat": [3]},
            "foe": {"initiative": [2], "combat": [3]},
        },
    )
    (record,) = melee.attacks
    assert record.defense_with is DefenseWith.DODGE and record.defense_total == 4 + 3
