"""The d6 table at any step of an encounter, folded from its event log alone (d6 seed; RULES.md Part 2).

Each event kind's effect is one small function of `EFFECTS`: each combatant's fatigue on its track,
the fight's acting order, round and turn, the chase's terrain, distances, runners and outcome. Kinds
that change none of these (a challenge value set, dice typed in, a choice at the target, a terrain
offered) leave the table as it was; a new kind slots in with its own function.
The core's kinds (a combatant joins, leaves or is renamed, the encounter ends) the core folds
itself, over the table's `join`, `leave`, `rename` and `end` (`combat.events.ReplayTable`).

The fatigue each combatant joins with is its `combatant_added` event's `levels` (with its base);
logs written before that was kept show "not in the log" until a roll or a breather sets it
(docs/replay.md).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from typing_extensions import override

from combat import systems
from combat.events import ReplayTable, fold_core

from . import kinds, presenters

TEMPLATE = "d6table/_replay.html"


@dataclass
class Combatant:
    """One combatant as the table saw it at that step."""

    id: str
    name: str
    side: str
    npc: bool
    fatigue: int | None = None
    base: int | None = None


@dataclass
class Runner:
    """A runner of the chase: the target, or a chaser with its squares behind the target."""

    id: str
    role: str
    distance: int | None = None
    status: str = "running"


@dataclass
class Chase:
    """The encounter's latest chase at that step."""

    number: int
    target: str
    terrain: dict
    runners: dict[str, Runner]
    escape_distance: int | None = None
    exchanges: int = 0
    outcome: str = "ongoing"


@dataclass
class Table(ReplayTable):
    """The encounter at one step: status, who fights, the fight's order and turn, the chase. The core folds
    its own kinds over it (`ReplayTable`: join, leave, rename, end)."""

    status: str = "preparing"
    round: int = 0
    combatants: dict[str, Combatant] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)
    turn: str | None = None
    chase: Chase | None = None

    def facts(self) -> dict:
        """What the table shows, as plain values: the replay's test compares them with the live rows'."""
        chase = self.chase
        return {
            "status": self.status,
            "round": self.round,
            "fatigue": {cid: c.fatigue for cid, c in self.combatants.items()},
            "order": list(self.order),
            "turn": self.turn,
            "chase": None
            if chase is None
            else {
                "terrain": chase.terrain["name"],
                "exchanges": chase.exchanges,
                "outcome": chase.outcome,
                "runners": {rid: (r.role, r.distance, r.status) for rid, r in chase.runners.items()},
            },
        }

    @override
    def join(self, combatant: str, name: str, side: str, npc: bool, levels: dict) -> None:
        self.combatants[combatant] = Combatant(
            combatant, name, side, npc, levels.get("fatigue"), levels.get("base")
        )

    @override
    def leave(self, combatant: str) -> None:
        self.combatants.pop(combatant, None)

    @override
    def rename(self, combatant: str, name: str) -> None:
        if combatant in self.combatants:
            self.combatants[combatant].name = name

    @override
    def end(self) -> None:
        self.status = "ended"

    def set_fatigue(self, who, fatigue) -> None:
        combatant = self.combatants.get(str(who))
        if combatant is not None and fatigue is not None:
            combatant.fatigue = fatigue


def start() -> Table:
    """The table before an encounter's first event."""
    return Table()


def joining_levels(combatant) -> dict:
    """A combatant's fatigue and base fatigue as it joins the fight, for its `combatant_added` event."""
    from .services.sheet import stamina_base
    from .sheet import sheet_of

    character = combatant.character
    return {"fatigue": sheet_of(character).fatigue, "base": stamina_base(character)}


def _fight_started(table: Table, p: dict) -> None:
    """Everyone's initiative, highest first: the first acts (RULES.md Part 2 [ours])."""
    table.status, table.round = "running", 1
    table.order = [row["combatant"] for row in p.get("order", ())]
    table.turn = table.order[0] if table.order else None


def _rolled(table: Table, p: dict) -> None:
    table.set_fatigue(p.get("combatant"), p.get("fatigue_after"))


def _turn_ended(table: Table, p: dict) -> None:
    table.turn, table.round = p.get("next"), p.get("next_round", table.round)


