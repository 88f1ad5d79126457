"""Checking declarations before the round is rolled, with messages a person understands."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from combat.rules.errors import RulesError
from combat.rules.refusals import BAD_INPUT, Refusal

from .levels import BodyLevel, why_not_acting
from .movement import Movement
from .phase import FAST_CAST_PHASES, Phase
from .state import Action, CombatantState, Declaration, RoundState


def _no_such(combatant_id: str) -> RulesError:
    return RulesError(f"no combatant with id {combatant_id!r}")


def declarations_awaited(people: Iterable[tuple[bool, str]]) -> tuple[int, int]:
    """How many have declared, of how many the round waits for (ArM3 p163): each person as (declared, why
    they cannot act, "" if they can, `why_not_acting`). One who cannot act (p177) has nothing to declare and
    counts on neither side."""
    able = [declared for declared, why in people if not why]
    return sum(able), len(able)


def can_engage(
    name: str, target_name: str, target_body_level: BodyLevel, *, itself: bool = False
) -> Refusal | None:
    """Whom a combatant may engage or shoot at (ArM3 p163): anyone else in the fight but the dead. The
    declaration's check asks it, and the declaration form's target list and "same as last round" too."""
    if itself:
        return Refusal(f"{name} cannot engage {name} (that is the combatant declaring)", BAD_INPUT)
    if target_body_level is BodyLevel.DEAD:
        return Refusal(f"{name} cannot engage {target_name}, who is dead", BAD_INPUT)
    return None


def check_declaration(
    state: RoundState, declaration: Declaration, by_id: dict[str, CombatantState] | None = None
) -> None:
    """One declaration against the sheets and levels: action, weapon, targets (ArM3 p163)."""
    if by_id is None:
        by_id = {combatant.id: combatant for combatant in state.combatants}
    combatant = by_id.get(declaration.combatant)
    if combatant is None:
        raise _no_such(declaration.combatant)
    name = combatant.sheet.name
    if not combatant.can_act:
        why = why_not_acting(combatant.fatigue_level, combatant.body_level)
        raise RulesError(f"{name} is {why} and cannot act (ArM3 p177)")
    weapon = combatant.sheet.weapon(declaration.weapon) if declaration.weapon else None
    action = declaration.action
    if declaration.routing and declaration.charging:
        raise RulesError(f"{name} cannot both rout and charge")
    if declaration.movement is Movement.HORSEBACK and not declaration.mounted:
        raise RulesError(f"{name} declares a gallop but is not on horseback")
    if action in (Action.ATTACK, Action.MISSILE):
        if declaration.routing:
            raise RulesError(f"{name} is routing and cannot attack this round (ArM3 p163)")
        if weapon is None:
            raise RulesError(f"{name} declares an attack without naming a weapon")
        if not declaration.engage:
            raise RulesError(f"{name} declares an attack but names nobody to engage")
    elif declaration.engage:
        raise RulesError(f"{name} names opponents to engage but declares {action.value}, not attack")
    if len(declaration.engage) > 1 and len(set(declaration.engage)) != len(declaration.engage):
        raise RulesError(f"{name} names the same opponent twice")
    for target_id in declaration.engage:
        target = by_id.get(target_id)
        if target is None:
            raise _no_such(target_id)
        refusal = can_engage(name, target.sheet.name, target.body_level, itself=target_id == combatant.id)
        if refusal is not None:
            raise RulesError(refusal)
    if action is Action.ATTACK and weapon is not None and weapon.missile:
        raise RulesError(f"{name}'s {weapon.name} is a missile weapon: declare missile, not attack")
    if action is Action.MISSILE:
        _check_missile(name, declaration, weapon)
    if action is Action.CAST:
        spell = declaration.spell
        if spell is None:
            raise RulesError(f"{name} declares a spell but says nothing about it")
        if spell.fast_cast_phase is not None and spell.fast_cast_phase not in FAST_CAST_PHASES:
            raise RulesError(
                f"{name} can fast-cast only in first_missile, melee or second_missile, "
                f"not {spell.fast_cast_phase.value}"
            )
    elif declaration.spell is not None:
        raise RulesError(f"{name} describes a spell but declares {action.value}, not cast")


def _check_missile(name: str, declaration: Declaration, weapon) -> None:
    if not weapon.missile:
        raise RulesError(f"{name}'s {weapon.name} is not a missile weapon")
    if len(declaration.engage) != 1:
        raise RulesError(f"{name} shoots at one target a shot, not {len(declaration.engage)}")
    if declaration.missile_phase not in (Phase.FIRST_MISSILE, Phase.SECOND_MISSILE):
        raise RulesError(f"{name} can shoot in first_missile or second_missile only")
    if declaration.distance is not None and weapon.paces is not None and declaration.distance > weapon.paces:
        raise RulesError(
            f"{name}'s target is {declaration.distance} paces away, beyond the "
            f"{weapon.name}'s {weapon.paces} paces"
        )


def declare(state: RoundState, declarations: Sequence[Declaration]) -> RoundState:
    """Record the round's declarations, each checked; at most one per combatant (ArM3 p163)."""
    state.expect(Phase.MOVEMENT)
    by_id = {combatant.id: combatant for combatant in state.combatants}
    seen: set[str] = set()
    for declaration in declarations:
        if declaration.combatant in seen:
            name = by_id[declaration.combatant].sheet.name
            raise RulesError(f"{name} has two declarations this round; give one")
        seen.add(declaration.combatant)
        check_declaration(state, declaration, by_id)
    listed = {combatant.id: index for index, combatant in enumerate(state.combatants)}
    ordered = tuple(sorted(declarations, key=lambda item: listed[item.combatant]))
    return RoundState(state.number, state.combatants, Phase.MOVEMENT, ordered)
