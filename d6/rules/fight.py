"""A turn-based d6 fight: whose turn it is, and fatigue rising at most once per turn."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from combat.rules.dice import Dice
from combat.rules.errors import RulesError

from .attempt import Attempt, attempt
from .challenge import Challenge
from .fatigue import base_fatigue, check_fatigue


@dataclass(frozen=True)
class Fighter:
    """One fighter's fatigue, and whether it already rose since the start of their turn.

    `rose_this_turn` covers the fighter's own turn and every defensive roll until the start
    of their next turn (before their first turn: since the fight began).
    """

    id: str
    base_fatigue: int
    fatigue: int
    rose_this_turn: bool = False

    @classmethod
    def from_sheet(cls, id: str, stamina: int, fatigue: int | None = None) -> Fighter:
        """d6 seed: base fatigue 4 - Stamina; a fighter with no fatigue written starts at base."""
        base = base_fatigue(stamina)
        return cls(id=id, base_fatigue=base, fatigue=base if fatigue is None else fatigue)


@dataclass(frozen=True)
class FightState:
    """The fight between two steps: fighters in initiative order, the round and whose turn."""

    fighters: tuple[Fighter, ...]
    round: int = 1
    turn: int = 0
    acted: bool = False
    took_breather: bool = False

    @property
    def current(self) -> Fighter:
        """The fighter whose turn it is."""
        return self.fighters[self.turn]

    def fighter(self, who: str) -> Fighter:
        """The fighter with this id (RulesError when there is none)."""
        for fighter in self.fighters:
            if fighter.id == who:
                return fighter
        raise RulesError(f"no fighter {who!r} in this fight")

    def _with(self, fighter: Fighter, **turn: bool) -> FightState:
        fighters = tuple(fighter if f.id == fighter.id else f for f in self.fighters)
        return replace(self, fighters=fighters, **turn)


@dataclass(frozen=True)
class FightRoll:
    """One challenge rolled in a fight, with its place in the turn and its fatigue.

    `defending` is True for a roll made outside the roller's own turn. For an attack
    (`target` set) `defence_needed` says whether the target has to roll a defence: a failed
    attack needs none. `attempt` holds the faces, die result, result and fatigue.
    """

    who: str
    round: int
    turn_of: str
    defending: bool
    target: str | None
    attempt: Attempt
    defence_needed: bool | None


@dataclass(frozen=True)
class Breather:
    """A fighter took a breather as the turn's action."""

    who: str
    round: int
    fatigue_before: int
    fatigue_after: int


@dataclass(frozen=True)
class TurnEnded:
    """The turn passed on; `new_round` when the order started again from the top."""

    round: int
    ended: str
    next: str
    new_round: bool


def _has(state: FightState, who: str) -> bool:
    return any(fighter.id == who for fighter in state.fighters)


def roll_refusal(state: FightState, who: str, target: str | None = None, *, name=str) -> str | None:
    """d6 seed: why `who` may not roll (at `target`) now, or None; `name` turns an id into words."""
    if not _has(state, who):
        return f"no fighter {who!r} in this fight"
    own_turn = who == state.current.id
    if own_turn and state.took_breather:
        return f"{name(who)} took a breather: that was the turn's action"
    if target is not None:
        if not own_turn:
            return f"only {name(state.current.id)}, whose turn it is, can attack now"
        if target == who:
            return f"{name(who)} cannot attack themself"
        if not _has(state, target):
            return f"no fighter {target!r} in this fight"
    return None


def breather_refusal(state: FightState, who: str, *, name=str) -> str | None:
    """d6 seed: why `who` may not take a breather now (it is the turn's whole action), or None."""
    if not _has(state, who):
        return f"no fighter {who!r} in this fight"
    if who != state.current.id:
        return f"{name(who)} can take a breather only on their own turn"
    if state.acted:
        return f"{name(who)} already acted this turn: a breather is the whole action"
    if state.took_breather:
        return f"{name(who)} already took a breather this turn"
    return None


