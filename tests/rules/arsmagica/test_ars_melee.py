"""Melee (ArM3 p168): totals, hit or advantage, damage against Soak, wounds at once."""

from __future__ import annotations

from dataclasses import replace

import pytest
from ars_helpers import DAGGER, SPEAR, SWORD, attack, attack_by, fighter, melee, to_melee

from arsmagica.rules import (
    DEFAULT_OPTIONS,
    Action,
    BodyLevel,
    BodyTrack,
    Declaration,
    DefenseWith,
    FatigueLevel,
    OnSuccess,
    PhaseOptions,
    Range,
    Result,
    ScriptedDiceBox,
    body_levels_lost,
    can_strike,
    damage_total,
    end_round,
    exchange_result,
    fatigue_phase,
    magic_phase,
    melee_phase,
    multiple_opponents_penalty,
    range_penalty,
    resolve_round,
    second_missile_phase,
)
from arsmagica.rules.exchange import deals_damage_first


def _duel(a_face, b_face, a=None, b=None, a_fields=None, b_fields=None, options=DEFAULT_OPTIONS):
    combatants = [a or fighter("a"), b or fighter("b")]
    declarations = [attack("a", "b", **(a_fields or {})), attack("b", "a", **(b_fields or {}))]
    faces = {"a": {"initiative": [9], "combat": [a_face]}, "b": {"initiative": [2], "combat": [b_face]}}
    return melee(combatants, declarations, faces, options)


@pytest.mark.parametrize(
    ("optimum", "engaged_at", "penalty"),
    [
        (Range.REACH, Range.TOUCH, -6),
        (Range.LONG, Range.TOUCH, -12),
        (Range.LONG, Range.REACH, -6),
        (Range.REACH, Range.REACH, 0),
        (Range.TOUCH, Range.REACH, 0),
    ],
)
def test_minus_six_per_step_inside_the_weapons_optimum_range(optimum, engaged_at, penalty):
    assert range_penalty(optimum, engaged_at) == penalty


def test_sword_at_touch_takes_minus_six():
    _, result, _ = _duel(
        5,
        5,
        b=fighter("b", DAGGER),
        a_fields={"range": Range.TOUCH},
        b_fields={"weapon": "dagger", "range": Range.TOUCH},
    )
    assert attack_by(result, "a", "b").attack_total == 6 + 5 - 6


def test_a_weapon_cannot_strike_at_a_range_longer_than_its_optimum():
    assert not can_strike(Range.TOUCH, Range.REACH)
    assert can_strike(Range.LONG, Range.TOUCH)


def test_a_dagger_held_off_at_reach_still_defends_without_penalty():
    _, result, _ = _duel(5, 5, b=fighter("b", DAGGER), b_fields={"weapon": "dagger"})
    record = attack_by(result, "a", "b")
    assert record.defense_total == 2 + 5 and record.defense_with is DefenseWith.WEAPON
    assert [item.reason for item in result.skipped] == [
        "B's dagger cannot strike at reach, beyond its touch range"
    ]


@pytest.mark.parametrize(("opponents", "penalty"), [(1, 0), (2, -3), (3, -6), (4, -9), (0, 0)])
def test_minus_three_per_opponent_beyond_the_first(opponents, penalty):
    assert multiple_opponents_penalty(opponents) == penalty


def test_attack_total_is_attack_plus_die_and_defense_total_defense_plus_the_same_die():
    _, result, _ = _duel(7, 4)
    a_on_b = attack_by(result, "a", "b")
    b_on_a = attack_by(result, "b", "a")
    assert a_on_b.attack_total == 6 + 7 and a_on_b.defense_total == 5 + 4
    assert b_on_a.attack_total == 6 + 4 and b_on_a.defense_total == 5 + 7
    assert a_on_b.attack_roll is b_on_a.defense_roll  # one die for the whole round


def test_hit_damage_total_is_damage_plus_difference_one_body_level_per_full_five_over_soak():
    state, result, _ = _duel(9, 2, b=fighter("b", soak=2))
    record = attack_by(result, "a", "b")
    assert record.result is Result.HIT and record.difference == 15 - 7
    assert record.damage_total == 5 + 8
    assert record.body_levels_lost == (13 - 2) // 5 == 2
    assert state.combatant("b").body_level is BodyLevel.LIGHT_WOUNDS


@pytest.mark.parametrize(
    ("damage", "soak", "levels"), [(10, 10, 0), (9, 10, 0), (14, 10, 0), (15, 10, 1), (30, 10, 4)]
)
def test_soak_equal_or_higher_no_lasting_harm_then_one_level_per_full_five(damage, soak, levels):
    assert body_levels_lost(damage, soak) == levels


def test_damage_total_adds_the_difference():
    assert damage_total(5, 3) == 8


