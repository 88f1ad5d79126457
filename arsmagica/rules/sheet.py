"""A combatant's sheet: the combat scores as the sheet shows them, and melee ranges."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from combat.rules.errors import RulesError

from .levels import HUMAN_BODY_TRACK, BodyTrack
from .record import Record


class Range(Enum):
    """Melee ranges, closest first: Touch < Reach < Long."""

    TOUCH = "touch"
    REACH = "reach"
    LONG = "long"

    step: int  # 0, 1, 2: how many ranges out from Touch
    __hash__ = object.__hash__  # members are singletons: hashed by identity, at C speed


for _step, _range in enumerate(Range):
    _range.step = _step


@dataclass(frozen=True, slots=True)
class Weapon(Record):
    """One weapon's scores; `range` is its optimum range, `paces` a missile weapon's reach."""

    name: str
    initiative: int
    attack: int
    defense: int
    damage: int
    range: Range
    missile: bool = False
    paces: int | None = None
    twice: bool = False


@dataclass(frozen=True, slots=True)
class Sheet(Record):
    """The scores the combat rules read, stored as totals, as the sheet shows them."""

    id: str
    name: str
    weapons: tuple[Weapon, ...] = ()
    quickness: int = 0
    stamina: int = 0
    finesse: int = 0
    athletics: int = 0
    ride: int = 0
    brawling: int = 0
    soak: int = 0
    dodge: int = 0
    combat_fatigue: int = 0
    encumbrance: int = 0
    body_track: BodyTrack = HUMAN_BODY_TRACK

    def weapon(self, name: str) -> Weapon:
        for weapon in self.weapons:
            if weapon.name == name:
                return weapon
        known = ", ".join(repr(weapon.name) for weapon in self.weapons) or "none"
        raise RulesError(f"{self.name} has no weapon named {name!r} (weapons: {known})")
