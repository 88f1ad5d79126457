"""The round's state: combatants with sheets and current levels, declarations, what was rolled."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum

from ..errors import RulesError
from .dice import StressRoll
from .engagement import Engagement
from .exchange import OnSuccess
from .levels import (
    BodyLevel,
    FatigueLevel,
    FatigueState,
    can_act,
    fatigue_penalty,
    wound_penalty,
)
from .magic import Spell
from .movement import Movement
from .phase import Phase
from .record import Record
from .sheet import Range, Sheet


class Action(Enum):
    ATTACK = "attack"  # melee: engage the listed opponents
    MISSILE = "missile"  # shoot or throw at one target
    CAST = "cast"  # cast a spell
    MOVE = "move"  # move (routing or not) without engaging
    OTHER = "other"  # anything else the storyguide adjudicates


@dataclass(frozen=True, slots=True)
class Declaration(Record):
    """One combatant's declaration for the round (ArM3 p163).

    `range` defaults to the weapon's optimum range; `modifier` is the storyguide's
    Initiative modifier; `missile_phase` is FIRST_MISSILE or SECOND_MISSILE (a weapon
    that fires twice fires in both); `distance` is the target's distance in paces.
    """

    combatant: str
    action: Action = Action.OTHER
    weapon: str | None = None
    engage: tuple[str, ...] = ()
    range: Range | None = None
    on_success: OnSuccess = OnSuccess.HIT
    movement: Movement | None = None
    mounted: bool = False
    charging: bool = False
    high_ground: bool = False
    routing: bool = False
    modifier: int = 0
    missile_phase: Phase = Phase.FIRST_MISSILE
    distance: int | None = None
    spell: Spell | None = None


@dataclass(frozen=True, slots=True)
class CombatantState(Record):
    """A combatant in the fight: the sheet, current levels, and advantage.

    `advantage_attack`/`advantage_defense` are added to this round's totals; the
    `next_` ones were won this round and carry over at `end_round`.
    """

    sheet: Sheet
    fatigue: FatigueState = FatigueState()
    body_levels_lost: int = 0
    advantage_attack: int = 0
    advantage_defense: int = 0
    next_advantage_attack: int = 0
    next_advantage_defense: int = 0

    @classmethod
    def start(
        cls,
        sheet: Sheet,
        fatigue_level: FatigueLevel = FatigueLevel.FRESH,
        body_level: BodyLevel = BodyLevel.UNHURT,
    ) -> CombatantState:
        """A combatant entering the fight at these levels (earlier losses count short-term)."""
        return cls(sheet, FatigueState.at(fatigue_level), sheet.body_track.levels_lost_at(body_level))

    @property
    def id(self) -> str:
        return self.sheet.id

    @property
    def fatigue_level(self) -> FatigueLevel:
        return self.fatigue.level

    @property
    def body_level(self) -> BodyLevel:
        return self.sheet.body_track.level_at(self.body_levels_lost)

    @property
    def wound_penalty(self) -> int:
        return wound_penalty(self.body_level)

    @property
    def penalty(self) -> int:
        """Fatigue and wound penalties together: on every roll but Soak (ArM3 p177)."""
        return fatigue_penalty(self.fatigue.level) + wound_penalty(self.body_level)

    @property
    def can_act(self) -> bool:
        return can_act(self.fatigue.level, self.body_level)


@dataclass(frozen=True, slots=True)
class InitiativeRecord(Record):
    """One combatant's Initiative Total with its parts; `paces` is the declared movement."""

    combatant: str
    total: int
    initiative_score: int
    roll: StressRoll
    parts: tuple[tuple[str, int], ...]
    paces: int | None = None


@dataclass(frozen=True, slots=True)
class CombatDie(Record):
    """The one stress die a combatant uses for every Attack and Defense Total of the round."""

    combatant: str
    roll: StressRoll


@dataclass(frozen=True, slots=True)
class RoundState(Record):
    """Everything about the round so far; `phase` is the next phase to run."""

    number: int
    combatants: tuple[CombatantState, ...]
    phase: Phase = Phase.MOVEMENT
    declarations: tuple[Declaration, ...] = ()
    initiative: tuple[InitiativeRecord, ...] = ()  # in acting order
    engagements: tuple[Engagement, ...] = ()
    combat_dice: tuple[CombatDie, ...] = ()

    def combatant(self, combatant_id: str) -> CombatantState:
        for combatant in self.combatants:
            if combatant.id == combatant_id:
                return combatant
        raise RulesError(f"no combatant with id {combatant_id!r}")

    def expect(self, phase: Phase) -> None:
        if self.phase is not phase:
            raise RulesError(
                f"round {self.number} is at the {self.phase.value} phase, "
                f"so the {phase.value} phase cannot run now"
            )


@dataclass(frozen=True, slots=True)
class PhaseOptions:
    """The storyguide's choices for a phase; every mapping is keyed by combatant id.

    botch_dice: botch dice per roll (default `default_botch_dice`, 1); modifiers:
    added to every total the combatant makes in the phase; ease_factors: the
    Fatigue phase's ease factor (default 6); on_success: (attacker, defender) ->
    what a winning difference becomes, overriding the declaration;
    extra_fatigue_rollers: others the storyguide asks to roll in the Fatigue phase.
    """

    botch_dice: Mapping[str, int] = field(default_factory=dict)
    default_botch_dice: int = 1
    modifiers: Mapping[str, int] = field(default_factory=dict)
    ease_factors: Mapping[str, int] = field(default_factory=dict)
    default_ease_factor: int = 6
    on_success: Mapping[tuple[str, str], OnSuccess] = field(default_factory=dict)
    extra_fatigue_rollers: tuple[str, ...] = ()

    def botch_dice_for(self, combatant_id: str) -> int:
        return self.botch_dice.get(combatant_id, self.default_botch_dice)

    def modifier_for(self, combatant_id: str) -> int:
        return self.modifiers.get(combatant_id, 0)

    def ease_factor_for(self, combatant_id: str) -> int:
        return self.ease_factors.get(combatant_id, self.default_ease_factor)


DEFAULT_OPTIONS = PhaseOptions()
