"""Phases 2 and 4, First and Second Missile: shots resolved like melee, in acting order."""

from __future__ import annotations

from dataclasses import replace

from .dicebox import DiceBox
from .exchange import OnSuccess, Result, body_levels_lost, damage_total, exchange_result
from .fight import Fight
from .levels import BodyLevel
from .magic_phase import cast_spells
from .phase import Phase
from .records import AttackRecord, PhaseResult, Skip
from .state import DEFAULT_OPTIONS, Action, PhaseOptions, RoundState

_PURPOSE = {Phase.FIRST_MISSILE: "missile", Phase.SECOND_MISSILE: "missile_second"}
_NEXT = {Phase.FIRST_MISSILE: Phase.MELEE, Phase.SECOND_MISSILE: Phase.MAGIC}
_BUSY = (Action.MISSILE, Action.CAST)  # nothing else happens in a missile phase
MISSILE_PHASES = (Phase.FIRST_MISSILE, Phase.SECOND_MISSILE)
_NOTHING = {phase: PhaseResult(phase) for phase in MISSILE_PHASES}


def fires_in(declared: Phase, twice: bool) -> tuple[Phase, ...]:
    """The missile phases a shot fires in: the one declared, or both for a weapon that fires twice
    (ArM3 p163)."""
    return MISSILE_PHASES if twice else (declared,)


def shoot(fight: Fight, phase: Phase) -> PhaseResult:
    """A missile phase: each shooter in acting order, against the target's better of Defense
    and Dodge Defense, the target's one combat die (ArM3 p168) [ours]."""
    if not (Action.MISSILE in fight.actions or Action.CAST in fight.actions):
        return _NOTHING[phase]  # nothing else happens in a missile phase
    fight.deaths = []
    spells, skipped = cast_spells(fight, phase)
    attacks: list[AttackRecord] = []
    for record in fight.initiative:
        declaration = fight.declarations[record.combatant]
        if declaration.action is not Action.MISSILE:
            continue
        weapon = fight.declared_weapon(declaration)
        if phase not in fires_in(declaration.missile_phase, weapon.twice):
            continue
        shooter = fight.combatants[record.combatant]
        target = fight.combatants[declaration.engage[0]]
        if not shooter.can_act:
            skipped.append(Skip(shooter.id, target.id, f"{shooter.sheet.name} is down"))
            continue
        if target.body_level is BodyLevel.DEAD:
            skipped.append(Skip(shooter.id, target.id, f"{target.sheet.name} is already dead"))
            continue
        roll = fight.roll(shooter.id, _PURPOSE[phase])
        attack, attack_parts = fight.attack(shooter, weapon, roll, None)
        defense, defense_parts, defense_roll, defense_with = fight.defense(target, None)
        on_success = fight.on_success(shooter.id, target.id, declaration.on_success)
        result, difference = exchange_result(attack, defense, on_success)
        damage = None
        levels = 0
        if result is Result.HIT:
            damage = damage_total(weapon.damage, difference)
            levels = body_levels_lost(damage, target.sheet.soak)
            fight.wound(target.id, levels)
        elif result is Result.ADVANTAGE:
            fight.gain_advantage(shooter.id, on_success is OnSuccess.ADVANTAGE_ATTACK, difference)
        attacks.append(
            AttackRecord(
                phase, shooter.id, target.id, weapon.name, None,
                attack, attack_parts, roll,
                defense, defense_parts, defense_roll, defense_with,
                result, difference, on_success if result is not Result.MISS else None,
                damage, target.sheet.soak, levels, False,
            )
        )  # fmt: skip
    return PhaseResult(
        phase,
        attacks=tuple(attacks),
        spells=tuple(spells),
        skipped=tuple(skipped),
        deaths=tuple(fight.deaths),
    )


def _missile_phase(
    phase: Phase, state: RoundState, dice_box: DiceBox, options: PhaseOptions
) -> tuple[RoundState, PhaseResult]:
    state.expect(phase)
    if not any(item.action in _BUSY for item in state.declarations):
        return replace(state, phase=_NEXT[phase]), _NOTHING[phase]
    fight = Fight(state, dice_box, options)
    result = shoot(fight, phase)
    return fight.state_after(_NEXT[phase]), result


def shoot_first(fight: Fight) -> PhaseResult:
    return shoot(fight, Phase.FIRST_MISSILE)


def shoot_second(fight: Fight) -> PhaseResult:
    return shoot(fight, Phase.SECOND_MISSILE)


def first_missile_phase(
    state: RoundState, dice_box: DiceBox, options: PhaseOptions = DEFAULT_OPTIONS
) -> tuple[RoundState, PhaseResult]:
    """First Missile: missile attacks declared for it, and weapons that fire twice (ArM3 p163)."""
    return _missile_phase(Phase.FIRST_MISSILE, state, dice_box, options)


def second_missile_phase(
    state: RoundState, dice_box: DiceBox, options: PhaseOptions = DEFAULT_OPTIONS
) -> tuple[RoundState, PhaseResult]:
    """Second Missile is resolved just like First Missile (ArM3 p168)."""
    return _missile_phase(Phase.SECOND_MISSILE, state, dice_box, options)
