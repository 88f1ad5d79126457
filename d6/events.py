"""The d6 table's event kinds with their payload types (d6 seed; RULES.md Part 2).

A payload type says what the log keeps as JSON: the engine's records (d6.rules) as the services
write them, every face kept. Each kind is one unit (`combat.events.EventKind`, below): its label, payload
type, line (`d6/events/<name>.html`), sentence (`d6.sentences`' wording), what players see of it, its
effect on the replay's table (`d6.replay.Table`) and its marks and tallies on the charts. Its name is in
`d6.kinds`, which the services write.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from typing_extensions import override

from combat.audience import behind_the_screen, without
from combat.events import EventKind, core_fields

from . import kinds, replay, sentences
from . import presenters as say
from .sentences import SCREENED


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


# --- the kinds, each one unit -------------------------------------------------------------------


# The panels of the d6 frame a kind may leave out (`panels`): "setup" (the storyguide's "Add to the
# encounter", shown while the encounter is being prepared; a fight or a chase started ends that). Every other
# panel shows the version its forms post, so every frame pushes it. The core's kinds name theirs in
# `panels.CORE_KIND_PANELS`.
SETUP = frozenset({"setup"})


class D6Kind(EventKind):
    """A d6 kind: its line is `d6/events/<name>.html` (the default), which prints its presenter
    (`d6.presenters`, `d6_tags`); players see what the kind says (`_shown`: an NPC's challenge at the saga's
    setting, `combat.audience.behind_the_screen`), or its payload whole where it holds no secret (`secret =
    False`), in every log, frame, history and export. A kind that says neither shows them the core's own
    fields alone, as the core's default does: the interface fails closed. It changes none of the panels a
    frame may leave out unless it names them (`panels`)."""

    panels = frozenset()

    @override
    def for_players(self, event, own: set[str], players: set[str], npc_rolls: str) -> dict:
        return self._shown(event.payload, players, npc_rolls, own)

    @override
    def for_players_record(self, record, characters: set[str], npc_rolls: str) -> dict:
        """As `for_players` left it: d6 keeps no record of its own between encounters, and its payloads name
        combatants, not characters."""
        return record.payload

    def _shown(self, payload: dict, players: set[str], npc_rolls: str, own: set[str]) -> dict:
        """The payload as players see it; `players` the player characters' combatant ids, `own` the
        reader's (none in what every player is sent alike). By default whole for a kind with no secret,
        else the core's own fields alone (`combat.events.core_fields`)."""
        return core_fields(self.name, payload) if self.secret else payload


class FightStartedKind(D6Kind):
    name, label, payload = kinds.FIGHT_STARTED, "Fight started: initiative", FightStarted
    panels = SETUP  # the encounter runs: set-up is over

    @override
    def sentence(self, payload: dict, names: dict, *, storyguide: bool) -> str:
        return sentences.fight_started(payload)

    @override
    def _shown(self, payload, players, npc_rolls, own):
        rows = [say.players_challenge(r, r.get("combatant"), players, npc_rolls) for r in payload["order"]]
        return {**payload, "order": rows}

    @override
    def apply(self, table, event):
        """Everyone's initiative, highest first: the first acts (RULES.md Part 2 [ours])."""
        table.status, table.round = "running", 1
        table.order = [row["combatant"] for row in event.payload.get("order", ())]
        table.turn = table.order[0] if table.order else None
        return table

    @override
    def rolls(self, event):
        """Each fighter's initiative (RULES.md Part 2 [ours])."""
        return [
            (row.get("combatant"), row.get("result"), "initiative")
            for row in event.payload.get("order") or ()
        ]


def _attack(p: dict) -> bool:
    return p.get("target") is not None and not p.get("defending")


