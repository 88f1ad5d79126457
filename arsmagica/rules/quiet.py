"""A phase nobody acts in passes by itself: no die is rolled and nothing is recorded (ArM3 p163) [ours].

First Missile and Second Missile hold only missile attacks and fast-cast spells, Magic only spells,
Melee only the blows of engaged pairs and spells fast-cast in it (ArM3 p163, p168): when nobody does
any of these, the phase has nothing for the storyguide to roll or confirm. Fatigue never passes by
itself: the storyguide may call rolls from anyone who did other strenuous things (ArM3 p168).
"""

from __future__ import annotations

from combat.rules.errors import RulesError

from .dicebox import ScriptedDiceBox
from .phase import Phase
from .records import PhaseResult
from .round import PHASE_FUNCTIONS
from .state import DEFAULT_OPTIONS, RoundState

# The phases that may pass by themselves (ArM3 p163); Fatigue waits for the storyguide (ArM3 p168).
SELF_PASSING = (Phase.FIRST_MISSILE, Phase.MELEE, Phase.SECOND_MISSILE, Phase.MAGIC)
_FUNCTION = dict(zip((Phase.MOVEMENT, *SELF_PASSING, Phase.FATIGUE), PHASE_FUNCTIONS, strict=True))


def nothing_happened(result: PhaseResult) -> bool:
    """A phase's result with no attack, spell, roll, skipped action or death in it."""
    return not (result.attacks or result.spells or result.fatigue or result.skipped or result.deaths)


def quiet_phase(state: RoundState) -> RoundState | None:
    """The round after its next phase when nobody acts in that phase (ArM3 p163) [ours]; None when
    the phase needs a die, records anything, or is Fatigue (ArM3 p168)."""
    if state.phase not in SELF_PASSING:
        return None
    try:
        after, result = _FUNCTION[state.phase](state, ScriptedDiceBox({}), DEFAULT_OPTIONS)
    except RulesError:  # someone rolls (the dice run out), or the phase has a problem to show
        return None
    return after if nothing_happened(result) else None
