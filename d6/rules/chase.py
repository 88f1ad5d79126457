"""Chases on a grid: a target, its chasers, the terrain's roll and the 3-point rule, step by step.

The web layer keeps a `ChaseState`, calls one step at a time (`exchange`, `offer_terrain`,
`change_terrain`, `take_breather`) and pushes the record each step returns.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace

from combat.rules.dice import Dice
from combat.rules.errors import RulesError

from .attempt import Attempt, attempt
from .challenge import Challenge
from .fatigue import check_fatigue

ONGOING = "ongoing"
CAUGHT = "caught"
ESCAPED = "escaped"
OVERTAKEN = "overtaken"

RUNNING = "running"
DROPPED_OUT = "dropped_out"
LOST_SIGHT = "lost_sight"
AHEAD = "ahead"

MARGIN = 3


@dataclass(frozen=True)
class Terrain:
    """A kind of ground and what the GM has everyone roll on it (an attribute or an ability)."""

    name: str
    rolled: str


@dataclass(frozen=True)
class Score:
    """What a runner rolls for one attribute or ability: Consistency and Potential."""

    consistency: int
    potential: int = 0


@dataclass(frozen=True)
class Runner:
    """A runner: fatigue, base, scores by attribute or ability name, and (a chaser) distance.

    `scores` may be given as a mapping; it is kept as a sorted tuple of (name, Score).
    `distance` is the chaser's own count of squares to the target; None for the target; -1 for
    a chaser who moved ahead of the target (status `ahead`) [ours].
    """

    id: str
    fatigue: int
    base_fatigue: int
    scores: tuple[tuple[str, Score], ...] = field(default=())
    distance: int | None = None
    status: str = RUNNING

    def __post_init__(self) -> None:
        if isinstance(self.scores, Mapping):
            object.__setattr__(self, "scores", tuple(sorted(self.scores.items())))

    def score(self, rolled: str) -> Score:
        """The runner's Consistency and Potential for `rolled` (RulesError when missing)."""
        for name, score in self.scores:
            if name == rolled:
                return score
        raise RulesError(f"{self.id} has no score for {rolled!r}")

    @property
    def running(self) -> bool:
        """Still in the chase."""
        return self.status == RUNNING


@dataclass(frozen=True)
class Stretch:
    """A stretch of the chase on one terrain, from exchange `starts_at` on."""

    terrain: Terrain
    starts_at: int


@dataclass(frozen=True)
class ChaseState:
    """The chase between two steps. `exchanges` counts the exchanges rolled so far."""

    target: Runner
    chasers: tuple[Runner, ...]
    stretches: tuple[Stretch, ...]
    escape_distance: int | None = None
    offered: tuple[Terrain, ...] = ()
    exchanges: int = 0
    outcome: str = ONGOING
    caught_by: str | None = None

    @property
    def terrain(self) -> Terrain:
        """The terrain of the current stretch."""
        return self.stretches[-1].terrain

    @property
    def distances(self) -> tuple[tuple[str, int], ...]:
        """Each chaser's distance to the target, in the chasers' order."""
        return tuple((chaser.id, chaser.distance) for chaser in self.chasers)

    def runner(self, who: str) -> Runner:
        """The runner with this id (RulesError when there is none)."""
        for runner in (self.target, *self.chasers):
            if runner.id == who:
                return runner
        raise RulesError(f"no runner {who!r} in this chase")

    def _with(self, runner: Runner) -> ChaseState:
        if runner.id == self.target.id:
            return replace(self, target=runner)
        return replace(self, chasers=tuple(runner if c.id == runner.id else c for c in self.chasers))


@dataclass(frozen=True)
class RunnerRoll:
    """One runner's roll in an exchange: the terrain, what was rolled, and the attempt."""

    runner: str
    role: str
    terrain: str
    rolled: str
    attempt: Attempt
    dropped_out: bool


@dataclass(frozen=True)
class Move:
    """One square gained: `mover` moved, changing `chaser`'s distance to the target."""

    mover: str
    chaser: str
    distance_before: int
    distance_after: int


@dataclass(frozen=True)
class Exchange:
    """One exchange: the rolls in the order made, distances before and after, the moves.

    `lost_sight` lists chasers who fell `escape_distance` behind. `caught_by` names the chaser
    who reached the target (`acts_against_target` when by the 3-point rule rather than the
    target dropping out). `moved_ahead` lists chasers whose roll would pass the target and who
    moved ahead of it instead of acting against it.
    """

    number: int
    terrain: Terrain
    rolls: tuple[RunnerRoll, ...]
    distances_before: tuple[tuple[str, int], ...]
    distances_after: tuple[tuple[str, int], ...]
    moves: tuple[Move, ...]
    dropped_out: tuple[str, ...]
    lost_sight: tuple[str, ...]
    caught_by: str | None
    acts_against_target: bool
    outcome: str
    moved_ahead: tuple[str, ...] = ()


