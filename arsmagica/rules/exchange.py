"""One exchange of blows: Attack and Defense Totals, hit or advantage, damage and wounds."""

from __future__ import annotations

from enum import Enum

from .dice import StressRoll, roll_total

SOAK_STEP = 5


class Result(Enum):
    HIT = "hit"
    ADVANTAGE = "advantage"
    MISS = "miss"


class OnSuccess(Enum):
    """What the attacker does with a winning difference: a hit now, or advantage next round."""

    HIT = "hit"
    ADVANTAGE_ATTACK = "advantage_attack"
    ADVANTAGE_DEFENSE = "advantage_defense"


class DefenseWith(Enum):
    WEAPON = "weapon"
    BRAWLING = "brawling"
    DODGE = "dodge"
    NONE = "none"


def attack_total(roll: StressRoll, attack_score: int, modifiers: int) -> int:
    """Attack Total = Attack score + stress die + modifiers (ArM3 p168)."""
    return roll_total(roll, attack_score + modifiers)


def defense_total(roll: StressRoll, defense_score: int, modifiers: int) -> int:
    """Defense Total = Defense score + the round's same stress die + modifiers (ArM3 p168)."""
    return roll_total(roll, defense_score + modifiers)


def exchange_result(attack: int, defense: int, on_success: OnSuccess) -> tuple[Result, int]:
    """Attack Total over Defense Total: the difference goes to a hit or to advantage, never
    split; a tie or less does nothing (ArM3 p168)."""
    difference = attack - defense
    if difference <= 0:
        return Result.MISS, difference
    if on_success is OnSuccess.HIT:
        return Result.HIT, difference
    return Result.ADVANTAGE, difference


def damage_total(damage_score: int, difference: int) -> int:
    """Damage Total = Damage score + the difference of the hit (ArM3 p168)."""
    return damage_score + difference


def body_levels_lost(damage: int, soak: int) -> int:
    """One Body level for each full five points by which damage exceeds Soak (ArM3 p168, p177)."""
    return (damage - soak) // SOAK_STEP if damage > soak else 0


def deals_damage_first(first: tuple[int, int, int, int], second: tuple[int, int, int, int]) -> bool:
    """When both would go down, the higher Initiative score deals damage first (ArM3 p168).

    Each key is (Initiative score, Initiative Total, Quickness, -listed); ties fall through
    to the next element [ours].
    """
    return first > second
