"""Phase 6, Fatigue: everyone who fought hand to hand rolls against the ease factor."""

from __future__ import annotations

from .dicebox import DiceBox
from .fatigue import combat_fatigue_roll
from .fight import Fight
from .phase import Phase
from .records import PhaseResult, Skip
from .state import DEFAULT_OPTIONS, PhaseOptions, RoundState


def fatigue_rollers(fight: Fight, extra: tuple[str, ...]) -> list[str]:
    """Everyone engaged hand to hand this round, and whoever the storyguide adds (ArM3 p168);
    in acting order, then as listed."""
    wanted = set(extra)
    for engagement in fight.engagements:
        wanted.add(engagement.a)
        wanted.add(engagement.b)
    order = [record.combatant for record in fight.initiative]
    seen = set(order)
    order += [combatant.id for combatant in fight.state.combatants if combatant.id not in seen]
    return [combatant for combatant in order if combatant in wanted]


def tire(fight: Fight) -> PhaseResult:
    """Fatigue: stress die + Combat Fatigue + wound penalty must beat ease factor 6, which the
    storyguide may change per combatant; failure loses a level, a botch two (ArM3 p168, p177)."""
    options = fight.options
    ease_factors, default_ease_factor = options.ease_factors, options.default_ease_factor
    rolls = []
    skipped = []
    for combatant_id in fatigue_rollers(fight, options.extra_fatigue_rollers):
        combatant = fight.combatants[combatant_id]
        if not combatant.can_act:
            skipped.append(Skip(combatant_id, None, f"{combatant.sheet.name} is down"))
            continue
        fatigue, roll = combat_fatigue_roll(
            combatant_id,
            fight.dice_box.dice_for(combatant_id, "fatigue"),
            combatant.fatigue,
            combat_fatigue=combatant.sheet.combat_fatigue,
            wound_penalty=combatant.wound_penalty,
            ease_factor=ease_factors.get(combatant_id, default_ease_factor)
            if ease_factors
            else default_ease_factor,
            modifier=fight.modifier_for(combatant_id),
            botch_dice=fight.botch_dice_for(combatant_id),
        )
        if fatigue is not combatant.fatigue:
            fight.set_combatant(combatant.with_fatigue(fatigue))
        rolls.append(roll)
    return PhaseResult(Phase.FATIGUE, fatigue=tuple(rolls), skipped=tuple(skipped))


def fatigue_phase(
    state: RoundState, dice_box: DiceBox, options: PhaseOptions = DEFAULT_OPTIONS
) -> tuple[RoundState, PhaseResult]:
    """Fatigue: stress die + Combat Fatigue + wound penalty must beat ease factor 6, which the
    storyguide may change per combatant; failure loses a level, a botch two (ArM3 p168, p177)."""
    state.expect(Phase.FATIGUE)
    fight = Fight(state, dice_box, options)
    result = tire(fight)
    return fight.state_after(Phase.END), result