def _chase_started(table: Table, p: dict) -> None:
    runners = {p["target"]: Runner(p["target"], "target")}
    for chaser in p.get("chasers", ()):
        runners[chaser["combatant"]] = Runner(chaser["combatant"], "chaser", chaser["distance"])
    table.status = "running"
    table.chase = Chase(p["chase"], p["target"], dict(p["terrain"]), runners, p.get("escape_distance"))


def _exchange(table: Table, p: dict) -> None:
    """d6 seed: the rolls' fatigue, the distances after, who dropped out, lost sight or moved ahead."""
    chase = table.chase
    if chase is None:
        return
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


def _terrain_chosen(table: Table, p: dict) -> None:
    if table.chase is not None:
        table.chase.terrain = dict(p["after"])


def _chase_ended(table: Table, p: dict) -> None:
    if table.chase is not None:
        table.chase.outcome = p.get("outcome", table.chase.outcome)


EFFECTS: dict[str, Callable[[Table, dict], None]] = {
    kinds.FIGHT_STARTED: _fight_started,
    kinds.ROLL: _rolled,
    kinds.BREATHER: _rolled,
    kinds.TURN_ENDED: _turn_ended,
    kinds.CHASE_STARTED: _chase_started,
    kinds.EXCHANGE: _exchange,
    kinds.TERRAIN_CHOSEN: _terrain_chosen,
    kinds.CHASE_ENDED: _chase_ended,
}


def apply(table: Table, event) -> Table:
    """The table after one more event (its kind's effect; a core kind's is the core's, `fold_core`; any
    other kind changes nothing)."""
    effect = EFFECTS.get(event.kind)
    if effect is None:
        return fold_core(table, event)
    effect(table, event.payload)
    return table


STATUS_WORDS = {
    "running": "running",
    "dropped_out": "dropped out",
    "lost_sight": "lost sight",
    "ahead": "moved ahead",
}
OUTCOME_WORDS = {"ongoing": "running", "caught": "caught", "escaped": "escaped", "overtaken": "overtaken"}
# A chase still running when the encounter ended stops where it stood, and its runners with it [ours].
STOPPED = "stopped when the encounter ended"
STOPPED_RUNNER = "in the chase when it stopped"


def replay_context(table: Table) -> dict:
    """The replay's panels: each combatant's fatigue on its track, the acting order with whose turn it
    is, the chase's terrain and every runner's squares behind the target. Once the encounter has ended
    nobody's turn comes and a chase still running has stopped: no step reads as one to come."""
    names = {cid: c.name for cid, c in table.combatants.items()}
    over = table.status == "ended"
    outcome_words = {**OUTCOME_WORDS, "ongoing": STOPPED} if over else OUTCOME_WORDS
    status_words = {**STATUS_WORDS, "running": STOPPED_RUNNER} if over else STATUS_WORDS

    def name(cid) -> str:
        return names.get(str(cid), "someone who left")

    chase = table.chase
    return {
        "table": table,
        "rows": [
            {
                "id": c.id,
                "name": c.name,
                "side": c.side,
                "fatigue": "not in the log" if c.fatigue is None else c.fatigue,
                "base": "" if c.base is None else c.base,
                "percent": 0 if c.fatigue is None else min(c.fatigue, 20) * 5,
            }
            for c in table.combatants.values()
        ],
        "heading": f"Round {table.round}" if table.round else "Before the fight",
        "over": over,
        "order": [{"name": name(cid), "turn": cid == table.turn and not over} for cid in table.order],
        "chase": None
        if chase is None
        else {
            "number": chase.number,
            "terrain": chase.terrain.get("name", ""),
            "rolled": chase.terrain.get("rolled", ""),
            "exchanges": chase.exchanges,
            "outcome": outcome_words.get(chase.outcome, chase.outcome),
            "target": name(chase.target),
            "runners": [
                {
                    "id": r.id,
                    "name": name(r.id),
                    "role": r.role,
                    "distance": r.distance,
                    "where": _where(r, name(chase.target)),
                    "status": status_words.get(r.status, r.status),
                }
                for r in chase.runners.values()
            ],
        },
    }


def _where(runner: Runner, target: str) -> str:
    if runner.role == "target":
        return "the target"
    if runner.distance is None:
        return ""
    if runner.distance < 0:
        return f"ahead of {target}"
    return f"{runner.distance} square{'s' if runner.distance != 1 else ''} behind {target}"


