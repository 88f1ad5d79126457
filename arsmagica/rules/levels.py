"""Fatigue levels and Body levels, their penalties, and moving along them."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from combat.rules.errors import RulesError

from .record import Record


class FatigueLevel(Enum):
    FRESH = "fresh"
    WINDED = "winded"
    WEARY = "weary"
    TIRED = "tired"
    DAZED = "dazed"
    UNCONSCIOUS = "unconscious"

    __hash__ = object.__hash__  # members are singletons: hashed by identity, at C speed


class BodyLevel(Enum):
    UNHURT = "unhurt"
    HURT = "hurt"
    LIGHT_WOUNDS = "light_wounds"
    MEDIUM_WOUNDS = "medium_wounds"
    HEAVY_WOUNDS = "heavy_wounds"
    INCAPACITATED = "incapacitated"
    DEAD = "dead"

    __hash__ = object.__hash__  # members are singletons: hashed by identity, at C speed


class Exertion(Enum):
    """How a Fatigue level was lost: rest recovers short-term levels, only food and sleep long."""

    SHORT_TERM = "short_term"
    LONG_TERM = "long_term"


FATIGUE_LEVELS: tuple[FatigueLevel, ...] = tuple(FatigueLevel)
_FATIGUE_PENALTY = {
    FatigueLevel.FRESH: 0,
    FatigueLevel.WINDED: 0,
    FatigueLevel.WEARY: -1,
    FatigueLevel.TIRED: -3,
    FatigueLevel.DAZED: -5,
    FatigueLevel.UNCONSCIOUS: 0,
}
_WOUND_PENALTY = {
    BodyLevel.UNHURT: 0,
    BodyLevel.HURT: 0,
    BodyLevel.LIGHT_WOUNDS: -1,
    BodyLevel.MEDIUM_WOUNDS: -3,
    BodyLevel.HEAVY_WOUNDS: -5,
    BodyLevel.INCAPACITATED: 0,
    BodyLevel.DEAD: 0,
}
_WOUND_LEVELS = (
    BodyLevel.HURT,
    BodyLevel.LIGHT_WOUNDS,
    BodyLevel.MEDIUM_WOUNDS,
    BodyLevel.HEAVY_WOUNDS,
)


def fatigue_penalty(level: FatigueLevel) -> int:
    """Fatigue penalty: Winded 0, Weary -1, Tired -3, Dazed -5; Unconscious is its own (ArM3 p177)."""
    return _FATIGUE_PENALTY[level]


def wound_penalty(level: BodyLevel) -> int:
    """Wound penalty: Hurt 0, Light -1, Medium -3, Heavy -5 (ArM3 p177, numbers from RULES.md)."""
    return _WOUND_PENALTY[level]


def can_act(fatigue_level: FatigueLevel, body_level: BodyLevel) -> bool:
    """Unconscious and Incapacitated characters take no actions, nor do the dead (ArM3 p177)."""
    return not why_not_acting(fatigue_level, body_level)


def why_not_acting(fatigue_level: FatigueLevel, body_level: BodyLevel) -> str:
    """Why a character takes no action (ArM3 p177): "dead", "incapacitated", "unconscious"; "" if it can."""
    if body_level in (BodyLevel.DEAD, BodyLevel.INCAPACITATED):
        return body_level.value
    return fatigue_level.value if fatigue_level is FatigueLevel.UNCONSCIOUS else ""


@dataclass(frozen=True, slots=True)
class BodyTrack(Record):
    """The Body levels a creature has: how many of each wound level (Hurt x3 ...) (ArM3 p177).

    Unhurt and Incapacitated are single levels; a level lost past Incapacitated is Dead.
    """

    hurt: int = 1
    light_wounds: int = 1
    medium_wounds: int = 1
    heavy_wounds: int = 1
    levels: tuple[BodyLevel, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        counts = (self.hurt, self.light_wounds, self.medium_wounds, self.heavy_wounds)
        for level, count in zip(_WOUND_LEVELS, counts, strict=True):
            if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= 20:
                raise RulesError(f"a body track has 0 to 20 {level.value} levels, not {count!r}")
        levels = [BodyLevel.UNHURT]
        for level, count in zip(_WOUND_LEVELS, counts, strict=True):
            levels.extend([level] * count)
        levels += [BodyLevel.INCAPACITATED, BodyLevel.DEAD]
        object.__setattr__(self, "levels", tuple(levels))

    def to_dict(self) -> dict[str, int]:
        return {
            "hurt": self.hurt,
            "light_wounds": self.light_wounds,
            "medium_wounds": self.medium_wounds,
            "heavy_wounds": self.heavy_wounds,
        }

    @property
    def dead_index(self) -> int:
        return len(self.levels) - 1

    def level_at(self, levels_lost: int) -> BodyLevel:
        """The Body level after losing this many levels (never past Dead)."""
        return self.levels[min(max(levels_lost, 0), self.dead_index)]

    def levels_lost_at(self, level: BodyLevel) -> int:
        """How many levels are lost on reaching the first box of `level`."""
        if level not in self.levels:
            raise RulesError(f"this creature has no {level.value} level")
        return self.levels.index(level)

    def lose(self, levels_lost: int, count: int) -> int:
        """Lose `count` Body levels: never past Dead, never back above Unhurt (ArM3 p168)."""
        return min(max(levels_lost + max(count, 0), 0), self.dead_index)


HUMAN_BODY_TRACK = BodyTrack()


@dataclass(frozen=True, slots=True)
class FatigueState(Record):
    """Fatigue levels lost so far, each remembering its exertion, most recent last.

    `recovery_seconds` is rest already done towards recovering the current level,
    counted in seconds of quiet rest.
    """

    lost: tuple[Exertion, ...] = ()
    recovery_seconds: int = 0

    @property
    def level(self) -> FatigueLevel:
        return FATIGUE_LEVELS[len(self.lost)]

    @classmethod
    def at(cls, level: FatigueLevel, exertion: Exertion = Exertion.SHORT_TERM) -> FatigueState:
        """A character already at `level`, every level lost to `exertion`."""
        return cls((exertion,) * FATIGUE_LEVELS.index(level))


def lose_fatigue_levels(
    state: FatigueState, count: int, exertion: Exertion = Exertion.SHORT_TERM
) -> FatigueState:
    """Lose Fatigue levels: one on a failed test, two on a botch; never past Unconscious (p177)."""
    room = len(FATIGUE_LEVELS) - 1 - len(state.lost)
    count = min(max(count, 0), room)
    if count == 0:
        return state
    return FatigueState(state.lost + (exertion,) * count, 0)
