"""Working context for a phase, or a whole round: running combatant states, the round's dice,
and totals.

Each phase function builds one `Fight`, changes it as the phase goes, and turns it back into a
new `RoundState`; `resolve_round` runs all six phases on one `Fight` and builds a state only at
the end. Nothing outside ever sees a `Fight` change.

Speed lives here, not in the rules: the engine runs thousands of rounds a second, so this
class keeps dictionaries by id, looks each weapon up once a round, reuses a combatant's
shared modifiers while its state is unchanged, and reads the storyguide's options straight
from their mappings.
"""

from __future__ import annotations

from functools import lru_cache

from .dice import StressRoll, stress_die
from .dicebox import DiceBox
from .engagement import multiple_opponents_penalty, range_penalty
from .exchange import DefenseWith, OnSuccess, attack_total, defense_total
from .levels import BodyLevel
from .phase import Phase
from .sheet import Range, Weapon
from .state import (
    CombatantState,
    CombatDie,
    Declaration,
    InitiativeRecord,
    PhaseOptions,
    RoundState,
)

Part = tuple[str, int]
_NO_PARTS: tuple[Part, ...] = ()
_CANNOT_DEFEND: tuple[Part, ...] = (("cannot defend", 0),)

# The range rules of p168, read once into tables by range step (optimum, engaged at).
_INSIDE = tuple(tuple(range_penalty(optimum, at) for at in Range) for optimum in Range)


# Members read once here: on Python 3.11 every `Enum.MEMBER` lookup goes through EnumType.__getattr__.
_NONE = DefenseWith.NONE
_WEAPON = DefenseWith.WEAPON
_BRAWLING = DefenseWith.BRAWLING
_DODGE = DefenseWith.DODGE
_TOUCH = Range.TOUCH
_DEAD = BodyLevel.DEAD


