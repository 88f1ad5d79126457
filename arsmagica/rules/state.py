"""The round's state: combatants with sheets and current levels, declarations, what was rolled."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum

from combat.rules.errors import RulesError

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

    __hash__ = object.__hash__  # members are singletons: hashed by identity, at C speed


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

    # Derived once, when the state is made: read on nearly every total of a round.
    id: str = field(init=False, repr=False, compare=False)
    fatigue_level: FatigueLevel = field(init=False, repr=False, compare=False)
    body_level: BodyLevel = field(init=False, repr=False, compare=False)
    wound_penalty: int = field(init=False, repr=False, compare=False)
    penalty: int = field(init=False, repr=False, compare=False)
    can_act: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        fatigue_level = self.fatigue.level
        body_level = self.sheet.body_track.level_at(self.body_levels_lost)
        wounds = wound_penalty(body_level)
        set_field = object.__setattr__
        set_field(self, "id", self.sheet.id)
        set_field(self, "fatigue_level", fatigue_level)
        set_field(self, "body_level", body_level)
        set_field(self, "wound_penalty", wounds)
        # Fatigue and wound penalties together: on every roll but Soak (ArM3 p177).
        set_field(self, "penalty", fatigue_penalty(fatigue_level) + wounds)
        set_field(self, "can_act", can_act(fatigue_level, body_level))

    def with_fatigue(self, fatigue: FatigueState) -> CombatantState:
        if fatigue is self.fatigue:
            return self
        return CombatantState(
            self.sheet, fatigue, self.body_levels_lost, self.advantage_attack,
            self.advantage_defense, self.next_advantage_attack, self.next_advantage_defense,
        )  # fmt: skip

    def with_body_levels_lost(self, levels_lost: int) -> CombatantState:
        if levels_lost == self.body_levels_lost:
            return self
        return CombatantState(
            self.sheet, self.fatigue, levels_lost, self.advantage_attack,
            self.advantage_defense, self.next_advantage_attack, self.next_advantage_defense,
        )  # fmt: skip

    def with_next_advantage(self, attack: int, defense: int) -> CombatantState:
        return CombatantState(
            self.sheet, self.fatigue, self.body_levels_lost, self.advantage_attack,
            self.advantage_defense, attack, defense,
        )  # fmt: skip

    def next_round(self) -> CombatantState:
        """Advantage won this round becomes this round's; advantage held is used up (p168)."""
        if not (self.advantage_attack or self.advantage_defense or self.next_advantage_attack
                or self.next_advantage_defense):  # fmt: skip
            return self
        return CombatantState(
            self.sheet, self.fatigue, self.body_levels_lost,
            self.next_advantage_attack, self.next_advantage_defense,
        )  # fmt: skip


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
