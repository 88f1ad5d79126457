"""May this happen now? One pure function per table command, in the manner of pokerkit's `can_*`:
each returns None (allowed) or the reason in plain words, a `Refusal` that says what kind of no it
is. The commands obey them and the panels ask them, so a button is never enabled for a refused
command; each refuses first on an ended encounter (`while_open`). The engine's own checks
(`fight.roll_refusal`, `chase.terrain_refusal` ...) are asked here, never written twice."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

from combat.rules.refusals import BAD_INPUT, NOT_YOURS, STALE, WRONG_TIME, Refusal, while_open

from . import chase as chase_rules
from . import fight as fight_rules
from .chase import ChaseState, Terrain
from .fight import FightState

RUNNING = "running"


@dataclass(frozen=True)
class Defence:
    """The defence an attack waits for."""

    attacker: str
    defender: str


@dataclass(frozen=True)
class Actor:
    """Who gives the command: the storyguide, or a player with the combatants they play."""

    storyguide: bool
    plays: frozenset[str] = frozenset()

    def controls(self, who: str) -> bool:
        """The storyguide acts for anyone; a player for their own characters [ours]."""
        return self.storyguide or who in self.plays


STORYGUIDE = Actor(storyguide=True)


@dataclass(frozen=True)
class TableState:
    """The table between two commands, as the checks see it.

    `names` maps each combatant's id to its name; `played` maps the id of each character a player
    plays to that player's name. `fight` and `chase` (the running chase only) are the engine's
    states; `defence` is the defence awaited in the fight; `dice_in` the runners whose faces are
    typed in for the next exchange (physical dice).
    """

    status: str = "preparing"
    names: tuple[tuple[str, str], ...] = ()
    played: tuple[tuple[str, str], ...] = ()
    physical_dice: bool = False
    fight: FightState | None = None
    defence: Defence | None = None
    chase: ChaseState | None = None
    dice_in: frozenset[str] = field(default_factory=frozenset)

    def name(self, who: str) -> str:
        """The combatant's name (its id when it is not at the table)."""
        return dict(self.names).get(who, who)

    def player(self, who: str) -> str | None:
        """The name of the player who plays this combatant; None for an NPC."""
        return dict(self.played).get(who)


def _no(text: str, kind: str) -> Refusal:
    return Refusal(text, kind)


def _permission(state: TableState, actor: Actor, who: str) -> Refusal | None:
    if actor.controls(who):
        return None
    return _no(f"Only {state.name(who)}'s player or the storyguide can do that.", NOT_YOURS)


# --- set-up ------------------------------------------------------------------------------------


@while_open
def can_change_combatants(state: TableState) -> Refusal | None:
    """Combatants join or leave before the fight or chase is under way [ours]."""
    if state.status == RUNNING:
        return _no("Combatants join or leave before the fight or the chase starts.", WRONG_TIME)
    return None


# --- the fight ---------------------------------------------------------------------------------


@while_open
def can_start_fight(state: TableState) -> Refusal | None:
    """RULES.md Part 2 [ours]: a fight starts once, outside a chase, with two combatants or more."""
    if state.fight is not None:
        return _no("The fight has already started.", WRONG_TIME)
    if state.chase is not None:
        return _no("A chase is running: start the fight when it ends.", WRONG_TIME)
    if len(state.names) < 2:
        return _no("A fight needs at least two combatants: add them first.", BAD_INPUT)
    return None


def _fight_refusal(state: TableState) -> Refusal | None:
    if state.fight is None:
        return _no("The fight has not started: roll initiative first.", WRONG_TIME)
    if state.chase is not None:
        return _no("A chase is running: the fight waits until it ends.", WRONG_TIME)
    return None


def _fighter_refusal(state: TableState, who) -> Refusal | None:
    if who is None or not any(fighter.id == str(who) for fighter in state.fight.fighters):
        return _no("That combatant is not in this fight.", BAD_INPUT)
    return None


@while_open
def can_roll(
    state: TableState,
    actor: Actor,
    who: str,
    *,
    value_given: bool = False,
    target: str | None = None,
) -> Refusal | None:
    """d6 seed: a challenge in the fight, the turn's action or a defence. A player rolls for their
    own character on its turn or to defend, against the storyguide's value [ours]."""
    refusal = _fight_refusal(state) or _fighter_refusal(state, who) or _permission(state, actor, who)
    if refusal:
        return refusal
    if not actor.storyguide:
        if state.defence is None and who != state.fight.current.id:
            return _no(f"{state.name(who)} acts on their own turn, or defends when attacked.", NOT_YOURS)
        if value_given:
            return _no("The storyguide sets the challenge value.", NOT_YOURS)
    if target is not None and (refusal := _fighter_refusal(state, target)):
        return refusal
    if state.defence is not None:
        if who != state.defence.defender:
            return _no(
                f"{state.name(state.defence.defender)} must defend first (or end the turn).", WRONG_TIME
            )
        if target is not None:
            return _no("A defence has no target.", BAD_INPUT)
    reason = fight_rules.roll_refusal(state.fight, who, target, name=state.name)
    return None if reason is None else _no(reason, BAD_INPUT)


