"""Engagements: ranges, engagement contests, and the penalties of fighting at the wrong range."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from .record import Record
from .sheet import Range

INSIDE_RANGE_PENALTY = -6
EXTRA_OPPONENT_PENALTY = -3


@dataclass(frozen=True, slots=True)
class Engagement(Record):
    """Two combatants engaged at a range; `prevailed` names the winner of a contest."""

    a: str
    b: str
    range: Range
    contested: bool = False
    prevailed: str | None = None


@dataclass(frozen=True, slots=True)
class Escape(Record):
    """An unwilling opponent who won the engagement contest and got away."""

    combatant: str
    pursuer: str


class EngagementWish(NamedTuple):
    """What one declaration asks for: whom to engage, at what range, or to get away."""

    targets: tuple[str, ...]
    range: Range | None
    fleeing: bool = False


def range_penalty(optimum: Range, engaged_at: Range) -> int:
    """-6 to Attack and Defense per range step inside the weapon's optimum range (ArM3 p168)."""
    steps_inside = optimum.step - engaged_at.step
    return INSIDE_RANGE_PENALTY * steps_inside if steps_inside > 0 else 0


def can_strike(optimum: Range, engaged_at: Range) -> bool:
    """A weapon cannot strike at a range longer than its optimum range [ours]."""
    return engaged_at.step <= optimum.step


def multiple_opponents_penalty(opponents: int) -> int:
    """-3 to Attack and Defense Totals for each opponent beyond the first (ArM3 p168)."""
    return EXTRA_OPPONENT_PENALTY * (opponents - 1) if opponents > 1 else 0


def settle_engagements(
    order: Sequence[str], wishes: Mapping[str, EngagementWish]
) -> tuple[tuple[Engagement, ...], tuple[Escape, ...]]:
    """Engagement contests, settled from the highest Initiative Total down (ArM3 p163, p168).

    `order` is the acting order (combatants without a declaration come last). Both
    sides wanting the same range: no contest. Different ranges: the higher prevails.
    A fleeing (routing or merely moving) target that acts before its pursuer gets away.
    """
    position = {combatant: index for index, combatant in enumerate(order)}
    settled: set[tuple[str, str]] = set()
    engagements: list[Engagement] = []
    escapes: list[Escape] = []
    for combatant in order:
        wish = wishes.get(combatant)
        if wish is None:
            continue
        for target in wish.targets:
            pair = (combatant, target) if combatant < target else (target, combatant)  # either way round
            if pair in settled:
                continue
            settled.add(pair)
            other = wishes.get(target)
            if other is not None and combatant in other.targets:
                if other.range is wish.range:
                    engagements.append(Engagement(combatant, target, wish.range))
                else:
                    engagements.append(Engagement(combatant, target, wish.range, True, combatant))
            elif other is not None and other.fleeing:
                if position[target] < position[combatant]:
                    escapes.append(Escape(target, combatant))
                else:
                    engagements.append(Engagement(combatant, target, wish.range, True, combatant))
            else:
                engagements.append(Engagement(combatant, target, wish.range))
    return tuple(engagements), tuple(escapes)
