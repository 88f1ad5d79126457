"""Sheets and shortcuts for the Ars Magica tests: fighters as the rulebook's examples have them."""

from __future__ import annotations

from arsmagica.rules import (
    DEFAULT_OPTIONS,
    Action,
    BodyLevel,
    CombatantState,
    Declaration,
    FatigueLevel,
    Range,
    ScriptedDiceBox,
    Sheet,
    Weapon,
    declare,
    first_missile_phase,
    melee_phase,
    movement_phase,
    start_fight,
)

SWORD = Weapon("sword", initiative=3, attack=6, defense=5, damage=5, range=Range.REACH)
DAGGER = Weapon("dagger", initiative=2, attack=5, defense=2, damage=3, range=Range.TOUCH)
SPEAR = Weapon("spear", initiative=4, attack=6, defense=4, damage=7, range=Range.LONG)
BOW = Weapon("bow", initiative=0, attack=7, defense=0, damage=8, range=Range.LONG, missile=True, paces=60)
SLING = Weapon(
    "sling", initiative=1, attack=5, defense=0, damage=5, range=Range.LONG, missile=True, twice=True
)
BORIS_SWORD = Weapon("sword", initiative=4, attack=10, defense=8, damage=6, range=Range.REACH)


def sheet(combatant_id: str, *weapons: Weapon, **scores: int) -> Sheet:
    return Sheet(combatant_id, scores.pop("name", combatant_id.title()), weapons or (SWORD,), **scores)


def fighter(
    combatant_id: str,
    *weapons: Weapon,
    fatigue: FatigueLevel = FatigueLevel.FRESH,
    body: BodyLevel = BodyLevel.UNHURT,
    **scores,
) -> CombatantState:
    return CombatantState.start(sheet(combatant_id, *weapons, **scores), fatigue, body)


def sir_boris(**scores) -> CombatantState:
    scores.setdefault("name", "Sir Boris")
    scores.setdefault("brawling", 5)
    scores.setdefault("soak", 6)
    scores.setdefault("quickness", 2)
    return fighter("boris", BORIS_SWORD, **scores)


def attack(combatant: str, *targets: str, weapon: str = "sword", **fields) -> Declaration:
    return Declaration(combatant, Action.ATTACK, weapon, targets, **fields)


def to_melee(combatants, declarations, faces, options=DEFAULT_OPTIONS):
    """Declare and run Movement and First Missile; the state is ready for Melee."""
    box = ScriptedDiceBox(faces)
    state = declare(start_fight(combatants), declarations)
    state, movement = movement_phase(state, box, options)
    state, _ = first_missile_phase(state, box, options)
    return state, box, movement


def melee(combatants, declarations, faces, options=DEFAULT_OPTIONS):
    """Run a round up to the end of Melee: (state after Melee, Melee result, Movement result)."""
    state, box, movement = to_melee(combatants, declarations, faces, options)
    state, result = melee_phase(state, box, options)
    return state, result, movement


def attack_by(result, attacker: str, defender: str):
    matches = [item for item in result.attacks if (item.attacker, item.defender) == (attacker, defender)]
    assert len(matches) == 1, f"expected one attack {attacker} -> {defender}, found {len(matches)}"
    return matches[0]