class RollKind(D6Kind):
    name, label, payload = kinds.ROLL, "Dice challenge", Roll

    @override
    def sentence(self, payload: dict, names: dict, *, storyguide: bool) -> str:
        return sentences.roll(payload)

    @override
    def _shown(self, payload, players, npc_rolls, own):
        """An NPC's challenge at the setting; an NPC's attack result a player character must meet is its
        player's alone where the setting hides NPC totals (issue 35, item 10)."""
        shown = say.players_challenge(payload, payload.get("combatant"), players, npc_rolls)
        attacker = payload.get("defends_against")
        if attacker and say.to_meet_hidden(attacker, payload.get("combatant"), players, own, npc_rolls):
            shown = without(shown, set(say.TO_MEET))
        return shown

    @override
    def apply(self, table, event):
        table.set_fatigue(event.payload.get("combatant"), event.payload.get("fatigue_after"))
        return table

    @override
    def marks(self, event):
        """An attack that succeeded is a hit (d6 seed: the defender may still defend); the d6 system has no
        wounds, botches or corrections to mark."""
        p = event.payload
        if _attack(p) and p.get("success"):
            return [("hit", p["combatant"], f"hit {p.get('target_name') or ''}".strip())]
        return []

    @override
    def tally(self, event):
        """Attacks made and succeeded; each rise of fatigue on the track counts as a level lost (d6 seed)."""
        p, tally = event.payload, []
        if _attack(p):
            tally.append((p["combatant"], "attacks", 1))
            if p.get("success"):
                tally.append((p["combatant"], "landed", 1))
        if p.get("fatigue_rose"):
            tally.append((p["combatant"], "fatigue_lost", 1))
        return tally

    @override
    def rolls(self, event):
        """The challenge's result (d6 seed)."""
        p = event.payload
        return [(p.get("combatant"), p.get("result"), f"{p.get('rolled') or 'roll'}")]


class BreatherKind(D6Kind):
    name, label, payload = kinds.BREATHER, "Breather", Breather
    secret = False  # seen by the whole table

    @override
    def sentence(self, payload: dict, names: dict, *, storyguide: bool) -> str:
        return sentences.breather(payload)

    @override
    def apply(self, table, event):
        table.set_fatigue(event.payload.get("combatant"), event.payload.get("fatigue_after"))
        return table


class TurnEndedKind(D6Kind):
    name, label, payload = kinds.TURN_ENDED, "Turn ended", TurnEnded
    secret = False  # seen by the whole table

    @override
    def sentence(self, payload: dict, names: dict, *, storyguide: bool) -> str:
        return sentences.turn_ended(payload)

    @override
    def apply(self, table, event):
        table.turn, table.round = event.payload.get("next"), event.payload.get("next_round", table.round)
        return table


class ChaseStartedKind(D6Kind):
    name, label, payload = kinds.CHASE_STARTED, "Chase started", ChaseStarted
    secret = False  # seen by the whole table
    panels = SETUP  # the encounter runs: set-up is over

    @override
    def sentence(self, payload: dict, names: dict, *, storyguide: bool) -> str:
        return sentences.chase_started(payload)

    @override
    def apply(self, table, event):
        p = event.payload
        runners = {p["target"]: replay.Runner(p["target"], "target")}
        for chaser in p.get("chasers", ()):
            runners[chaser["combatant"]] = replay.Runner(chaser["combatant"], "chaser", chaser["distance"])
        table.status = "running"
        table.chase = replay.Chase(
            p["chase"], p["target"], dict(p["terrain"]), runners, p.get("escape_distance")
        )
        return table


class ExchangeKind(D6Kind):
    name, label, payload = kinds.EXCHANGE, "Chase exchange", Exchange

    @override
    def sentence(self, payload: dict, names: dict, *, storyguide: bool) -> str:
        return sentences.exchange(payload)

    @override
    def _shown(self, payload, players, npc_rolls, own):
        return say.players_exchange(payload, players, npc_rolls)

    @override
    def apply(self, table, event):
        """d6 seed: the rolls' fatigue, the distances after, who dropped out, lost sight or moved ahead."""
        p, chase = event.payload, table.chase
        if chase is None:
            return table
        by_name = {table.combatants[rid].name: rid for rid in chase.runners if rid in table.combatants}
        for roll in p.get("rolls", ()):
            table.set_fatigue(roll.get("runner"), roll.get("fatigue_after"))
            if roll.get("dropped_out") and roll.get("runner") in chase.runners:
                chase.runners[roll["runner"]].status = "dropped_out"
        for rid, distance in (p.get("distances_after") or {}).items():
            if rid in chase.runners:
                chase.runners[rid].distance = distance
        for status, names in (("lost_sight", p.get("lost_sight", ())), ("ahead", p.get("moved_ahead", ()))):
            for name in names:
                if name in by_name:
                    chase.runners[by_name[name]].status = status
        chase.exchanges = p.get("number", chase.exchanges + 1)
        chase.outcome = p.get("outcome", chase.outcome)
        return table

    @override
    def tally(self, event):
        """Each runner's rise of fatigue counts as a level lost (d6 seed)."""
        rolls = event.payload.get("rolls", ())
        return [(r["runner"], "fatigue_lost", 1) for r in rolls if r.get("fatigue_rose")]

    @override
    def rolls(self, event):
        """Each runner's result in the exchange (d6 seed)."""
        terrain = say.score_label((event.payload.get("terrain") or {}).get("rolled")) or "chase"
        return [
            (r.get("runner"), r.get("result"), f"{terrain} in the chase")
            for r in event.payload.get("rolls") or ()
        ]