def start_fight(fighters: Sequence[Fighter]) -> FightState:
    """RULES.md Part 2 [ours]: a fight with its fighters in acting (initiative) order."""
    if not fighters:
        raise RulesError("a fight needs at least one fighter")
    ids = [fighter.id for fighter in fighters]
    if len(set(ids)) != len(ids):
        raise RulesError("each fighter takes one place in the order")
    for fighter in fighters:
        check_fatigue(fighter.fatigue)
        check_fatigue(fighter.base_fatigue)
    return FightState(fighters=tuple(fighters))


def fight_roll(
    state: FightState,
    dice: Dice,
    who: str,
    challenge: Challenge,
    *,
    target: str | None = None,
    exertion: bool = True,
    may_raise: bool = True,
) -> tuple[FightState, FightRoll]:
    """d6 seed: a roll in combat; fatigue rises at most once from a turn to the next turn."""
    reason = roll_refusal(state, who, target)
    if reason:
        raise RulesError(reason)
    fighter = state.fighter(who)
    own_turn = who == state.current.id
    outcome = attempt(
        dice,
        challenge,
        fighter.fatigue,
        exertion=exertion,
        may_raise=may_raise and not fighter.rose_this_turn,
    )
    updated = replace(
        fighter,
        fatigue=outcome.fatigue_after,
        rose_this_turn=fighter.rose_this_turn or outcome.fatigue_rose,
    )
    record = FightRoll(
        who=who,
        round=state.round,
        turn_of=state.current.id,
        defending=not own_turn,
        target=target,
        attempt=outcome,
        defence_needed=None if target is None else outcome.success is not False,
    )
    new_state = state._with(updated, acted=True) if own_turn else state._with(updated)
    return new_state, record


def ranged_attack_into_cluster(
    state: FightState,
    dice: Dice,
    who: str,
    challenges: Sequence[Challenge],
    *,
    target: str | None = None,
    targets: Sequence[str | None] | None = None,
    fighter_dice: Sequence[Dice] | None = None,
) -> tuple[FightState, tuple[FightRoll, ...]]:
    """d6 seed: a ranged attack into a combat cluster; only the first challenge can raise fatigue.

    Every challenge attacks `target`, or `targets` gives one target per challenge (several
    fighters in the cluster) [ours]. `fighter_dice` gives one Dice per challenge (faces typed
    in per challenge); otherwise all are rolled from `dice`.
    """
    if not challenges:
        raise RulesError("a ranged attack into a cluster needs at least one challenge")
    if targets is None:
        targets = [target] * len(challenges)
    elif len(targets) != len(challenges):
        raise RulesError(f"{len(challenges)} challenges need {len(challenges)} targets, not {len(targets)}")
    if fighter_dice is not None and len(fighter_dice) != len(challenges):
        raise RulesError(f"{len(challenges)} challenges need {len(challenges)} dice, not {len(fighter_dice)}")
    records = []
    for index, challenge in enumerate(challenges):
        own = dice if fighter_dice is None else fighter_dice[index]
        state, record = fight_roll(state, own, who, challenge, target=targets[index], may_raise=index == 0)
        records.append(record)
    return state, tuple(records)


def take_breather(state: FightState, who: str) -> tuple[FightState, Breather]:
    """d6 seed: taking a breather (the turn's action) returns fatigue to base."""
    reason = breather_refusal(state, who)
    if reason:
        raise RulesError(reason)
    fighter = state.fighter(who)
    record = Breather(
        who=who, round=state.round, fatigue_before=fighter.fatigue, fatigue_after=fighter.base_fatigue
    )
    return state._with(replace(fighter, fatigue=fighter.base_fatigue), took_breather=True), record


def end_turn(state: FightState) -> tuple[FightState, TurnEnded]:
    """d6 seed: the turn passes on; the next fighter's turn opens a new window for one rise."""
    following = (state.turn + 1) % len(state.fighters)
    new_round = following == 0
    next_fighter = replace(state.fighters[following], rose_this_turn=False)
    moved = replace(
        state._with(next_fighter),
        turn=following,
        round=state.round + 1 if new_round else state.round,
        acted=False,
        took_breather=False,
    )
    record = TurnEnded(round=state.round, ended=state.current.id, next=next_fighter.id, new_round=new_round)
    return moved, record