@dataclass(frozen=True)
class TerrainOffer:
    """The GM offered the target these terrains."""

    exchange: int
    terrains: tuple[Terrain, ...]


@dataclass(frozen=True)
class TerrainChange:
    """The target took the chase onto another terrain, from the next exchange on."""

    exchange: int
    before: Terrain
    after: Terrain


@dataclass(frozen=True)
class ChaseBreather:
    """A runner out of the chase (or after it) stood still and got its breath back."""

    runner: str
    fatigue_before: int
    fatigue_after: int


def start_chase(
    target: Runner,
    chasers: Sequence[Runner],
    terrain: Terrain,
    *,
    escape_distance: int | None = None,
) -> ChaseState:
    """d6 seed: a chase on a grid, each chaser some squares behind the target [ours: own distance]."""
    if not chasers:
        raise RulesError("a chase needs at least one chaser")
    ids = [target.id, *(chaser.id for chaser in chasers)]
    if len(set(ids)) != len(ids):
        raise RulesError("each runner takes one part in the chase")
    if target.distance is not None:
        raise RulesError("the target has no distance: each chaser counts its own")
    for runner in (target, *chasers):
        check_fatigue(runner.fatigue)
        check_fatigue(runner.base_fatigue)
    for chaser in chasers:
        if chaser.distance is None or chaser.distance < 1:
            raise RulesError(f"{chaser.id} must start at least one square behind the target")
    if escape_distance is not None and escape_distance <= max(c.distance for c in chasers):
        raise RulesError("the escape distance must be beyond every chaser's starting distance")
    return ChaseState(
        target=target,
        chasers=tuple(chasers),
        stretches=(Stretch(terrain=terrain, starts_at=1),),
        escape_distance=escape_distance,
    )


def _roll(runner: Runner, role: str, terrain: Terrain, dice: Dice) -> RunnerRoll:
    score = runner.score(terrain.rolled)
    challenge = Challenge(consistency=score.consistency, potential=score.potential, physical=True)
    outcome = attempt(dice, challenge, runner.fatigue, exertion=True)
    return RunnerRoll(
        runner=runner.id,
        role=role,
        terrain=terrain.name,
        rolled=terrain.rolled,
        attempt=outcome,
        dropped_out=outcome.auto_failed,
    )


def over_refusal(state: ChaseState) -> str | None:
    """Why the chase takes no more steps (it is over), or None."""
    if state.outcome != ONGOING:
        return f"the chase is over: {state.outcome}"
    return None


def _require_ongoing(state: ChaseState) -> None:
    reason = over_refusal(state)
    if reason:
        raise RulesError(reason)


def _check_move_ahead(state: ChaseState, move_ahead: Collection[str]) -> frozenset[str]:
    chasers = {chaser.id for chaser in state.chasers}
    for who in move_ahead:
        state.runner(who)
        if who not in chasers:
            raise RulesError(f"{who} is the target: only a chaser can move ahead of the target")
    return frozenset(move_ahead)