# --- the charts: the same table, and each event's part in the encounter's story (d6 seed) ---------

FATIGUE_MAX = 20


# What the saga's charts read: the kinds that change fatigue (the rolls and exchanges among them).
CHART_KINDS = tuple(EFFECTS)


def chart_tracks() -> tuple:
    """The fatigue track, 1 to 20 (d6 seed)."""
    return (("fatigue", "Fatigue", tuple(str(n) for n in range(1, FATIGUE_MAX + 1))),)


def chart_levels(table: Table) -> dict[str, dict[str, int]]:
    """Each combatant's fatigue as a place on the track (0 is fatigue 1)."""
    return {
        cid: ({"fatigue": min(max(c.fatigue, 1), FATIGUE_MAX) - 1} if isinstance(c.fatigue, int) else {})
        for cid, c in table.combatants.items()
    }


def _attack(p: dict) -> bool:
    return p.get("target") is not None and not p.get("defending")


def chart_marks(event) -> list[tuple[str, str, str]]:
    """An attack that succeeded is a hit (d6 seed: the defender may still defend); the d6 system has no
    wounds, botches or corrections to mark."""
    p = event.payload
    if event.kind == kinds.ROLL and _attack(p) and p.get("success"):
        return [("hit", p["combatant"], f"hit {p.get('target_name') or ''}".strip())]
    return []


def chart_tally(event) -> list[tuple[str, str, int]]:
    """Attacks made and succeeded; each rise of fatigue on the track counts as a level lost (d6 seed)."""
    p, tally = event.payload, []
    if event.kind == kinds.ROLL:
        if _attack(p):
            tally.append((p["combatant"], "attacks", 1))
            if p.get("success"):
                tally.append((p["combatant"], "landed", 1))
        if p.get("fatigue_rose"):
            tally.append((p["combatant"], "fatigue_lost", 1))
    elif event.kind == kinds.EXCHANGE:
        tally += [(r["runner"], "fatigue_lost", 1) for r in p.get("rolls", ()) if r.get("fatigue_rose")]
    return tally


def survived(table: Table, combatant_id: str) -> bool:
    """Still at the table at the encounter's end (the d6 system has no death)."""
    return combatant_id in table.combatants


def recap_rolls(event) -> list[tuple[str, int, str]]:
    """Each challenge's result (initiative, a roll, a runner's in a chase), for the evening's best and worst
    roll (d6 seed); a result the reader may not see is not in their version of the payload."""
    p = event.payload
    if event.kind == kinds.ROLL:
        rolled = [(p.get("combatant"), p.get("result"), f"{p.get('rolled') or 'roll'}")]
    elif event.kind == kinds.FIGHT_STARTED:
        rolled = [(row.get("combatant"), row.get("result"), "initiative") for row in p.get("order") or ()]
    elif event.kind == kinds.EXCHANGE:
        terrain = presenters.score_label((p.get("terrain") or {}).get("rolled")) or "chase"
        runners = p.get("rolls") or ()
        rolled = [(row.get("runner"), row.get("result"), f"{terrain} in the chase") for row in runners]
    else:
        return []
    return [
        (str(who), result, what)
        for who, result, what in rolled
        if isinstance(result, int) and not isinstance(result, bool)
    ]


class Replay(systems.Replay):
    """The d6 fold of the log and its charts (docs/replay.md)."""

    TEMPLATE = TEMPLATE
    CHART_KINDS = CHART_KINDS

    @override
    def joining_levels(self, combatant):
        return joining_levels(combatant)

    @override
    def start(self):
        return start()

    @override
    def apply(self, table, event):
        return apply(table, event)

    @override
    def replay_context(self, table):
        return replay_context(table)

    @override
    def chart_tracks(self):
        return chart_tracks()

    @override
    def chart_levels(self, table):
        return chart_levels(table)

    @override
    def chart_marks(self, event):
        return chart_marks(event)

    @override
    def chart_tally(self, event):
        return chart_tally(event)

    @override
    def recap_rolls(self, event):
        return recap_rolls(event)

    @override
    def survived(self, table, combatant_id):
        return survived(table, combatant_id)