@while_open
def can_cluster_attack(
    state: TableState, actor: Actor, who: str, *, value_given: bool = False
) -> Refusal | None:
    """d6 seed: a ranged attack into a combat cluster is the shooter's own action, on their turn."""
    refusal = _fight_refusal(state) or _fighter_refusal(state, who) or _permission(state, actor, who)
    if refusal:
        return refusal
    if who != state.fight.current.id:
        return _no(f"{state.name(who)} can shoot into a cluster only on their own turn.", NOT_YOURS)
    if state.defence is not None:
        return _no("Settle the defence first.", WRONG_TIME)
    if not actor.storyguide and value_given:
        return _no("The storyguide sets the challenge value.", NOT_YOURS)
    reason = fight_rules.roll_refusal(state.fight, who, name=state.name)
    return None if reason is None else _no(reason, BAD_INPUT)


@while_open
def can_set_value(state: TableState, *, value_given: bool = True) -> Refusal | None:
    """RULES.md Part 2 [ours]: the storyguide names a challenge value; a defence always has one."""
    refusal = _fight_refusal(state)
    if refusal:
        return refusal
    if state.defence is not None and not value_given:
        return _no("A defence needs a challenge value: the attack's result, or yours.", BAD_INPUT)
    return None


@while_open
def can_take_breather(state: TableState, actor: Actor) -> Refusal | None:
    """d6 seed: a breather is the turn's whole action; fatigue cannot be lowered during a chase."""
    if state.chase is not None:
        return _no("A chase is running: fatigue cannot be lowered during a chase.", WRONG_TIME)
    refusal = _fight_refusal(state)
    if refusal:
        return refusal
    who = state.fight.current.id
    refusal = _permission(state, actor, who)
    if refusal:
        return refusal
    if state.defence is not None:
        return _no("Settle the defence first: a breather is the whole turn.", WRONG_TIME)
    reason = fight_rules.breather_refusal(state.fight, who, name=state.name)
    return None if reason is None else _no(reason, BAD_INPUT)


@while_open
def can_end_turn(state: TableState, actor: Actor) -> Refusal | None:
    """d6 seed: the turn passes on. Its player may end it once no defence is awaited [ours]."""
    refusal = _fight_refusal(state) or _permission(state, actor, state.fight.current.id)
    if refusal:
        return refusal
    if not actor.storyguide and state.defence is not None:
        return _no("A defence is awaited: it is rolled first, or the storyguide ends the turn.", WRONG_TIME)
    return None


# --- the chase ---------------------------------------------------------------------------------


@while_open
def can_start_chase(state: TableState) -> Refusal | None:
    """d6 seed: one chase at a time."""
    if state.chase is not None:
        return _no("A chase is already running.", WRONG_TIME)
    return None


def _chase_refusal(state: TableState) -> Refusal | None:
    if state.chase is None:
        return _no("No chase is running.", WRONG_TIME)
    reason = chase_rules.over_refusal(state.chase)
    return None if reason is None else _no(reason, BAD_INPUT)


def _running(state: TableState) -> list[chase_rules.Runner]:
    return [runner for runner in (state.chase.target, *state.chase.chasers) if runner.running]


def _has_score(runner: chase_rules.Runner, rolled: str) -> bool:
    return any(name == rolled for name, _ in runner.scores)


def unrollable(
    state: TableState, terrains: Sequence[Terrain], runners: Sequence[chase_rules.Runner] | None = None
) -> Refusal | None:
    """d6 seed: everyone rolls what the terrain calls for, so every runner still in the chase (or
    every one of `runners`, when a chase is about to start) needs that score on the sheet."""
    for runner in _running(state) if runners is None else runners:
        for terrain in terrains:
            if not _has_score(runner, terrain.rolled):
                return _no(
                    f"{state.name(runner.id)}'s sheet has no {terrain.rolled!r} to roll on {terrain.name}.",
                    BAD_INPUT,
                )
    return None