@pytest.mark.parametrize(
    ("attack_total", "defense_total", "on_success", "result"),
    [
        (12, 9, OnSuccess.HIT, Result.HIT),
        (12, 9, OnSuccess.ADVANTAGE_ATTACK, Result.ADVANTAGE),
        (9, 9, OnSuccess.HIT, Result.MISS),  # ties do nothing
        (8, 9, OnSuccess.ADVANTAGE_DEFENSE, Result.MISS),
    ],
)
def test_the_difference_goes_to_a_hit_or_an_advantage_never_split(
    attack_total, defense_total, on_success, result
):
    assert exchange_result(attack_total, defense_total, on_success)[0] is result


def test_advantage_is_saved_for_next_rounds_attack_total_and_then_used_up():
    state, result, _ = _duel(9, 2, a_fields={"on_success": OnSuccess.ADVANTAGE_ATTACK})
    record = attack_by(result, "a", "b")
    assert record.result is Result.ADVANTAGE and record.body_levels_lost == 0 and record.damage_total is None
    assert state.combatant("b").body_level is BodyLevel.UNHURT
    assert state.combatant("a").next_advantage_attack == 8
    box = ScriptedDiceBox({"a": {"fatigue": [9]}, "b": {"fatigue": [9]}})
    for phase in (second_missile_phase, magic_phase, fatigue_phase):
        state, _ = phase(state, box)
    next_round = end_round(state)
    assert next_round.combatant("a").advantage_attack == 8
    assert next_round.combatant("a").next_advantage_attack == 0
    after_next = resolve_round(next_round, [], ScriptedDiceBox())[0]
    assert after_next.combatant("a").advantage_attack == 0


def test_advantage_bonus_is_added_to_the_next_rounds_totals():
    a = replace(fighter("a"), advantage_attack=4, advantage_defense=2)
    _, result, _ = _duel(5, 5, a=a)
    assert attack_by(result, "a", "b").attack_total == 6 + 5 + 4
    assert attack_by(result, "b", "a").defense_total == 5 + 5 + 2
    assert ("advantage", 4) in attack_by(result, "a", "b").attack_parts


def test_advantage_defense_is_saved_for_next_rounds_defense_total():
    state, _, _ = _duel(9, 2, a_fields={"on_success": OnSuccess.ADVANTAGE_DEFENSE})
    assert state.combatant("a").next_advantage_defense == 8


def test_the_storyguide_can_switch_a_hit_to_advantage_before_confirming():
    options = PhaseOptions(on_success={("a", "b"): OnSuccess.ADVANTAGE_ATTACK})
    _, result, _ = _duel(9, 2, options=options)
    assert attack_by(result, "a", "b").applied_as is OnSuccess.ADVANTAGE_ATTACK


def test_wounds_are_applied_to_both_combatants_at_once():
    state, result, _ = _duel(
        9,
        9,
        a=fighter("a", SPEAR),
        a_fields={"weapon": "spear", "range": Range.LONG},
        b=fighter("b", SPEAR),
        b_fields={"weapon": "spear", "range": Range.LONG},
    )
    assert attack_by(result, "a", "b").result is Result.HIT
    assert attack_by(result, "b", "a").result is Result.HIT
    assert attack_by(result, "a", "b").body_levels_lost == attack_by(result, "b", "a").body_levels_lost == 1
    assert state.combatant("a").body_level is state.combatant("b").body_level is BodyLevel.HURT


def _both_down(a_weapon_initiative, b_weapon_initiative):
    a_weapon = SWORD.__class__("blade", a_weapon_initiative, 20, 0, 20, Range.REACH)
    b_weapon = SWORD.__class__("blade", b_weapon_initiative, 20, 0, 20, Range.REACH)
    a = fighter("a", a_weapon, body=BodyLevel.HEAVY_WOUNDS)
    b = fighter("b", b_weapon, body=BodyLevel.HEAVY_WOUNDS)
    return melee(
        [a, b],
        [attack("a", "b", weapon="blade"), attack("b", "a", weapon="blade")],
        {"a": {"initiative": [9], "combat": [5]}, "b": {"initiative": [1, 9], "combat": [5]}},
    )


def test_when_both_would_go_down_the_higher_initiative_score_deals_damage_first():
    # b has the higher Initiative Total (18 + 0 against 9 + 3), a the higher Initiative score
    state, result, movement = _both_down(3, 0)
    assert [item.combatant for item in movement.initiative] == ["b", "a"]
    assert state.combatant("b").body_level in (BodyLevel.INCAPACITATED, BodyLevel.DEAD)
    assert state.combatant("a").body_level is BodyLevel.HEAVY_WOUNDS
    prevented = attack_by(result, "b", "a")
    assert prevented.damage_prevented and prevented.body_levels_lost == 0


def test_when_both_would_go_down_with_equal_initiative_scores_the_higher_total_deals_first():
    state, result, _ = _both_down(0, 0)  # b: Initiative Total 18 against a's 9
    assert state.combatant("b").body_level is BodyLevel.HEAVY_WOUNDS
    assert state.combatant("a").body_level in (BodyLevel.INCAPACITATED, BodyLevel.DEAD)
    assert attack_by(result, "a", "b").damage_prevented


