"""The six phases of a combat round, in order."""

from __future__ import annotations

from enum import Enum


class Phase(Enum):
    """Movement, First Missile, Melee, Second Missile, Magic, Fatigue (ArM3 p163);
    END: the round is over and awaits `end_round`."""

    MOVEMENT = "movement"
    FIRST_MISSILE = "first_missile"
    MELEE = "melee"
    SECOND_MISSILE = "second_missile"
    MAGIC = "magic"
    FATIGUE = "fatigue"
    END = "end"

    __hash__ = object.__hash__  # members are singletons: hashed by identity, at C speed


PHASES = tuple(Phase)
FAST_CAST_PHASES = (Phase.FIRST_MISSILE, Phase.MELEE, Phase.SECOND_MISSILE)