class TerrainOfferedKind(D6Kind):
    name, label, payload = kinds.TERRAIN_OFFERED, "Terrain offered", TerrainOffered
    secret = False  # seen by the whole table

    @override
    def sentence(self, payload: dict, names: dict, *, storyguide: bool) -> str:
        return sentences.terrain_offered(payload)


class TerrainChosenKind(D6Kind):
    name, label, payload = kinds.TERRAIN_CHOSEN, "Terrain chosen", TerrainChosen
    secret = False  # seen by the whole table

    @override
    def sentence(self, payload: dict, names: dict, *, storyguide: bool) -> str:
        return sentences.terrain_chosen(payload)

    @override
    def apply(self, table, event):
        if table.chase is not None:
            table.chase.terrain = dict(event.payload["after"])
        return table


class ChaseEndedKind(D6Kind):
    name, label, payload = kinds.CHASE_ENDED, "Chase ended", ChaseEnded
    secret = False  # seen by the whole table

    @override
    def sentence(self, payload: dict, names: dict, *, storyguide: bool) -> str:
        return sentences.chase_ended(payload)

    @override
    def apply(self, table, event):
        if table.chase is not None:
            table.chase.outcome = event.payload.get("outcome", table.chase.outcome)
        return table


class ValueSetKind(D6Kind):
    """The storyguide names the challenge value of an action or a defence (RULES.md Part 2)."""

    name, label, payload = kinds.VALUE_SET, "Challenge value set", ValueSet

    @override
    def sentence(self, payload: dict, names: dict, *, storyguide: bool) -> str:
        """The value, or that it is behind the screen where the reader may not see it."""
        what, whose = ("defence" if payload.get("defence") else "action"), payload.get("name", "")
        if "value" not in payload:
            return f"The storyguide sets the challenge value of {whose}’s {what}, {SCREENED}."
        value = "none" if payload["value"] is None else payload["value"]
        return f"The storyguide sets the challenge value of {whose}’s {what}: {value}."

    @override
    def _shown(self, payload, players, npc_rolls, own):
        """A player character's action's value, everyone's; its defence against an NPC's attack, its player's
        alone; an NPC's, at the setting, as on its roll (the `value` of its challenge). An entry from before
        the log named whose challenge it was is read as an NPC's."""
        if payload.get("value") is None:
            return payload
        who = payload.get("combatant")
        if who is None or str(who) not in players:
            hidden = bool(behind_the_screen(npc_rolls, totals=("value",)))
        elif payload.get("defence"):
            hidden = say.to_meet_hidden(payload.get("attacker"), who, players, own, npc_rolls)
        else:
            hidden = False
        return without(payload, {"value"}) if hidden else payload


class FacesInKind(D6Kind):
    name, label, payload = kinds.FACES_IN, "Dice typed in", FacesIn

    @override
    def sentence(self, payload: dict, names: dict, *, storyguide: bool) -> str:
        return sentences.faces_in(payload)

    @override
    def _shown(self, payload, players, npc_rolls, own):
        return say.players_challenge(payload, payload.get("combatant"), players, npc_rolls)


class PassChoiceKind(D6Kind):
    name, label, payload = kinds.PASS_CHOICE, "Choice at the target", PassChoice
    secret = False  # seen by the whole table

    @override
    def sentence(self, payload: dict, names: dict, *, storyguide: bool) -> str:
        return sentences.pass_choice(payload)


EVENT_KINDS = (
    FightStartedKind,
    RollKind,
    BreatherKind,
    TurnEndedKind,
    ChaseStartedKind,
    ExchangeKind,
    TerrainOfferedKind,
    TerrainChosenKind,
    ChaseEndedKind,
    ValueSetKind,
    FacesInKind,
    PassChoiceKind,
)
BY_NAME: dict[str, D6Kind] = {kind.name: kind() for kind in EVENT_KINDS}


def players_entry(
    kind: str, payload: dict, players: set[str], npc_rolls: str, own: set[str] = frozenset()
) -> dict:
    """An entry's payload as players see it, by its kind (`D6Kind._shown`), for a panel that shows it; any
    other kind's whole."""
    unit = BY_NAME.get(kind)
    return unit._shown(payload, players, npc_rolls, own) if unit else payload
