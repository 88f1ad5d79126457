"""The d6 table's event kinds with their payload types (d6 seed; RULES.md Part 2).

A payload type says what the log keeps as JSON: the engine's records (d6.rules) as the services
write them, every face kept. The kinds' names and labels are in `d6.kinds`.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from combat.events import EventKind

from . import kinds


class Attempt(TypedDict):
    """One challenge, as `Attempt.to_dict()` writes it: the dice, the result, the fatigue (d6 seed)."""

    consistency: int
    potential: int
    value: int | None
    physical: bool
    exertion: bool
    faces: list[int]
    d6: int
    d10s: list[int]
    die_result: int
    result: int
    success: bool | None
    auto_failed: bool
    fatigue_before: int
    fatigue_after: int
    fatigue_rose: bool
    rise_held_back: bool


class Terrain(TypedDict):
    """A stretch of the chase: its name and the score rolled on it."""

    name: str
    rolled: str


# --- the fight ----------------------------------------------------------------------------------


class InitiativeRoll(TypedDict):
    """A fighter's Dexterity challenge for the acting order [ours]."""

    combatant: str
    name: str
    dexterity: int
    faces: list[int]
    die_result: int
    result: int


class FightStarted(TypedDict):
    """Everyone's initiative, highest first."""

    order: list[InitiativeRoll]
    first: str


class ClusterShot(TypedDict):
    """Which of the shots into a combat cluster this is."""

    index: int
    of: int


class Roll(Attempt):
    """A challenge in the fight: the turn's action, an attack, or a defence against one."""

    combatant: str
    name: str
    rolled: str
    round: int
    turn_of: str
    defending: bool
    target: str | None
    target_name: str | None
    defence_needed: bool | None
    defends_against: NotRequired[str]
    attacker_name: NotRequired[str]
    attack_result: NotRequired[int]
    cluster: NotRequired[ClusterShot]


class ValueSet(TypedDict):
    """The storyguide's challenge value (None: no value) for the action or the awaited defence: whose
    challenge it is (`combatant`) and, for a defence, whose attack it meets (`attacker`); entries from before
    they were logged name only the roller."""

    value: int | None
    name: str
    defence: bool
    combatant: NotRequired[str]
    attacker: NotRequired[str]


class Breather(TypedDict):
    """Fatigue back to base: a fighter's turn, or a runner standing still in a chase."""

    combatant: str
    name: str
    fatigue_before: int
    fatigue_after: int
    round: NotRequired[int]
    in_chase: NotRequired[int]


class TurnEnded(TypedDict):
    """The turn passes on; a defence still awaited lapses."""

    round: int
    ended: str
    ended_name: str
    next: str
    next_name: str
    new_round: bool
    next_round: int
    defence_lapsed: NotRequired[str]


# --- the chase ----------------------------------------------------------------------------------


class Chaser(TypedDict):
    """A chaser at the start, its distance in squares behind the target."""

    combatant: str
    name: str
    distance: int


class ChaseStarted(TypedDict):
    """The target, the chasers, the first terrain and the route."""

    chase: int
    target: str
    target_name: str
    chasers: list[Chaser]
    terrain: Terrain
    route: list[Terrain]
    escape_distance: int | None


class RunnerRoll(Attempt):
    """A runner's challenge in an exchange; `margin` is a chaser's result minus the target's."""

    runner: str
    name: str
    role: str
    dropped_out: bool
    margin: NotRequired[int]


class Move(TypedDict):
    """A square closed or lost between a chaser and the target."""

    mover: str
    mover_name: str
    chaser: str
    chaser_name: str
    before: int
    after: int


class Exchange(TypedDict):
    """One exchange of the chase: every roll, every move, the distances before and after."""

    chase: int
    number: int
    terrain: Terrain
    rolls: list[RunnerRoll]
    moves: list[Move]
    distances_before: dict[str, int]
    distances_after: dict[str, int]
    dropped_out: list[str]
    lost_sight: list[str]
    caught_by: str | None
    caught_by_name: str | None
    acts_against_target: bool
    moved_ahead: list[str]
    outcome: str


class ChaseEnded(TypedDict):
    """How the chase ended: caught, escaped or overtaken."""

    chase: int
    outcome: str
    target_name: str
    caught_by_name: str | None
    acts_against_target: bool
    moved_ahead: list[str]
    exchanges: int


class TerrainOffered(TypedDict):
    """The terrains the storyguide offers the target, and who chooses."""

    chase: int
    after_exchange: int
    terrains: list[Terrain]
    target_name: str
    chooser: str


class TerrainChosen(TypedDict):
    """The target takes the chase onto another terrain; dice typed for the old one are cleared."""

    chase: int
    target_name: str
    before: Terrain
    after: Terrain
    from_exchange: int
    dice_cleared: list[str]


class FacesIn(TypedDict):
    """Dice a runner's player typed in for the next exchange."""

    chase: int
    combatant: str
    name: str
    exchange: int
    rolled: str
    faces: list[int]


class PassChoice(TypedDict):
    """A chaser's choice at the target: move ahead of it, or act against it."""

    chase: int
    combatant: str
    name: str
    target_name: str
    move_ahead: bool


PAYLOADS: dict[str, type] = {
    kinds.FIGHT_STARTED: FightStarted,
    kinds.ROLL: Roll,
    kinds.BREATHER: Breather,
    kinds.TURN_ENDED: TurnEnded,
    kinds.CHASE_STARTED: ChaseStarted,
    kinds.EXCHANGE: Exchange,
    kinds.TERRAIN_OFFERED: TerrainOffered,
    kinds.TERRAIN_CHOSEN: TerrainChosen,
    kinds.CHASE_ENDED: ChaseEnded,
    kinds.VALUE_SET: ValueSet,
    kinds.FACES_IN: FacesIn,
    kinds.PASS_CHOICE: PassChoice,
}

EVENT_KINDS = tuple(
    EventKind(name, label, PAYLOADS[name], f"d6table/events/{name}.html")
    for name, label in kinds.KINDS.items()
)
