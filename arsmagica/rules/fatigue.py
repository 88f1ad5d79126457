"""Fatigue rolls: the Fatigue phase of a combat round, and fatigue tests outside combat."""

from __future__ import annotations

from dataclasses import dataclass

from combat.rules.dice import Dice

from .dice import StressRoll, roll_total, stress_die
from .levels import (
    Exertion,
    FatigueLevel,
    FatigueState,
    fatigue_penalty,
    lose_fatigue_levels,
)
from .record import Record

FATIGUE_EASE_FACTOR = 6
Part = tuple[str, int]


@dataclass(frozen=True, slots=True)
class FatigueRoll(Record):
    """One fatigue roll with every part of its total and what it cost."""

    combatant: str
    kind: str  # "combat" (Fatigue phase, must beat) or "test" (meet or exceed)
    total: int
    ease_factor: int
    roll: StressRoll
    parts: tuple[Part, ...]
    botch: bool
    levels_lost: int
    fatigue_level: FatigueLevel


def levels_lost_on(success: bool, botch: bool) -> int:
    """A failed fatigue roll costs one Fatigue level, a botch two (ArM3 p177)."""
    if botch:
        return 2
    return 0 if success else 1


def combat_fatigue_roll(
    combatant: str,
    dice: Dice,
    fatigue: FatigueState,
    *,
    combat_fatigue: int,
    wound_penalty: int,
    ease_factor: int = FATIGUE_EASE_FACTOR,
    modifier: int = 0,
    botch_dice: int = 1,
) -> tuple[FatigueState, FatigueRoll]:
    """Fatigue phase: stress die + Combat Fatigue + wound penalty must beat the ease factor
    (ArM3 p168); the fatigue penalty applies too, as to every roll (ArM3 p177)."""
    penalty = fatigue_penalty(fatigue.level)
    parts: tuple[Part, ...] = (
        ("Combat Fatigue", combat_fatigue),
        ("wound penalty", wound_penalty),
        ("fatigue penalty", penalty),
        ("storyguide", modifier),
    )
    roll = stress_die(dice, botch_dice)
    total = roll_total(roll, combat_fatigue + wound_penalty + penalty + modifier)
    botched = roll.botched
    lost = levels_lost_on(total > ease_factor, botched)
    after = lose_fatigue_levels(fatigue, lost, Exertion.SHORT_TERM) if lost else fatigue
    record = FatigueRoll(combatant, "combat", total, ease_factor, roll, parts, botched, lost, after.level)
    return after, record


def fatigue_test(
    combatant: str,
    dice: Dice,
    fatigue: FatigueState,
    *,
    stamina: int,
    encumbrance: int,
    wound_penalty: int = 0,
    ease_factor: int = FATIGUE_EASE_FACTOR,
    modifier: int = 0,
    botch_dice: int = 1,
    exertion: Exertion = Exertion.SHORT_TERM,
) -> tuple[FatigueState, FatigueRoll]:
    """Fatigue test: stress die + Stamina + Encumbrance + penalties against ease factor 6;
    failure loses a Fatigue level, a botch two (ArM3 p177)."""
    parts: tuple[Part, ...] = (
        ("Stamina", stamina),
        ("Encumbrance", encumbrance),
        ("wound penalty", wound_penalty),
        ("fatigue penalty", fatigue_penalty(fatigue.level)),
        ("storyguide", modifier),
    )
    roll = stress_die(dice, botch_dice)
    total = roll_total(roll, sum(value for _, value in parts))
    lost = levels_lost_on(total >= ease_factor, roll.botched)
    after = lose_fatigue_levels(fatigue, lost, exertion)
    record = FatigueRoll(combatant, "test", total, ease_factor, roll, parts, roll.botched, lost, after.level)
    return after, record