@while_open
def can_exchange(state: TableState, typed: Collection[str] | None = None) -> Refusal | None:
    """d6 seed: the target rolls, then each chaser, all on the current terrain's roll. With physical
    dice a player's runner waits for its faces, typed by its player or by the storyguide (`typed`:
    the runners the storyguide typed for; None: not asked yet) [ours]."""
    refusal = _chase_refusal(state)
    if refusal:
        return refusal
    rolled = state.chase.terrain.rolled
    for runner in _running(state):
        if not _has_score(runner, rolled):
            return _no(f"{runner.id} has no score for {rolled!r}", BAD_INPUT)
        player = state.player(runner.id)
        waiting = runner.id not in state.dice_in and player is not None
        if typed is not None and state.physical_dice and waiting and runner.id not in typed:
            return _no(
                f"Waiting for {state.name(runner.id)}'s dice: {player} types them, or you do.", BAD_INPUT
            )
    return None


@while_open
def can_offer_terrain(state: TableState, terrains: Sequence[Terrain] | None = None) -> Refusal | None:
    """d6 seed: the GM presents the chase target with terrain decisions (`terrains`, once named)."""
    refusal = _chase_refusal(state)
    if refusal or terrains is None:
        return refusal
    if not terrains:
        return _no("Offer at least one terrain.", BAD_INPUT)
    return unrollable(state, terrains)


@while_open
def can_choose_terrain(state: TableState, actor: Actor, name: str | None = None) -> Refusal | None:
    """d6 seed: the target chooses among the offered terrains: its player, or the storyguide for
    an NPC target [ours]."""
    refusal = _chase_refusal(state)
    if refusal:
        return refusal
    target = state.chase.target.id
    chooses = target in actor.plays if state.player(target) is not None else actor.storyguide
    if not chooses:
        return _no(f"Only {state.name(target)}'s player chooses the terrain.", NOT_YOURS)
    if name is None:
        return None if state.chase.offered else _no("No terrain is offered.", WRONG_TIME)
    reason = chase_rules.terrain_refusal(state.chase, name)
    return None if reason is None else _no(reason, BAD_INPUT)


@while_open
def can_take_runner_breather(state: TableState, who: str) -> Refusal | None:
    """d6 seed: fatigue cannot be lowered during a chase; only standing still restores it."""
    refusal = _chase_refusal(state) or _runner_refusal(state, who)
    if refusal:
        return refusal
    reason = chase_rules.breather_refusal(state.chase, who, name=state.name)
    return None if reason is None else _no(f"{reason}.", WRONG_TIME)


def _runner_refusal(state: TableState, who) -> Refusal | None:
    if who is None or not any(r.id == str(who) for r in (state.chase.target, *state.chase.chasers)):
        return _no("That combatant is not in the chase.", BAD_INPUT)
    return None


def _runner_may_act(state: TableState, actor: Actor, who: str, exchange: int) -> Refusal | None:
    """A runner's own command for the next exchange: refused as stale once the chase rolled on."""
    refusal = _chase_refusal(state)
    if refusal:
        return refusal
    if exchange != state.chase.exchanges + 1:
        upcoming = state.chase.exchanges + 1
        return _no(f"The chase has moved on to exchange {upcoming}; nothing was changed. Look again.", STALE)
    refusal = _runner_refusal(state, who) or _permission(state, actor, who)
    if refusal:
        return refusal
    if not state.chase.runner(who).running:
        return _no(f"{state.name(who)} is out of the chase.", WRONG_TIME)
    return None


@while_open
def can_enter_faces(state: TableState, actor: Actor, who: str, exchange: int) -> Refusal | None:
    """Physical dice: a runner's player types the faces for the next exchange [ours]."""
    refusal = _runner_may_act(state, actor, who, exchange)
    if refusal:
        return refusal
    if not state.physical_dice:
        return _no(
            "This saga's dice are rolled by the server: the storyguide rolls the exchange.", WRONG_TIME
        )
    rolled = state.chase.terrain.rolled
    if not _has_score(state.chase.runner(who), rolled):
        return _no(f"{state.name(who)}'s sheet has no {rolled!r} to roll.", BAD_INPUT)
    return None


@while_open
def can_choose_at_target(state: TableState, actor: Actor, who: str, exchange: int) -> Refusal | None:
    """d6 seed: a chaser who would pass the target acts against it, or moves ahead [ours: chosen first]."""
    refusal = _runner_may_act(state, actor, who, exchange)
    if refusal:
        return refusal
    if who == state.chase.target.id:
        return _no("Only a chaser can move ahead of the target.", BAD_INPUT)
    return None
