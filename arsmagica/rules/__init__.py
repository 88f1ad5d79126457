"""Ars Magica 3rd edition combat, fatigue and wounds (ArM3 pp163, 168, 177): a pure library.

Every name a caller needs is importable from here; each lives in a small module
with one job, named after the rule it holds.
"""

from .declarations import can_engage, check_declaration, declare
from .dice import SimpleRoll, StressRoll, roll_total, simple_die, stress_die
from .dicebox import PURPOSES, DiceBox, RandomDiceBox, RecordingDiceBox, ScriptedDiceBox
from .engagement import (
    Engagement,
    Escape,
    can_strike,
    multiple_opponents_penalty,
    range_penalty,
    settle_engagements,
)
from .exchange import (
    DefenseWith,
    OnSuccess,
    Result,
    attack_total,
    body_levels_lost,
    damage_total,
    defense_total,
    exchange_result,
)
from .fatigue import FatigueRoll, combat_fatigue_roll, fatigue_test
from .fatigue_phase import fatigue_phase
from .initiative import acting_order_key, initiative_modifiers, initiative_total
from .levels import (
    BodyLevel,
    BodyTrack,
    Exertion,
    FatigueLevel,
    FatigueState,
    can_act,
    fatigue_penalty,
    lose_fatigue_levels,
    wound_penalty,
)
from .magic import Spell, SpellKind, casting_order_key, casting_speed, casting_total
from .magic_phase import magic_phase
from .melee_phase import melee_phase
from .missile_phase import first_missile_phase, second_missile_phase
from .movement import Movement, movement_paces
from .movement_phase import movement_phase
from .odds import StressOdds, stress_odds
from .phase import Phase
from .records import AttackRecord, CastingRecord, PhaseResult, RoundResult, Skip
from .recovery import Recovery, RecoveryStep, StaminaRoll, night_of_sleep, recover, stamina_roll
from .round import PHASE_FUNCTIONS, end_round, resolve_round, start_fight
from .sheet import Range, Sheet, Weapon
from .state import (
    DEFAULT_OPTIONS,
    Action,
    CombatantState,
    CombatDie,
    Declaration,
    InitiativeRecord,
    PhaseOptions,
    RoundState,
)

__all__ = [
    "DEFAULT_OPTIONS", "PHASE_FUNCTIONS", "PURPOSES", "Action", "AttackRecord", "BodyLevel", "BodyTrack",
    "CastingRecord", "CombatDie", "CombatantState", "Declaration", "DefenseWith", "DiceBox",
    "Engagement", "Escape", "Exertion", "FatigueLevel", "FatigueRoll", "FatigueState",
    "InitiativeRecord", "Movement", "OnSuccess", "Phase", "PhaseOptions", "PhaseResult",
    "RandomDiceBox", "Range", "RecordingDiceBox", "Recovery", "RecoveryStep", "Result",
    "RoundResult", "RoundState", "ScriptedDiceBox", "Sheet", "SimpleRoll", "Skip", "Spell",
    "SpellKind", "StaminaRoll", "StressOdds", "StressRoll", "Weapon", "acting_order_key",
    "attack_total", "body_levels_lost", "can_act", "can_strike", "casting_order_key",
    "can_engage", "casting_speed", "casting_total", "check_declaration", "combat_fatigue_roll",
    "damage_total", "declare", "defense_total", "end_round", "exchange_result",
    "fatigue_penalty", "fatigue_phase", "fatigue_test", "first_missile_phase",
    "initiative_modifiers", "initiative_total", "lose_fatigue_levels", "magic_phase",
    "melee_phase", "movement_paces", "movement_phase", "multiple_opponents_penalty",
    "night_of_sleep", "range_penalty", "recover", "resolve_round", "roll_total",
    "second_missile_phase", "settle_engagements", "simple_die", "stamina_roll",
    "start_fight", "stress_die", "stress_odds", "wound_penalty",
]  # fmt: skip
