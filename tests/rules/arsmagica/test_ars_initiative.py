"""Movement phase (ArM3 p163): Initiative Totals, the modifiers table, ties, engagement contests."""

from __future__ import annotations

import pytest
from ars_helpers import DAGGER, SPEAR, SWORD, attack, fighter

from arsmagica.rules import (
    DEFAULT_OPTIONS,
    Action,
    BodyLevel,
    Declaration,
    FatigueLevel,
    Movement,
    PhaseOptions,
    Range,
    ScriptedDiceBox,
    acting_order_key,
    declare,
    initiative_modifiers,
    movement_phase,
    start_fight,
)


def _initiative(combatants, declarations, faces, options=DEFAULT_OPTIONS):
    state = declare(start_fight(combatants), declarations)
    return movement_phase(state, ScriptedDiceBox(faces), options)


def _total(declaration: Declaration, face: int = 5, **scores) -> int:
    _, result = _initiative([fighter("a", SWORD, **scores)], [declaration], {"a": {"initiative": [face]}})
    return result.initiative[0].total


def test_initiative_total_is_stress_die_plus_the_declared_weapons_initiative():
    assert _total(Declaration("a", Action.OTHER, "sword")) == 5 + 3


def test_no_weapon_declared_means_no_initiative_score():
    assert _total(Declaration("a", Action.OTHER)) == 5


@pytest.mark.parametrize(
    ("fields", "bonus"),
    [
        ({"mounted": True}, 2 + 3),  # + Ride skill and high ground
        ({"mounted": True, "high_ground": True}, 2 + 3),  # a rider's high ground does not count twice
        ({"routing": True}, 6),
        ({"charging": True}, 3),
        ({"mounted": True, "charging": True}, 2 + 3 + 3),  # mounted chargers add it too
        ({"high_ground": True}, 3),
        ({"modifier": -2}, -2),  # the storyguide's own modifier
    ],
)
def test_initiative_modifiers_table(fields, bonus):
    declaration = Declaration("a", Action.MOVE if fields.get("routing") else Action.OTHER, "sword", **fields)
    assert _total(declaration, ride=2) == 5 + 3 + bonus


def test_fatigue_and_wound_penalties_lower_initiative():
    declaration = Declaration("a", Action.OTHER, "sword")
    assert (
        _total(declaration, face=5) - 4
        == _initiative(
            [fighter("a", SWORD, fatigue=FatigueLevel.TIRED, body=BodyLevel.LIGHT_WOUNDS)],
            [declaration],
            {"a": {"initiative": [5]}},
        )[1]
        .initiative[0]
        .total
    )


def test_storyguide_phase_modifier_adds_to_initiative():
    _, result = _initiative(
        [fighter("a")],
        [Declaration("a", Action.OTHER, "sword")],
        {"a": {"initiative": [5]}},
        PhaseOptions(modifiers={"a": 4}),
    )
    assert result.initiative[0].total == 12


def test_modifiers_table_lists_each_bonus_by_name():
    assert initiative_modifiers(ride=1, mounted=True, charging=True, high_ground=True, routing=False) == (
        ("on horseback: Ride", 1),
        ("on horseback: high ground", 3),
        ("charging", 3),
    )


def test_ties_go_to_the_higher_initiative_score_then_quickness_then_listed_first():
    combatants = [
        fighter("first", SWORD, quickness=0),
        fighter("quick", SWORD, quickness=2),
        fighter("spear", SPEAR, quickness=0),
        fighter("second", SWORD, quickness=0),
    ]
    declarations = [Declaration(c.id, Action.OTHER, c.sheet.weapons[0].name) for c in combatants]
    faces = {
        "first": {"initiative": [6]},
        "quick": {"initiative": [6]},
        "spear": {"initiative": [5]},
        "second": {"initiative": [6]},
    }
    _, result = _initiative(combatants, declarations, faces)
    assert [item.total for item in result.initiative] == [9, 9, 9, 9]
    assert [item.combatant for item in result.initiative] == ["spear", "quick", "first", "second"]
    assert acting_order_key(9, 4, 0, 2) < acting_order_key(9, 3, 2, 1)


def test_a_botched_initiative_totals_zero():
    _, result = _initiative(
        [fighter("a")], [Declaration("a", Action.OTHER, "sword")], {"a": {"initiative": [0, 0]}}
    )
    assert result.initiative[0].total == 0 and result.initiative[0].roll.botched


def test_declared_movement_gives_paces():
    _, result = _initiative(
        [fighter("a", quickness=1, encumbrance=-1)],
        [Declaration("a", Action.MOVE, movement=Movement.HUSTLING)],
        {"a": {"initiative": [5]}},
    )
    assert result.initiative[0].paces == 15


def test_higher_initiative_total_prevails_one_wants_reach_the_other_touch():
    combatants = [fighter("sword", SWORD), fighter("dagger", DAGGER)]
    declarations = [
        attack("sword", "dagger", range=Range.REACH),
        attack("dagger", "sword", weapon="dagger", range=Range.TOUCH),
    ]
    _, low = _initiative(
        combatants, declarations, {"sword": {"initiative": [5]}, "dagger": {"initiative": [9]}}
    )
    assert low.engagements[0].range is Range.TOUCH and low.engagements[0].prevailed == "dagger"
    _, high = _initiative(
        combatants, declarations, {"sword": {"initiative": [9]}, "dagger": {"initiative": [5]}}
    )
    assert high.engagements[0].range is Range.REACH and high.engagements[0].prevailed == "sword"


def test_a_declared_range_defaults_to_the_weapons_optimum_range():
    combatants = [fighter("spear", SPEAR), fighter("b")]
    _, result = _initiative(
        combatants, [attack("spear", "b", weapon="spear")], {"spear": {"initiative": [5]}}
    )
    assert result.engagements[0].range is Range.LONG


def test_an_unwilling_opponent_who_acts_first_gets_away():
    combatants = [fighter("hunter"), fighter("quarry")]
    declarations = [attack("hunter", "quarry"), Declaration("quarry", Action.MOVE, routing=True)]
    _, result = _initiative(
        combatants, declarations, {"hunter": {"initiative": [2]}, "quarry": {"initiative": [2]}}
    )
    assert result.engagements == ()
    assert [(item.combatant, item.pursuer) for item in result.escapes] == [("quarry", "hunter")]


def test_an_unwilling_opponent_who_acts_later_is_caught():
    combatants = [fighter("hunter"), fighter("quarry")]
    declarations = [
        attack("hunter", "quarry"),
        Declaration("quarry", Action.MOVE, movement=Movement.HUSTLING),
    ]
    _, result = _initiative(
        combatants, declarations, {"hunter": {"initiative": [9]}, "quarry": {"initiative": [2]}}
    )
    (engagement,) = result.engagements
    assert engagement.contested and engagement.prevailed == "hunter"


def test_someone_without_a_declaration_is_engaged_where_the_attacker_wants():
    combatants = [fighter("a"), fighter("idle")]
    state, result = _initiative(combatants, [attack("a", "idle")], {"a": {"initiative": [3]}})
    assert [(item.a, item.b, item.range) for item in result.engagements] == [("a", "idle", Range.REACH)]
    assert [item.combatant for item in result.initiative] == ["a"]
    assert state.engagements == result.engagements
