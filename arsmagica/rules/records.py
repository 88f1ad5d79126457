"""What each phase did: frozen records, ready for the event log through `to_dict()`."""

from __future__ import annotations

from dataclasses import dataclass

from .dice import StressRoll
from .engagement import Engagement, Escape
from .exchange import DefenseWith, OnSuccess, Result
from .fatigue import FatigueRoll
from .magic import SpellKind
from .record import Record
from .sheet import Range
from .state import InitiativeRecord, Phase

Part = tuple[str, int]


@dataclass(frozen=True, slots=True)
class AttackRecord(Record):
    """One attack: both totals with their parts and dice, the result, and the harm done.

    `defense_roll` is None when the defender could not defend (Defense Total 0).
    `damage_prevented`: both would have gone down, and the other dealt damage first.
    """

    phase: Phase
    attacker: str
    defender: str
    weapon: str
    range: Range | None
    attack_total: int
    attack_parts: tuple[Part, ...]
    attack_roll: StressRoll
    defense_total: int
    defense_parts: tuple[Part, ...]
    defense_roll: StressRoll | None
    defense_with: DefenseWith
    result: Result
    difference: int
    applied_as: OnSuccess | None
    damage_total: int | None
    soak: int
    body_levels_lost: int
    damage_prevented: bool


@dataclass(frozen=True, slots=True)
class CastingRecord(Record):
    """A spell cast: its order in the phase, the casting total, and a spontaneous spell's
    fatigue test. The spell's effect is the storyguide's to apply."""

    phase: Phase
    caster: str
    kind: SpellKind
    spell: str
    casting_speed: int
    casting_total: int
    parts: tuple[Part, ...]
    roll: StressRoll
    fatigue_test: FatigueRoll | None


@dataclass(frozen=True, slots=True)
class Skip(Record):
    """Something declared that did not happen, and why."""

    combatant: str
    target: str | None
    reason: str


@dataclass(frozen=True, slots=True)
class PhaseResult(Record):
    """Everything one phase did; fields a phase does not use stay empty.

    `deaths`: combatants who reached Dead in this phase, for the storyguide to confirm.
    """

    phase: Phase
    initiative: tuple[InitiativeRecord, ...] = ()
    engagements: tuple[Engagement, ...] = ()
    escapes: tuple[Escape, ...] = ()
    attacks: tuple[AttackRecord, ...] = ()
    spells: tuple[CastingRecord, ...] = ()
    fatigue: tuple[FatigueRoll, ...] = ()
    skipped: tuple[Skip, ...] = ()
    deaths: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class RoundResult(Record):
    """A whole round: the result of each phase in order."""

    number: int
    phases: tuple[PhaseResult, ...]

    def phase(self, phase: Phase) -> PhaseResult:
        for result in self.phases:
            if result.phase is phase:
                return result
        raise KeyError(phase)
