"""Phase 1, Movement: Initiative Totals, the acting order, engagement contests, paces."""

from __future__ import annotations

from ..errors import RulesError
from .dice import stress_die
from .dicebox import DiceBox
from .engagement import EngagementWish, settle_engagements
from .initiative import acting_order_key, initiative_modifiers, initiative_total
from .movement import movement_paces
from .phase import Phase
from .records import PhaseResult
from .state import DEFAULT_OPTIONS, Action, InitiativeRecord, PhaseOptions, RoundState


def check_options(state: RoundState, options: PhaseOptions) -> None:
    """Every combatant an option names must be in the fight."""
    known = {combatant.id for combatant in state.combatants}
    named = set(options.botch_dice) | set(options.modifiers) | set(options.ease_factors)
    named |= set(options.extra_fatigue_rollers)
    for attacker, defender in options.on_success:
        named |= {attacker, defender}
    unknown = sorted(named - known)
    if unknown:
        raise RulesError(f"the phase options name no combatant in this fight: {', '.join(unknown)}")


def movement_phase(
    state: RoundState, dice_box: DiceBox, options: PhaseOptions = DEFAULT_OPTIONS
) -> tuple[RoundState, PhaseResult]:
    """Movement: each declared combatant rolls an Initiative Total; conflicting declarations
    are settled from the highest total down (ArM3 p163)."""
    state.expect(Phase.MOVEMENT)
    check_options(state, options)
    listed = {combatant.id: index for index, combatant in enumerate(state.combatants)}
    records: list[tuple[tuple[int, int, int, int], InitiativeRecord]] = []
    wishes: dict[str, EngagementWish] = {}
    by_id = {combatant.id: combatant for combatant in state.combatants}
    for declaration in state.declarations:
        combatant = by_id[declaration.combatant]
        sheet = combatant.sheet
        weapon = sheet.weapon(declaration.weapon) if declaration.weapon else None
        score = weapon.initiative if weapon else 0
        parts = [("Initiative score", score)]
        parts += initiative_modifiers(
            ride=sheet.ride,
            mounted=declaration.mounted,
            charging=declaration.charging,
            high_ground=declaration.high_ground,
            routing=declaration.routing,
        )
        storyguide = declaration.modifier + options.modifier_for(sheet.id)
        if storyguide:
            parts.append(("storyguide", storyguide))
        if combatant.penalty:
            parts.append(("fatigue and wound penalties", combatant.penalty))
        roll = stress_die(dice_box.dice_for(sheet.id, "initiative"), options.botch_dice_for(sheet.id))
        total = initiative_total(roll, score, sum(value for _, value in parts[1:]))
        parts.insert(1, ("stress die", roll.value))
        paces = (
            movement_paces(sheet, declaration.movement, combatant.penalty) if declaration.movement else None
        )
        record = InitiativeRecord(sheet.id, total, score, roll, tuple(parts), paces)
        records.append((acting_order_key(total, score, sheet.quickness, listed[sheet.id]), record))
        if declaration.action is Action.ATTACK:
            wishes[sheet.id] = EngagementWish(declaration.engage, declaration.range or weapon.range, False)
        elif declaration.action is Action.MOVE or declaration.routing:
            wishes[sheet.id] = EngagementWish((), None, True)
    records.sort(key=lambda item: item[0])
    initiative = tuple(record for _, record in records)
    order = [record.combatant for record in initiative]
    acting = set(order)
    order += [c.id for c in state.combatants if c.id not in acting]
    engagements, escapes = settle_engagements(order, wishes)
    new_state = RoundState(
        state.number,
        state.combatants,
        Phase.FIRST_MISSILE,
        state.declarations,
        initiative,
        engagements,
    )
    result = PhaseResult(Phase.MOVEMENT, initiative=initiative, engagements=engagements, escapes=escapes)
    return new_state, result
