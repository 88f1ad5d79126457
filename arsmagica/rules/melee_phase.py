"""Phase 3, Melee: every engaged pair exchanges blows on each side's one die for the round."""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

from .dicebox import DiceBox
from .engagement import can_strike
from .exchange import (
    OnSuccess,
    Result,
    body_levels_lost,
    damage_total,
    deals_damage_first,
    exchange_result,
)
from .fight import Fight
from .magic_phase import cast_spells
from .phase import Phase
from .records import AttackRecord, PhaseResult, Skip
from .sheet import Range
from .state import DEFAULT_OPTIONS, Action, PhaseOptions, RoundState

# Members read once here: on Python 3.11 every `Enum.MEMBER` lookup goes through EnumType.__getattr__.
_ATTACK = Action.ATTACK
_HIT = Result.HIT
_MISS = Result.MISS
_ADVANTAGE = Result.ADVANTAGE
_ADVANTAGE_ATTACK = OnSuccess.ADVANTAGE_ATTACK
_MELEE = Phase.MELEE


def _blow(fight: Fight, attacker_id: str, defender_id: str, at: Range) -> AttackRecord | Skip | None:
    declaration = fight.declarations.get(attacker_id)
    if declaration is None or declaration.action is not _ATTACK:
        return None
    attacker = fight.combatants[attacker_id]
    if not attacker.can_act:
        return Skip(attacker_id, defender_id, f"{attacker.sheet.name} is down and cannot attack")
    weapon = fight.declared_weapon(declaration)
    if not can_strike(weapon.range, at):
        reason = _out_of_range(attacker.sheet.name, weapon.name, at, weapon.range)
        return Skip(attacker_id, defender_id, reason)
    defender = fight.combatants[defender_id]
    roll = fight.dice.get(attacker_id) or fight.combat_die(attacker_id)
    attack, attack_parts = fight.attack(attacker, weapon, roll, at)
    defense, defense_parts, defense_roll, defense_with = fight.defense(defender, at)
    on_success = declaration.on_success
    if fight.options.on_success:
        on_success = fight.on_success(attacker_id, defender_id, on_success)
    result, difference = exchange_result(attack, defense, on_success)
    damage = None
    levels = 0
    if result is _HIT:
        damage = damage_total(weapon.damage, difference)
        levels = body_levels_lost(damage, defender.sheet.soak)
    return AttackRecord(
        _MELEE, attacker_id, defender_id, weapon.name, at,
        attack, attack_parts, roll, defense, defense_parts, defense_roll, defense_with,
        result, difference, on_success if result is not _MISS else None,
        damage, defender.sheet.soak, levels, False,
    )  # fmt: skip


@lru_cache(maxsize=1024)
def _out_of_range(name: str, weapon: str, at: Range, optimum: Range) -> str:
    return f"{name}'s {weapon} cannot strike at {at.value}, beyond its {optimum.value} range"


def _apply(fight: Fight, blows: list[AttackRecord]) -> None:
    """Wounds at once to both sides, unless both would go down: then the higher Initiative
    score deals damage first and the other, down, deals none (ArM3 p168)."""
    if (
        len(blows) == 2
        and blows[0].body_levels_lost > 0
        and blows[1].body_levels_lost > 0
        and fight.would_go_down(blows[0].defender, blows[0].body_levels_lost)
        and fight.would_go_down(blows[1].defender, blows[1].body_levels_lost)
    ):
        first, second = 0, 1
        if not deals_damage_first(
            fight.deals_first_key(blows[first].attacker), fight.deals_first_key(blows[second].attacker)
        ):
            first, second = second, first
        blows[second] = replace(blows[second], body_levels_lost=0, damage_prevented=True)
    for blow in blows:
        if blow.body_levels_lost > 0:
            fight.wound(blow.defender, blow.body_levels_lost)
    for blow in blows:
        if blow.result is _ADVANTAGE:
            fight.gain_advantage(blow.attacker, blow.applied_as is _ADVANTAGE_ATTACK, blow.difference)


def melee(fight: Fight) -> PhaseResult:
    """Melee: each engaged pair's Attack Totals against Defense Totals, all on the round's one
    die per combatant; -3 per extra opponent (ArM3 p168). Every blow is struck before any
    wound is dealt."""
    fight.deaths = []
    spells, skipped = cast_spells(fight, Phase.MELEE)
    exchanges: list[list[AttackRecord]] = []
    for engagement in fight.engagements:
        blows: list[AttackRecord] = []
        for attacker, defender in ((engagement.a, engagement.b), (engagement.b, engagement.a)):
            blow = _blow(fight, attacker, defender, engagement.range)
            if blow is None:
                continue
            if blow.__class__ is Skip:
                skipped.append(blow)
            else:
                blows.append(blow)
        exchanges.append(blows)
    attacks: list[AttackRecord] = []
    for blows in exchanges:
        _apply(fight, blows)
        attacks += blows
    return PhaseResult(
        Phase.MELEE, (), (), (), tuple(attacks), tuple(spells), (), tuple(skipped), tuple(fight.deaths)
    )


def melee_phase(
    state: RoundState, dice_box: DiceBox, options: PhaseOptions = DEFAULT_OPTIONS
) -> tuple[RoundState, PhaseResult]:
    """Melee: each engaged pair's Attack Totals against Defense Totals, all on the round's one
    die per combatant; -3 per extra opponent (ArM3 p168)."""
    state.expect(Phase.MELEE)
    fight = Fight(state, dice_box, options)
    result = melee(fight)
    return fight.state_after(Phase.SECOND_MISSILE), result
