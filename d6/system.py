"""The d6 fatigue-track system, as the table core sees it: turn-based fights and chases on a grid,
fatigue rising on physical rolls (d6 seed). Like every system, it is its modules under the names
`combat.systems.RuleSystem` reads: nothing here but its names, and no Django."""

from __future__ import annotations

from combat.systems import RuleSystem

from . import KEY


class D6Fatigue(RuleSystem):
    key = KEY
    label = "d6 fatigue track"
    short_name = "d6 fatigue-track"
