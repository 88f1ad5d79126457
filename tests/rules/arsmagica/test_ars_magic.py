"""The Magic phase (ArM3 p168) and spontaneous casting's fatigue test (ArM3 p177)."""

from __future__ import annotations

from ars_helpers import attack, fighter

from arsmagica.rules import (
    Action,
    Declaration,
    FatigueLevel,
    Phase,
    Range,
    ScriptedDiceBox,
    Spell,
    SpellKind,
    Weapon,
    casting_order_key,
    resolve_round,
    start_fight,
)


def cast(combatant: str, kind: SpellKind, score: int = 10, fast: Phase | None = None) -> Declaration:
    return Declaration(combatant, Action.CAST, spell=Spell(kind, score, f"{combatant}'s spell", fast))


def _round(combatants, declarations, faces):
    return resolve_round(start_fight(combatants), declarations, ScriptedDiceBox(faces))


def test_all_spontaneous_spells_before_all_formulaic_then_higher_qik_finesse_encumbrance():
    combatants = [
        fighter("formulaic_fast", quickness=3, finesse=3),
        fighter("spont_slow", quickness=0, finesse=0, stamina=5),
        fighter("spont_fast", quickness=2, finesse=1, encumbrance=-1, stamina=5),
    ]
    declarations = [
        cast("formulaic_fast", SpellKind.FORMULAIC),
        cast("spont_slow", SpellKind.SPONTANEOUS),
        cast("spont_fast", SpellKind.SPONTANEOUS),
    ]
    faces = {c.id: {"initiative": [5], "magic": [5], "fatigue": [5]} for c in combatants}
    _, result = _round(combatants, declarations, faces)
    magic = result.phase(Phase.MAGIC)
    assert [record.caster for record in magic.spells] == ["spont_fast", "spont_slow", "formulaic_fast"]
    assert [record.casting_speed for record in magic.spells] == [2, 0, 6]


def test_casting_total_is_recorded_with_its_die():
    _, result = _round(
        [fighter("magus")],
        [cast("magus", SpellKind.FORMULAIC, 12)],
        {"magus": {"initiative": [5], "magic": [1, 4]}},
    )
    (record,) = result.phase(Phase.MAGIC).spells
    assert record.casting_total == 12 + 8 and record.roll.faces == (1, 4)
    assert record.fatigue_test is None


def test_a_spontaneous_spell_calls_for_a_fatigue_test_stamina_plus_encumbrance_against_6():
    state, result = _round(
        [fighter("magus", stamina=1, encumbrance=-1)],
        [cast("magus", SpellKind.SPONTANEOUS)],
        {"magus": {"initiative": [5], "magic": [5], "fatigue": [5]}},
    )
    test = result.phase(Phase.MAGIC).spells[0].fatigue_test
    assert test.total == 5 and test.ease_factor == 6 and test.levels_lost == 1
    assert state.combatant("magus").fatigue_level is FatigueLevel.WINDED


def test_a_fast_cast_spell_goes_off_in_the_earlier_phase_it_interrupts():
    combatants = [fighter("magus"), fighter("a"), fighter("b")]
    declarations = [
        cast("magus", SpellKind.FORMULAIC, fast=Phase.FIRST_MISSILE),
        attack("a", "b"),
        attack("b", "a"),
    ]
    faces = {
        "magus": {"initiative": [2], "magic": [5]},
        "a": {"initiative": [5], "combat": [5], "fatigue": [9]},
        "b": {"initiative": [5], "combat": [5], "fatigue": [9]},
    }
    _, result = _round(combatants, declarations, faces)
    assert [record.caster for record in result.phase(Phase.FIRST_MISSILE).spells] == ["magus"]
    assert result.phase(Phase.MAGIC).spells == ()


def test_a_botched_fatigue_test_for_a_spontaneous_spell_costs_two_levels():
    state, result = _round(
        [fighter("magus")],
        [cast("magus", SpellKind.SPONTANEOUS, fast=Phase.MELEE)],
        {"magus": {"initiative": [5], "magic": [5], "fatigue": [0, 0]}},
    )
    test = result.phase(Phase.MELEE).spells[0].fatigue_test
    assert test.botch and test.levels_lost == 2 and test.total == 0
    assert state.combatant("magus").fatigue_level is FatigueLevel.WEARY


def test_a_caster_downed_before_the_magic_phase_casts_nothing():
    arbalest = Weapon("arbalest", 0, 30, 0, 40, Range.LONG, missile=True, paces=80)
    combatants = [fighter("archer", arbalest), fighter("magus")]
    declarations = [
        Declaration("archer", Action.MISSILE, "arbalest", ("magus",)),
        cast("magus", SpellKind.FORMULAIC),
    ]
    faces = {"archer": {"initiative": [5], "missile": [5]}, "magus": {"initiative": [2], "combat": [2]}}
    _, result = _round(combatants, declarations, faces)
    assert result.phase(Phase.MAGIC).spells == ()
    assert [item.reason for item in result.phase(Phase.MAGIC).skipped] == ["Magus is down and casts nothing"]


def test_casting_order_key_puts_spontaneous_first():
    assert casting_order_key(SpellKind.SPONTANEOUS, 0, 5) < casting_order_key(SpellKind.FORMULAIC, 9, 0)


def test_penalties_and_the_storyguide_modifier_count_in_the_casting_total():
    from arsmagica.rules import PhaseOptions

    _, result = resolve_round(
        start_fight([fighter("magus", fatigue=FatigueLevel.TIRED)]),
        [cast("magus", SpellKind.FORMULAIC, 12)],
        ScriptedDiceBox({"magus": {"initiative": [5], "magic": [4]}}),
        PhaseOptions(modifiers={"magus": 2}),
    )
    (record,) = result.phase(Phase.MAGIC).spells
    assert record.casting_total == 12 + 4 - 3 + 2
    assert ("fatigue and wound penalties", -3) in record.parts and ("storyguide", 2) in record.parts