class Fight:
    def __init__(self, state: RoundState, dice_box: DiceBox, options: PhaseOptions) -> None:
        self.state = state
        self.dice_box = dice_box
        self.options = options
        self.combatants = {combatant.id: combatant for combatant in state.combatants}
        self.declarations = {item.combatant: item for item in state.declarations}
        self.actions = {item.action for item in state.declarations}
        self.dice = {die.combatant: die.roll for die in state.combat_dice}
        self.deaths: list[str] = []
        self._weapons: dict[str, Weapon | None] = {}
        # Totals kept per combatant while everything they depend on is the same object.
        self._shared: dict[str, tuple[CombatantState, tuple[Part, ...], int]] = {}
        self._attacks: dict[str, tuple] = {}
        self._defenses: dict[str, tuple] = {}
        self._botch_dice = options.botch_dice
        self._default_botch_dice = options.default_botch_dice
        self._modifiers = options.modifiers
        self._on_success = options.on_success
        self.settled(state.initiative, state.engagements)

    def settled(self, initiative: tuple[InitiativeRecord, ...], engagements: tuple) -> None:
        """The acting order and engagements, once the Movement phase has settled them."""
        self.initiative = initiative
        self.engagements = engagements
        self._by_initiative: dict[str, InitiativeRecord] | None = None
        self._acting: dict[str, int] | None = None
        self._listed: dict[str, int] | None = None
        opponents: dict[str, int] = {}
        for engagement in engagements:
            opponents[engagement.a] = opponents.get(engagement.a, 0) + 1
            opponents[engagement.b] = opponents.get(engagement.b, 0) + 1
        self.opponents = opponents  # how many opponents each combatant is engaged with
        self._shared.clear()
        self._attacks.clear()
        self._defenses.clear()

    @property
    def acting(self) -> dict[str, int]:
        """Each acting combatant's place in the acting order."""
        if self._acting is None:
            self._acting = {record.combatant: index for index, record in enumerate(self.initiative)}
        return self._acting

    @property
    def listed(self) -> dict[str, int]:
        if self._listed is None:
            self._listed = {combatant.id: index for index, combatant in enumerate(self.state.combatants)}
        return self._listed

    # --- the storyguide's options ---------------------------------------------------

    def botch_dice_for(self, combatant_id: str) -> int:
        if self._botch_dice:
            return self._botch_dice.get(combatant_id, self._default_botch_dice)
        return self._default_botch_dice

    def modifier_for(self, combatant_id: str) -> int:
        return self._modifiers.get(combatant_id, 0) if self._modifiers else 0

    def on_success(self, attacker_id: str, defender_id: str, declared: OnSuccess) -> OnSuccess:
        if self._on_success:
            return self._on_success.get((attacker_id, defender_id), declared)
        return declared

    # --- the round's dice -------------------------------------------------------------

    def combat_die(self, combatant: str) -> StressRoll:
        """The one die for every Attack and Defense Total of the round (ArM3 p168)."""
        roll = self.dice.get(combatant)
        if roll is None:
            roll = self.dice[combatant] = self.roll(combatant, "combat")
        return roll

    def roll(self, combatant: str, purpose: str) -> StressRoll:
        botch_dice = (
            self._botch_dice.get(combatant, self._default_botch_dice)
            if self._botch_dice
            else (self._default_botch_dice)
        )
        return stress_die(self.dice_box.dice_for(combatant, purpose), botch_dice)

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

    def _share(self, combatant: CombatantState) -> tuple[tuple[Part, ...], int]:
        """Modifiers on all of a combatant's totals but advantage, and their sum; kept in
        `_shared` while the combatant's state is the same object."""
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
        modifier = self._modifiers.get(combatant.id, 0) if self._modifiers else 0
        if modifier:
            parts.append(("storyguide", modifier))
            total += modifier
        shared = tuple(parts) if parts else _NO_PARTS
        self._shared[combatant.id] = (combatant, shared, total)
        return shared, total

    def attack(
        self, attacker: CombatantState, weapon: Weapon, roll: StressRoll, at: Range | None
    ) -> tuple[int, tuple[Part, ...]]:
        """Attack Total with its parts: score, die, range, opponents, penalties (ArM3 p168)."""
        kept = self._attacks.get(attacker.id)
        if (
            kept is not None
            and kept[0] is attacker
            and kept[1] is roll
            and kept[2] is at
            and kept[3] is weapon
        ):
            return kept[4]  # the same total again (a second opponent in Melee)
        kept = self._shared.get(attacker.id)
        shared, modifiers = kept[1:] if kept is not None and kept[0] is attacker else self._share(attacker)
        parts: tuple[Part, ...] = ((_attack_label(weapon.name), weapon.attack), ("stress die", roll.value))
        inside = _INSIDE[weapon.range.step][at.step] if at is not None else 0
        if inside:
            parts += ((_inside_label(weapon.name), inside),)
        parts += shared
        advantage = attacker.advantage_attack
        if advantage:
            parts += (("advantage", advantage),)
        answer = attack_total(roll, weapon.attack, inside + modifiers + advantage), parts
        self._attacks[attacker.id] = (attacker, roll, at, weapon, answer)
        return answer

    def defense(
        self, defender: CombatantState, at: Range | None
    ) -> tuple[int, tuple[Part, ...], StressRoll | None, DefenseWith]:
        """The better Defense Total: the weapon (-6 per step inside its range), Brawling at
        Touch, Dodge when no weapon is declared or against missiles (ArM3 p168) [ours].
        On equal totals the first of weapon, Brawling, Dodge is taken."""
        kept = self._defenses.get(defender.id)
        if kept is not None and kept[0] is defender and kept[1] is at:
            return kept[2]  # the same total again (a second attacker, on the same die)
        if not self.can_defend(defender):
            answer = 0, _CANNOT_DEFEND, None, _NONE
            self._defenses[defender.id] = (defender, at, answer)
            return answer
        roll = self.dice.get(defender.id) or self.combat_die(defender.id)
        weapon = self.declared_weapon(self.declarations.get(defender.id))
        if weapon is not None and weapon.missile and at is not None:
            weapon = None
        kept = self._shared.get(defender.id)
        shared, modifiers = kept[1:] if kept is not None and kept[0] is defender else self._share(defender)
        modifiers += defender.advantage_defense
        best = None
        if weapon is not None:
            inside = _INSIDE[weapon.range.step][at.step] if at is not None else 0
            best = (
                defense_total(roll, weapon.defense, inside + modifiers),
                _WEAPON,
                (_defense_label(weapon.name), weapon.defense),
                inside,
            )
        if at is _TOUCH:
            total = defense_total(roll, defender.sheet.brawling, modifiers)
            if best is None or total > best[0]:
                best = (total, _BRAWLING, ("Brawling", defender.sheet.brawling), 0)
        if weapon is None or at is None:
            total = defense_total(roll, defender.sheet.dodge, modifiers)
            if best is None or total > best[0]:
                best = (total, _DODGE, ("Dodge Defense", defender.sheet.dodge), 0)
        total, kind, score_part, inside = best
        parts: tuple[Part, ...] = (score_part, ("stress die", roll.value))
        if inside:
            parts += ((_inside_label(weapon.name), inside),)
        parts += shared
        if defender.advantage_defense:
            parts += (("advantage", defender.advantage_defense),)
        answer = total, parts, roll, kind
        self._defenses[defender.id] = (defender, at, answer)
        return answer

    # --- harm -----------------------------------------------------------------------

    def wound(self, combatant_id: str, levels: int) -> None:
        combatant = self.combatants[combatant_id]
        was_dead = combatant.body_level is _DEAD
        lost = combatant.sheet.body_track.lose(combatant.body_levels_lost, levels)
        combatant = combatant.with_body_levels_lost(lost)
        self.combatants[combatant_id] = combatant
        if combatant.body_level is _DEAD and not was_dead:
            self.deaths.append(combatant_id)

    def would_go_down(self, combatant_id: str, levels: int) -> bool:
        """Slain or knocked unconscious (Incapacitated counts [ours]) by these levels."""
        combatant = self.combatants[combatant_id]
        track = combatant.sheet.body_track
        after = track.level_at(track.lose(combatant.body_levels_lost, levels))
        return levels > 0 and after in (BodyLevel.INCAPACITATED, _DEAD)

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
            self.initiative,
            self.engagements,
            tuple(CombatDie(combatant, roll) for combatant, roll in self.dice.items()),
        )

    def next_round(self) -> RoundState:
        """The state `end_round` makes of this round's end, without the states in between."""
        combatants = self.combatants
        return RoundState(
            self.state.number + 1,
            tuple([combatants[combatant.id].next_round() for combatant in self.state.combatants]),
        )

    def deals_first_key(self, combatant_id: str) -> tuple[int, int, int, int]:
        """Initiative score, then Initiative Total, then Quickness, then listed first."""
        if self._by_initiative is None:
            self._by_initiative = {record.combatant: record for record in self.initiative}
        record = self._by_initiative[combatant_id]
        quickness = self.combatants[combatant_id].sheet.quickness
        return (record.initiative_score, record.total, quickness, -self.listed[combatant_id])


# Labels of the parts that name a weapon, made once per weapon name.
_attack_label = lru_cache(maxsize=1024)("Attack score ({})".format)
_defense_label = lru_cache(maxsize=1024)("Defense score ({})".format)
_inside_label = lru_cache(maxsize=1024)("{} inside its range".format)