def exchange(
    state: ChaseState,
    dice: Dice,
    *,
    runner_dice: Mapping[str, Dice] | None = None,
    move_ahead: Collection[str] = (),
) -> tuple[ChaseState, Exchange]:
    """d6 seed: the target rolls, then each chaser; 3 or more higher closes, 3 or more lower loses.

    A chaser whose roll would pass the target acts against it (caught), unless it is in
    `move_ahead`: then it moves ahead of the target instead and leaves the chase (status
    `ahead`, distance -1) while the others run on [ours: the choice is declared before the roll].
    """
    _require_ongoing(state)
    ahead = _check_move_ahead(state, move_ahead)
    own = runner_dice or {}
    number = state.exchanges + 1
    terrain = state.terrain
    before = state.distances
    target_roll = _roll(state.target, "target", terrain, own.get(state.target.id, dice))
    rolls = [target_roll]
    state = state._with(replace(state.target, fatigue=target_roll.attempt.fatigue_after))
    moves: list[Move] = []
    dropped: list[str] = []
    lost: list[str] = []
    passed: list[str] = []
    caught_by = None
    acts = False
    if target_roll.dropped_out:
        dropped.append(state.target.id)
        state = state._with(replace(state.target, status=DROPPED_OUT))
        running = [c for c in state.chasers if c.running]
        caught_by = min(running, key=lambda c: c.distance).id
    else:
        for chaser in state.chasers:
            if not chaser.running:
                continue
            roll = _roll(chaser, "chaser", terrain, own.get(chaser.id, dice))
            rolls.append(roll)
            chaser = replace(chaser, fatigue=roll.attempt.fatigue_after)
            if roll.dropped_out:
                dropped.append(chaser.id)
                state = state._with(replace(chaser, status=DROPPED_OUT))
                continue
            margin = roll.attempt.roll.result - target_roll.attempt.roll.result
            if margin >= MARGIN and chaser.distance == 1 and chaser.id in ahead:
                moves.append(Move(chaser.id, chaser.id, 1, -1))
                passed.append(chaser.id)
                state = state._with(replace(chaser, distance=-1, status=AHEAD))
                continue
            if margin >= MARGIN and chaser.distance == 1:
                moves.append(Move(chaser.id, chaser.id, 1, 0))
                state = state._with(replace(chaser, distance=0))
                caught_by, acts = chaser.id, True
                break
            step = -1 if margin >= MARGIN else 1 if margin <= -MARGIN else 0
            if step:
                mover = chaser.id if step < 0 else state.target.id
                moves.append(Move(mover, chaser.id, chaser.distance, chaser.distance + step))
                chaser = replace(chaser, distance=chaser.distance + step)
            if state.escape_distance is not None and chaser.distance >= state.escape_distance:
                lost.append(chaser.id)
                chaser = replace(chaser, status=LOST_SIGHT)
            state = state._with(chaser)
    if caught_by is not None:
        outcome = CAUGHT
    elif not any(c.running for c in state.chasers):
        outcome = OVERTAKEN if any(c.status == AHEAD for c in state.chasers) else ESCAPED
    else:
        outcome = ONGOING
    state = replace(state, exchanges=number, offered=(), outcome=outcome, caught_by=caught_by)
    record = Exchange(
        number=number,
        terrain=terrain,
        rolls=tuple(rolls),
        distances_before=before,
        distances_after=state.distances,
        moves=tuple(moves),
        dropped_out=tuple(dropped),
        lost_sight=tuple(lost),
        caught_by=caught_by,
        acts_against_target=acts,
        outcome=outcome,
        moved_ahead=tuple(passed),
    )
    return state, record


def offer_terrain(state: ChaseState, terrains: Sequence[Terrain]) -> tuple[ChaseState, TerrainOffer]:
    """d6 seed: the GM presents the chase target with terrain decisions."""
    _require_ongoing(state)
    if not terrains:
        raise RulesError("an offer needs at least one terrain")
    names = [terrain.name for terrain in terrains]
    if len(set(names)) != len(names):
        raise RulesError("each terrain is offered once")
    offer = TerrainOffer(exchange=state.exchanges, terrains=tuple(terrains))
    return replace(state, offered=offer.terrains), offer


def terrain_refusal(state: ChaseState, name: str) -> str | None:
    """d6 seed: why the target may not take the chase onto terrain `name` now, or None."""
    reason = over_refusal(state)
    if reason:
        return reason
    if not any(terrain.name == name for terrain in state.offered):
        offered = ", ".join(t.name for t in state.offered) or "nothing"
        return f"{name!r} was not offered (offered: {offered})"
    return None


def change_terrain(state: ChaseState, name: str) -> tuple[ChaseState, TerrainChange]:
    """d6 seed: the target chooses an offered terrain, which changes what is rolled."""
    reason = terrain_refusal(state, name)
    if reason:
        raise RulesError(reason)
    # `terrain_refusal` refused a name not offered: this finds it.
    terrain = next(terrain for terrain in state.offered if terrain.name == name)
    change = TerrainChange(exchange=state.exchanges, before=state.terrain, after=terrain)
    stretch = Stretch(terrain=terrain, starts_at=state.exchanges + 1)
    return replace(state, stretches=(*state.stretches, stretch), offered=()), change


def breather_refusal(state: ChaseState, who: str, *, name=str) -> str | None:
    """d6 seed: fatigue cannot be lowered during a chase: why `who` may not stand still now, or None."""
    runner = state.runner(who)
    if state.outcome == ONGOING and runner.running:
        return f"{name(who)} is still running: fatigue cannot be lowered during a chase"
    return None


def take_breather(state: ChaseState, who: str) -> tuple[ChaseState, ChaseBreather]:
    """d6 seed: fatigue cannot be lowered during a chase; only standing still restores it."""
    reason = breather_refusal(state, who)
    if reason:
        raise RulesError(reason)
    runner = state.runner(who)
    record = ChaseBreather(runner=who, fatigue_before=runner.fatigue, fatigue_after=runner.base_fatigue)
    return state._with(replace(runner, fatigue=runner.base_fatigue)), record