def test_deals_damage_first_compares_score_then_total_then_quickness_then_listed():
    assert deals_damage_first((3, 5, 0, -1), (2, 20, 5, 0))
    assert deals_damage_first((3, 5, 2, -1), (3, 5, 1, 0))
    assert not deals_damage_first((3, 5, 1, -1), (3, 5, 1, 0))


def test_a_level_lost_past_incapacitated_is_death_for_the_storyguide_to_confirm():
    big = SWORD.__class__("maul", 0, 30, 0, 40, Range.REACH)
    _, result, _ = melee(
        [fighter("a", big), fighter("b")],
        [attack("a", "b", weapon="maul")],
        {"a": {"initiative": [5], "combat": [5]}, "b": {"combat": [5]}},
    )
    assert result.deaths == ("b",)


@pytest.mark.parametrize(
    ("fields", "level"),
    [
        ({"fatigue": FatigueLevel.UNCONSCIOUS}, None),
        ({"body": BodyLevel.INCAPACITATED}, None),
    ],
)
def test_anyone_who_cannot_defend_has_a_defense_total_of_zero(fields, level):
    _, result, _ = melee(
        [fighter("a"), fighter("b", **fields)], [attack("a", "b")], {"a": {"initiative": [5], "combat": [5]}}
    )
    record = attack_by(result, "a", "b")
    assert record.defense_total == 0 and record.defense_roll is None
    assert record.defense_with is DefenseWith.NONE


def test_a_routing_combatant_who_acts_first_escapes():
    _, result, movement = melee(
        [fighter("a"), fighter("b")],
        [attack("a", "b"), Declaration("b", Action.MOVE, routing=True)],
        {"a": {"initiative": [2]}, "b": {"initiative": [5]}},  # 5 + 2 against 5 + 6
    )
    assert movement.engagements == () and result.attacks == ()


def test_a_routing_combatant_who_is_caught_cannot_defend_and_does_not_attack():
    _, result, _ = melee(
        [fighter("a"), fighter("b")],
        [attack("a", "b"), Declaration("b", Action.MOVE, routing=True)],
        {"a": {"initiative": [1, 9], "combat": [5]}, "b": {"initiative": [2]}},  # 21 against 8
    )
    (record,) = result.attacks
    assert record.attacker == "a" and record.defense_total == 0 and record.defense_with is DefenseWith.NONE


def test_someone_engaged_without_a_melee_weapon_defends_with_dodge_or_brawling_at_touch():
    defender = fighter("b", dodge=6, brawling=2)
    _, at_reach, _ = melee(
        [fighter("a"), defender],
        [attack("a", "b")],
        {"a": {"initiative": [5], "combat": [5]}, "b": {"combat": [3]}},
    )
    assert attack_by(at_reach, "a", "b").defense_with is DefenseWith.DODGE
    assert attack_by(at_reach, "a", "b").defense_total == 9
    brawler = fighter("b", dodge=1, brawling=4)
    _, at_touch, _ = melee(
        [fighter("a", DAGGER), brawler],
        [attack("a", "b", weapon="dagger")],
        {"a": {"initiative": [5], "combat": [5]}, "b": {"combat": [3]}},
    )
    assert attack_by(at_touch, "a", "b").defense_with is DefenseWith.BRAWLING


def test_a_botched_combat_die_totals_zero():
    combatants = [fighter("a"), fighter("b")]
    _, result, _ = melee(
        combatants,
        [attack("a", "b"), attack("b", "a")],
        {"a": {"initiative": [9], "combat": [0, 0]}, "b": {"initiative": [2], "combat": [5]}},
    )
    assert attack_by(result, "a", "b").attack_total == 0
    assert attack_by(result, "b", "a").defense_total == 0


def test_penalties_lower_attack_and_defense_but_not_soak():
    tired = fighter("b", fatigue=FatigueLevel.TIRED, body=BodyLevel.LIGHT_WOUNDS, soak=3)
    _, result, _ = _duel(9, 5, b=tired)
    assert attack_by(result, "b", "a").attack_total == 6 + 5 - 4
    record = attack_by(result, "a", "b")
    assert record.defense_total == 5 + 5 - 4
    assert record.soak == 3


def test_storyguide_modifier_applies_to_every_total_in_the_phase():
    _, result, _ = _duel(5, 5, options=PhaseOptions(modifiers={"a": 2}))
    assert attack_by(result, "a", "b").attack_total == 13
    assert attack_by(result, "b", "a").defense_total == 12


def test_a_combatant_knocked_down_earlier_does_not_attack_in_melee():
    state, box, _ = to_melee(
        [fighter("a"), fighter("b")],
        [attack("a", "b"), attack("b", "a")],
        {"a": {"initiative": [9], "combat": [5]}, "b": {"initiative": [2], "combat": [5]}},
    )
    down = replace(state.combatant("b"), body_levels_lost=BodyTrack().levels_lost_at(BodyLevel.INCAPACITATED))
    state = replace(state, combatants=(state.combatant("a"), down))
    _, result = melee_phase(state, box)
    assert [(item.combatant, item.reason) for item in result.skipped] == [
        ("b", "B is down and cannot attack")
    ]
