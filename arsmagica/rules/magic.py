"""The Magic phase: who casts first, casting totals, and fast-casting's earlier phase."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from .dice import StressRoll, roll_total
from .phase import Phase
from .record import Record


class SpellKind(Enum):
    SPONTANEOUS = "spontaneous"
    FORMULAIC = "formulaic"


@dataclass(frozen=True, slots=True)
class Spell(Record):
    """A declared spell: its kind and the caster's casting score (Technique + Form + ...,
    as the sheet shows it). `fast_cast_phase` names an earlier phase to interrupt."""

    kind: SpellKind
    casting_score: int
    name: str = ""
    fast_cast_phase: Phase | None = None


def casting_speed(quickness: int, finesse: int, encumbrance: int) -> int:
    """Between two casters of the same kind, higher Qik + Finesse + Encumbrance first
    (ArM3 p168)."""
    return quickness + finesse + encumbrance


def casting_order_key(kind: SpellKind, speed: int, acting: int) -> tuple[int, int, int]:
    """All spontaneous spells before all formulaic ones, then the faster caster, then the
    acting order [ours] (ArM3 p168)."""
    return (0 if kind is SpellKind.SPONTANEOUS else 1, -speed, acting)


def casting_total(roll: StressRoll, casting_score: int, modifiers: int) -> int:
    """Casting total recorded for the storyguide: casting score + stress die + modifiers [ours];
    the spell's effect is the storyguide's to apply."""
    return roll_total(roll, casting_score + modifiers)
