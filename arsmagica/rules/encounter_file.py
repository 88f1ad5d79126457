"""Running an Ars Magica encounter file: read it, resolve each round, report it as JSON."""

from __future__ import annotations

from typing import Any

from combat.rules.dice import RandomDice
from combat.rules.errors import EncounterFileError, RulesError

from .declarations import check_declaration
from .dicebox import ScriptedDiceBox
from .encounter_reader import read_encounter
from .records import AttackRecord, CastingRecord, RoundResult
from .round import resolve_round, start_fight
from .state import RoundState


def _attack(record: AttackRecord) -> dict[str, Any]:
    return {
        "phase": record.phase.value,
        "attacker": record.attacker,
        "defender": record.defender,
        "weapon": record.weapon,
        "range": record.range.value if record.range else None,
        "attack_total": record.attack_total,
        "attack_faces": list(record.attack_roll.all_faces),
        "defense_total": record.defense_total,
        "defense_faces": list(record.defense_roll.all_faces) if record.defense_roll else [],
        "defense_with": record.defense_with.value,
        "result": record.result.value,
        "applied_as": record.applied_as.value if record.applied_as else None,
        "difference": record.difference,
        "damage_total": record.damage_total,
        "body_levels_lost": record.body_levels_lost,
        "damage_prevented": record.damage_prevented,
    }


def _spell(record: CastingRecord) -> dict[str, Any]:
    test = record.fatigue_test
    return {
        "phase": record.phase.value,
        "caster": record.caster,
        "kind": record.kind.value,
        "spell": record.spell,
        "casting_total": record.casting_total,
        "faces": list(record.roll.all_faces),
        "fatigue_test": None
        if test is None
        else {"total": test.total, "botch": test.botch, "levels_lost": test.levels_lost},
    }


def report_round(result: RoundResult, state: RoundState) -> dict[str, Any]:
    """One round as the encounter file's output shows it (docs/encounter-files.md)."""
    phases = result.phases
    movement = phases[0]
    return {
        "number": result.number,
        "initiative": [
            {"combatant": item.combatant, "total": item.total, "faces": list(item.roll.all_faces)}
            for item in movement.initiative
        ],
        "engagements": [
            {"a": item.a, "b": item.b, "range": item.range.value} for item in movement.engagements
        ],
        "escapes": [{"combatant": item.combatant, "from": item.pursuer} for item in movement.escapes],
        "attacks": [_attack(record) for phase in phases for record in phase.attacks],
        "spells": [_spell(record) for phase in phases for record in phase.spells],
        "fatigue": [
            {
                "combatant": item.combatant,
                "total": item.total,
                "ease_factor": item.ease_factor,
                "botch": item.botch,
                "levels_lost": item.levels_lost,
                "faces": list(item.roll.all_faces),
            }
            for item in phases[-1].fatigue
        ],
        "skipped": [
            {"combatant": item.combatant, "target": item.target, "reason": item.reason}
            for phase in phases
            for item in phase.skipped
        ],
        "deaths_to_confirm": [combatant for phase in phases for combatant in phase.deaths],
        "state": [
            {
                "combatant": combatant.id,
                "fatigue_level": combatant.fatigue_level.value,
                "body_level": combatant.body_level.value,
                "advantage_attack": combatant.advantage_attack,
                "advantage_defense": combatant.advantage_defense,
            }
            for combatant in state.combatants
        ],
    }


def resolve(data: dict[str, Any]) -> dict[str, Any]:
    """Resolve every round of an encounter file; bad input raises `EncounterFileError`."""
    encounter = read_encounter(data)
    fallback = RandomDice(encounter.seed)
    state = start_fight(encounter.combatants)
    rounds = []
    for index, plan in enumerate(encounter.rounds):
        for number, declaration in enumerate(plan.declarations):
            try:
                check_declaration(state, declaration)
            except RulesError as error:
                raise EncounterFileError(f"rounds[{index}].declarations[{number}]", str(error)) from None
        try:
            state, result = resolve_round(
                state, plan.declarations, ScriptedDiceBox(plan.faces, fallback), plan.options
            )
        except RulesError as error:
            raise EncounterFileError(f"rounds[{index}]", str(error)) from None
        rounds.append(report_round(result, state))
    return {"rules": "arsmagica", "rounds": rounds}
