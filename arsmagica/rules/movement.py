"""Movement rates per combat round, in paces."""

from __future__ import annotations

from enum import Enum

from .sheet import Sheet


class Movement(Enum):
    WALKING = "walking"
    WALKING_CAUTIOUSLY = "walking_cautiously"
    HUSTLING = "hustling"
    SPRINTING = "sprinting"
    HORSEBACK = "horseback"


def walking_paces(sheet: Sheet) -> int:
    """Walking: 9 + Qik paces per round, as the Movement Table gives it (ArM3 p163)."""
    return max(0, 9 + sheet.quickness)


def walking_cautiously_paces(sheet: Sheet) -> int:
    """Walking cautiously: 9 + Quickness + Encumbrance paces, as the prose gives it (ArM3 p163)."""
    return max(0, 9 + sheet.quickness + sheet.encumbrance)


def hustling_paces(sheet: Sheet) -> int:
    """Hustling: 15 + Qik + Enc paces per round (ArM3 p163)."""
    return max(0, 15 + sheet.quickness + sheet.encumbrance)


def sprinting_paces(sheet: Sheet, penalty: int) -> int:
    """Sprinting: 30 + Qik + Athletics + Enc, with wound and fatigue penalties (ArM3 p163)."""
    return max(0, 30 + sheet.quickness + sheet.athletics + sheet.encumbrance + penalty)


def horseback_paces(sheet: Sheet) -> int:
    """Horseback, safe gallop: 50 + Ride paces per round (ArM3 p163)."""
    return max(0, 50 + sheet.ride)


def movement_paces(sheet: Sheet, movement: Movement, penalty: int = 0) -> int:
    """Paces per round for a declared movement; `penalty` is fatigue + wound (ArM3 p163)."""
    if movement is Movement.WALKING:
        return walking_paces(sheet)
    if movement is Movement.WALKING_CAUTIOUSLY:
        return walking_cautiously_paces(sheet)
    if movement is Movement.HUSTLING:
        return hustling_paces(sheet)
    if movement is Movement.SPRINTING:
        return sprinting_paces(sheet, penalty)
    return horseback_paces(sheet)
