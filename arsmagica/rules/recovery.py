"""Recovering Fatigue levels over in-game time: rest, activity, the Stamina roll, sleep."""

from __future__ import annotations

from dataclasses import dataclass

from combat.rules.dice import Dice
from combat.rules.errors import RulesError

from .dice import SimpleRoll, simple_die
from .levels import FATIGUE_LEVELS, Exertion, FatigueLevel, FatigueState
from .record import Record

STAMINA_EASE_FACTOR = 9
NIGHT_OF_SLEEP_MINUTES = 8 * 60

RECOVERY_MINUTES = {
    FatigueLevel.WINDED: 2,
    FatigueLevel.WEARY: 10,
    FatigueLevel.TIRED: 30,
    FatigueLevel.DAZED: 60,
    FatigueLevel.UNCONSCIOUS: 120,
}


@dataclass(frozen=True, slots=True)
class StaminaRoll(Record):
    """A Stamina roll to recover faster: simple die + Stamina + penalties against 9."""

    roll: SimpleRoll
    total: int
    ease_factor: int
    success: bool


@dataclass(frozen=True, slots=True)
class RecoveryStep(Record):
    """One Fatigue level recovered, `after_seconds` into the period."""

    from_level: FatigueLevel
    to_level: FatigueLevel
    after_seconds: int


@dataclass(frozen=True, slots=True)
class Recovery(Record):
    """The Fatigue state after a period, and each level recovered on the way."""

    fatigue: FatigueState
    steps: tuple[RecoveryStep, ...]
    blocked_by_long_term: bool


def recovery_minutes(level: FatigueLevel) -> int:
    """Fatigue Recovery Chart: Winded 2, Weary 10, Tired 30, Dazed 60 min, Unconscious 2 h
    to the next lower level (ArM3 p177)."""
    if level not in RECOVERY_MINUTES:
        raise RulesError("a Fresh character has nothing to recover")
    return RECOVERY_MINUTES[level]


def stamina_roll(dice: Dice, stamina: int, penalty: int = 0) -> StaminaRoll:
    """Optional Stamina roll against ease factor 9 to recover in half the time (ArM3 p177);
    a simple die [ours], with fatigue and wound penalties as on every roll."""
    roll = simple_die(dice)
    total = roll.value + stamina + penalty
    return StaminaRoll(roll, total, STAMINA_EASE_FACTOR, total >= STAMINA_EASE_FACTOR)


def recover(
    fatigue: FatigueState,
    minutes: int,
    *,
    active: bool = False,
    stamina: StaminaRoll | None = None,
) -> Recovery:
    """Recover one level at a time from the most exhausted, by the chart; doubled when active,
    halved by a successful Stamina roll; long-term levels wait for food and sleep (ArM3 p177).

    Rest is counted in seconds of quiet rest, carried over between calls in
    `FatigueState.recovery_seconds`.
    """
    if isinstance(minutes, bool) or not isinstance(minutes, int) or minutes < 0:
        raise RulesError(f"recovery needs a whole number of minutes, 0 or more, not {minutes!r}")
    rate = 30 if active else 60  # seconds of quiet rest earned per minute
    if stamina is not None and stamina.success:
        rate *= 2
    available = minutes * rate
    spent = 0
    lost = fatigue.lost
    progress = fatigue.recovery_seconds
    steps: list[RecoveryStep] = []
    while lost and lost[-1] is Exertion.SHORT_TERM:
        level = FATIGUE_LEVELS[len(lost)]
        needed = recovery_minutes(level) * 60 - progress
        if available - spent < needed:
            progress += available - spent
            break
        spent += needed
        progress = 0
        lost = lost[:-1]
        steps.append(RecoveryStep(level, FATIGUE_LEVELS[len(lost)], spent * 60 // rate))
    blocked = bool(lost) and lost[-1] is Exertion.LONG_TERM
    return Recovery(FatigueState(lost, progress), tuple(steps), blocked)


def night_of_sleep(fatigue: FatigueState, *, good_meal: bool = True) -> Recovery:
    """A good meal and a good night's sleep recover every Fatigue level, long-term ones
    included (ArM3 p177); without the meal, only eight hours of rest by the chart [ours]."""
    if not good_meal:
        return recover(fatigue, NIGHT_OF_SLEEP_MINUTES)
    steps = tuple(
        RecoveryStep(FATIGUE_LEVELS[count], FATIGUE_LEVELS[count - 1], NIGHT_OF_SLEEP_MINUTES * 60)
        for count in range(len(fatigue.lost), 0, -1)
    )
    return Recovery(FatigueState(), steps, False)
