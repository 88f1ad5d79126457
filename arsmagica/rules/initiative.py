"""Initiative Totals and the acting order."""

from __future__ import annotations

from .dice import StressRoll, roll_total

Part = tuple[str, int]

HIGH_GROUND_BONUS = 3
ROUTING_BONUS = 6
CHARGING_BONUS = 3


def initiative_modifiers(
    *, ride: int, mounted: bool, charging: bool, high_ground: bool, routing: bool
) -> tuple[Part, ...]:
    """Initiative Modifiers Table: horseback + Ride and high ground, routing +6, charging +3,
    high ground +3; a rider's high ground is not counted twice (ArM3 p163)."""
    parts: list[Part] = []
    if mounted:
        parts.append(("on horseback: Ride", ride))
        parts.append(("on horseback: high ground", HIGH_GROUND_BONUS))
    elif high_ground:
        parts.append(("holding high ground", HIGH_GROUND_BONUS))
    if routing:
        parts.append(("routing", ROUTING_BONUS))
    if charging:
        parts.append(("charging", CHARGING_BONUS))
    return tuple(parts)


def initiative_total(roll: StressRoll, initiative_score: int, modifiers: int) -> int:
    """Initiative Total = stress die + weapon Initiative + modifiers (ArM3 p163)."""
    return roll_total(roll, initiative_score + modifiers)


def acting_order_key(
    initiative_total: int, initiative_score: int, quickness: int, listed: int
) -> tuple[int, int, int, int]:
    """Highest Initiative Total acts first; ties: Initiative score, Quickness, listed first [ours]."""
    return (-initiative_total, -initiative_score, -quickness, listed)
