"""A whole round: the six phases in order, and the bookkeeping that ends it."""

from __future__ import annotations

from collections.abc import Sequence

from .declarations import declare
from .dicebox import DiceBox
from .fatigue_phase import fatigue_phase
from .magic_phase import magic_phase
from .melee_phase import melee_phase
from .missile_phase import first_missile_phase, second_missile_phase
from .movement_phase import movement_phase
from .phase import Phase
from .records import RoundResult
from .state import DEFAULT_OPTIONS, CombatantState, Declaration, PhaseOptions, RoundState

PHASE_FUNCTIONS = (
    movement_phase,
    first_missile_phase,
    melee_phase,
    second_missile_phase,
    magic_phase,
    fatigue_phase,
)


def start_fight(combatants: Sequence[CombatantState], number: int = 1) -> RoundState:
    """The first round's state, before declarations."""
    return RoundState(number, tuple(combatants))


def end_round(state: RoundState) -> RoundState:
    """Bookkeeping at the end of the Fatigue phase: advantage won carries into next round's
    totals, advantage held is used up (ArM3 p168)."""
    state.expect(Phase.END)
    combatants = tuple(combatant.next_round() for combatant in state.combatants)
    return RoundState(state.number + 1, combatants)


def resolve_round(
    state: RoundState,
    declarations: Sequence[Declaration],
    dice_box: DiceBox,
    options: PhaseOptions = DEFAULT_OPTIONS,
) -> tuple[RoundState, RoundResult]:
    """Declare, run the six phases in order (ArM3 p163), then end the round."""
    number = state.number
    state = declare(state, declarations)
    results = []
    for phase_function in PHASE_FUNCTIONS:
        state, result = phase_function(state, dice_box, options)
        results.append(result)
    return end_round(state), RoundResult(number, tuple(results))
