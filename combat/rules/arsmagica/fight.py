"""Working context for one phase: running combatant states, the round's dice, and totals.

Phase functions build one `Fight`, change it as the phase goes, and turn it back into a
new `RoundState`; nothing outside the phase ever sees it change.
"""

from __future__ import annotations

from functools import cached_property

from .dice import StressRoll, stress_die
from .dicebox import DiceBox
from .engagement import multiple_opponents_penalty, range_penalty
from .exchange import DefenseWith, attack_total, defense_total
from .levels import BodyLevel
from .phase import Phase
from .sheet import Range, Weapon
from .state import CombatantState, CombatDie, Declaration, InitiativeRecord, PhaseOptions, RoundState

Part = tuple[str, int]


class Fight:
    def __init__(self, state: RoundState, dice_box: DiceBox, options: PhaseOptions) -> None:
        self.state = state
        self.dice_box = dice_box
        self.options = options
        self.combatants = {combatant.id: combatant for combatant in state.combatants}
        self.declarations = {item.combatant: item for item in state.declarations}
        self.dice = {die.combatant: die.roll for die in state.combat_dice}
        self.deaths: list[str] = []
        self._weapons: dict[str, Weapon | None] = {}

    @cached_property
    def initiative(self) -> dict[str, InitiativeRecord]:
        return {record.combatant: record for record in self.state.initiative}

    @cached_property
    def acting(self) -> dict[str, int]:
        return {record.combatant: index for index, record in enumerate(self.state.initiative)}

    @cached_property
    def listed(self) -> dict[str, int]:
        return {combatant.id: index for index, combatant in enumerate(self.state.combatants)}

    @cached_property
    def opponents(self) -> dict[str, int]:
        """How many opponents each combatant is engaged with."""
        opponents: dict[str, int] = {}
        for engagement in self.state.engagements:
            opponents[engagement.a] = opponents.get(engagement.a, 0) + 1
            opponents[engagement.b] = opponents.get(engagement.b, 0) + 1
        return opponents

    # --- the round's dice -------------------------------------------------------------

    def combat_die(self, combatant: str) -> StressRoll:
        """The one die for every Attack and Defense Total of the round (ArM3 p168)."""
        roll = self.dice.get(combatant)
        if roll is None:
            roll = stress_die(
                self.dice_box.dice_for(combatant, "combat"),
                self.options.botch_dice_for(combatant),
            )
            self.dice[combatant] = roll
        return roll

    def roll(self, combatant: str, purpose: str) -> StressRoll:
        return stress_die(self.dice_box.dice_for(combatant, purpose), self.options.botch_dice_for(combatant))

    # --- who can do what -------------------------------------------------------------

    def can_defend(self, combatant: CombatantState) -> bool:
        """Routing, Unconscious or Incapacitated: no defence, Defense Total 0 [ours, p163]."""
        declaration = self.declarations.get(combatant.id)
        return combatant.can_act and not (declaration is not None and declaration.routing)

    def declared_weapon(self, declaration: Declaration | None) -> Weapon | None:
        if declaration is None or declaration.weapon is None:
            return None
        weapon = self._weapons.get(declaration.combatant)
        if weapon is None:
            weapon = self.combatants[declaration.combatant].sheet.weapon(declaration.weapon)
            self._weapons[declaration.combatant] = weapon
        return weapon

    # --- totals ---------------------------------------------------------------------

    def _common(self, combatant: CombatantState, advantage: int) -> tuple[list[Part], int]:
        """Modifiers shared by a combatant's totals, and their sum."""
        parts: list[Part] = []
        total = 0
        opponents = self.opponents.get(combatant.id, 0)
        if opponents > 1:
            penalty = multiple_opponents_penalty(opponents)
            parts.append((f"{opponents} opponents", penalty))
            total += penalty
        if combatant.penalty:
            parts.append(("fatigue and wound penalties", combatant.penalty))
            total += combatant.penalty
        modifier = self.options.modifier_for(combatant.id)
        if modifier:
            parts.append(("storyguide", modifier))
            total += modifier
        if advantage:
            parts.append(("advantage", advantage))
            total += advantage
        return parts, total

    def attack(
        self, attacker: CombatantState, weapon: Weapon, roll: StressRoll, at: Range | None
    ) -> tuple[int, tuple[Part, ...]]:
        """Attack Total with its parts: score, die, range, opponents, penalties (ArM3 p168)."""
        parts: list[Part] = [(f"Attack score ({weapon.name})", weapon.attack), ("stress die", roll.value)]
        inside = range_penalty(weapon.range, at) if at is not None else 0
        if inside:
            parts.append((f"{weapon.name} inside its range", inside))
        common, modifiers = self._common(attacker, attacker.advantage_attack)
        parts += common
        return attack_total(roll, weapon.attack, inside + modifiers), tuple(parts)

    def defense(
        self, defender: CombatantState, at: Range | None
    ) -> tuple[int, tuple[Part, ...], StressRoll | None, DefenseWith]:
        """The better Defense Total: the weapon (-6 per step inside its range), Brawling at
        Touch, Dodge when no weapon is declared or against missiles (ArM3 p168) [ours]."""
        if not self.can_defend(defender):
            return 0, (("cannot defend", 0),), None, DefenseWith.NONE
        roll = self.combat_die(defender.id)
        weapon = self.declared_weapon(self.declarations.get(defender.id))
        if weapon is not None and weapon.missile and at is not None:
            weapon = None
        candidates: list[tuple[DefenseWith, Part, int]] = []
        if weapon is not None:
            inside = range_penalty(weapon.range, at) if at is not None else 0
            candidates.append(
                (DefenseWith.WEAPON, (f"Defense score ({weapon.name})", weapon.defense), inside)
            )
        if at is Range.TOUCH:
            candidates.append((DefenseWith.BRAWLING, ("Brawling", defender.sheet.brawling), 0))
        if weapon is None or at is None:
            candidates.append((DefenseWith.DODGE, ("Dodge Defense", defender.sheet.dodge), 0))
        common, common_sum = self._common(defender, defender.advantage_defense)
        best = None
        for kind, score_part, inside in candidates:
            total = defense_total(roll, score_part[1], inside + common_sum)
            if best is None or total > best[0]:
                best = (total, kind, score_part, inside)
        total, kind, score_part, inside = best
        parts = [score_part, ("stress die", roll.value)]
        if inside:
            parts.append((f"{weapon.name} inside its range", inside))
        return total, tuple(parts + common), roll, kind

    # --- harm -----------------------------------------------------------------------

    def wound(self, combatant_id: str, levels: int) -> None:
        combatant = self.combatants[combatant_id]
        was_dead = combatant.body_level is BodyLevel.DEAD
        lost = combatant.sheet.body_track.lose(combatant.body_levels_lost, levels)
        combatant = combatant.with_body_levels_lost(lost)
        self.combatants[combatant_id] = combatant
        if combatant.body_level is BodyLevel.DEAD and not was_dead:
            self.deaths.append(combatant_id)

    def would_go_down(self, combatant_id: str, levels: int) -> bool:
        """Slain or knocked unconscious (Incapacitated counts [ours]) by these levels."""
        combatant = self.combatants[combatant_id]
        track = combatant.sheet.body_track
        after = track.level_at(track.lose(combatant.body_levels_lost, levels))
        return levels > 0 and after in (BodyLevel.INCAPACITATED, BodyLevel.DEAD)

    def gain_advantage(self, combatant_id: str, attack: bool, difference: int) -> None:
        """Advantage won: the largest difference of the round carries over [ours]."""
        combatant = self.combatants[combatant_id]
        if attack:
            combatant = combatant.with_next_advantage(
                max(combatant.next_advantage_attack, difference), combatant.next_advantage_defense
            )
        else:
            combatant = combatant.with_next_advantage(
                combatant.next_advantage_attack, max(combatant.next_advantage_defense, difference)
            )
        self.combatants[combatant_id] = combatant

    def set_combatant(self, combatant: CombatantState) -> None:
        self.combatants[combatant.id] = combatant

    # --- back to a state --------------------------------------------------------------

    def state_after(self, next_phase: Phase) -> RoundState:
        state = self.state
        return RoundState(
            state.number,
            tuple(self.combatants[combatant.id] for combatant in state.combatants),
            next_phase,
            state.declarations,
            state.initiative,
            state.engagements,
            tuple(CombatDie(combatant, roll) for combatant, roll in self.dice.items()),
        )

    def deals_first_key(self, combatant_id: str) -> tuple[int, int, int, int]:
        """Initiative score, then Initiative Total, then Quickness, then listed first."""
        record = self.initiative[combatant_id]
        quickness = self.combatants[combatant_id].sheet.quickness
        return (record.initiative_score, record.total, quickness, -self.listed[combatant_id])
