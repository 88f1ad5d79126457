"""A whole round: the six phases in order, and the bookkeeping that ends it."""

from __future__ import annotations

from collections.abc import Sequence

from .declarations import declare
from .dicebox import DiceBox
from .fatigue_phase import fatigue_phase, tire
from .fight import Fight
from .magic_phase import magic, magic_phase
from .melee_phase import melee, melee_phase
from .missile_phase import first_missile_phase, second_missile_phase, shoot_first, shoot_second
from .movement_phase import move, movement_phase
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

# The same six phases as steps on one `Fight`: what each phase function does between
# building its `Fight` and turning it back into a `RoundState`.
_PHASE_STEPS = (move, shoot_first, melee, shoot_second, magic, tire)


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
    """Declare, run the six phases in order (ArM3 p163), then end the round.

    The same as each function of `PHASE_FUNCTIONS` in turn and then `end_round`, but on one
    `Fight` for the whole round, without the states in between.
    """
    fight = Fight(declare(state, declarations), dice_box, options)
    results = tuple([step(fight) for step in _PHASE_STEPS])
    return fight.next_round(), RoundResult(state.number, results)
