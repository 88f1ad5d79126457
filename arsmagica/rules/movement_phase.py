"""Phase 1, Movement: Initiative Totals, the acting order, engagement contests, paces."""

from __future__ import annotations

from operator import itemgetter

from combat.rules.errors import RulesError

from .dicebox import DiceBox
from .engagement import EngagementWish, settle_engagements
from .fight import Fight
from .initiative import acting_order_key, initiative_modifiers, initiative_total
from .movement import movement_paces
from .phase import Phase
from .records import PhaseResult
from .state import DEFAULT_OPTIONS, Action, InitiativeRecord, PhaseOptions, RoundState

# Members read once here: on Python 3.11 every `Enum.MEMBER` lookup goes through EnumType.__getattr__.
_ATTACK = Action.ATTACK
_MOVE = Action.MOVE


def check_options(state: RoundState, options: PhaseOptions) -> None:
    """Every combatant an option names must be in the fight."""
    if not (options.botch_dice or options.modifiers or options.ease_factors
            or options.extra_fatigue_rollers or options.on_success):  # fmt: skip
        return
    known = {combatant.id for combatant in state.combatants}
    named = set(options.botch_dice) | set(options.modifiers) | set(options.ease_factors)
    named |= set(options.extra_fatigue_rollers)
    for attacker, defender in options.on_success:
        named |= {attacker, defender}
    unknown = sorted(named - known)
    if unknown:
        raise RulesError(f"the phase options name no combatant in this fight: {', '.join(unknown)}")


def move(fight: Fight) -> PhaseResult:
    """Movement: each declared combatant rolls an Initiative Total; conflicting declarations
    are settled from the highest total down (ArM3 p163)."""
    state = fight.state
    check_options(state, fight.options)
    records: list[tuple[tuple[int, int, int, int], InitiativeRecord]] = []
    wishes: dict[str, EngagementWish] = {}
    for listed, declaration in _listed_declarations(state):
        combatant = fight.combatants[declaration.combatant]
        sheet = combatant.sheet
        weapon = fight.declared_weapon(declaration) if declaration.weapon else None
        score = weapon.initiative if weapon else 0
        roll = fight.roll(sheet.id, "initiative")
        parts = [("Initiative score", score), ("stress die", roll.value)]
        if declaration.mounted or declaration.high_ground or declaration.routing or declaration.charging:
            parts += initiative_modifiers(
                ride=sheet.ride,
                mounted=declaration.mounted,
                charging=declaration.charging,
                high_ground=declaration.high_ground,
                routing=declaration.routing,
            )
        storyguide = declaration.modifier + (fight.modifier_for(sheet.id) if fight.options.modifiers else 0)
        if storyguide:
            parts.append(("storyguide", storyguide))
        if combatant.penalty:
            parts.append(("fatigue and wound penalties", combatant.penalty))
        modifiers = 0
        for _, value in parts[2:]:
            modifiers += value
        total = initiative_total(roll, score, modifiers)
        paces = (
            movement_paces(sheet, declaration.movement, combatant.penalty) if declaration.movement else None
        )
        record = InitiativeRecord(sheet.id, total, score, roll, tuple(parts), paces)
        records.append((acting_order_key(total, score, sheet.quickness, listed), record))
        if declaration.action is _ATTACK:
            wishes[sheet.id] = EngagementWish(declaration.engage, declaration.range or weapon.range, False)
        elif declaration.action is _MOVE or declaration.routing:
            wishes[sheet.id] = EngagementWish((), None, True)
    records.sort(key=itemgetter(0))
    initiative = tuple([record for _, record in records])
    order = [record.combatant for record in initiative]
    if len(order) < len(state.combatants):
        acting = set(order)
        order += [c.id for c in state.combatants if c.id not in acting]
    engagements, escapes = settle_engagements(order, wishes)
    fight.settled(initiative, engagements)
    return PhaseResult(Phase.MOVEMENT, initiative, engagements, escapes)


def _listed_declarations(state: RoundState):
    """Each declaration with its combatant's place in the list (declarations come in that order)."""
    listed = {combatant.id: index for index, combatant in enumerate(state.combatants)}
    return [(listed[declaration.combatant], declaration) for declaration in state.declarations]


def movement_phase(
    state: RoundState, dice_box: DiceBox, options: PhaseOptions = DEFAULT_OPTIONS
) -> tuple[RoundState, PhaseResult]:
    """Movement: each declared combatant rolls an Initiative Total; conflicting declarations
    are settled from the highest total down (ArM3 p163)."""
    state.expect(Phase.MOVEMENT)
    fight = Fight(state, dice_box, options)
    result = move(fight)
    new_state = RoundState(
        state.number,
        state.combatants,
        Phase.FIRST_MISSILE,
        state.declarations,
        result.initiative,
        result.engagements,
    )
    return new_state, result
