"""The d6 table at any step of an encounter, folded from its event log alone (d6 seed; RULES.md Part 2).

Each event kind's effect is its unit's `apply` (`d6.events`): each combatant's fatigue on its track,
the fight's acting order, round and turn, the chase's terrain, distances, runners and outcome; its marks
and tallies on the charts its `marks` and `tally`. Kinds that change none of these (a challenge value
set, dice typed in, a choice at the target, a terrain offered) leave the table as it was.
The core's kinds (a combatant joins, leaves or is renamed, the encounter ends) the core folds
itself, over the table's `join`, `leave`, `rename` and `end` (`combat.events.ReplayTable`).

The fatigue each combatant joins with is its `combatant_added` event's `levels` (with its base);
logs written before that was kept show "not in the log" until a roll or a breather sets it
(docs/replay.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from typing_extensions import override

from combat import systems
from combat.events import ReplayTable

TEMPLATE = "d6/_replay.html"


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


# What the saga's charts read besides the kinds that fold, mark or tally (`combat.systems.charted_kinds`).
CHART_KINDS = ()


class Replay(systems.Replay):
    """The d6 fold of the log and its charts (docs/replay.md)."""

    TEMPLATE = TEMPLATE
    CHART_KINDS = CHART_KINDS

    @override
    def joining_levels(self, combatant) -> dict:
        """A combatant's fatigue and base fatigue as it joins the fight, for its `combatant_added` event."""
        from .services.sheet import stamina_base
        from .sheet import sheet_of

        character = combatant.character
        return {"fatigue": sheet_of(character).fatigue, "base": stamina_base(character)}

    @override
    def start(self) -> Table:
        """The table before an encounter's first event."""
        return Table()

    @override
    def replay_context(self, table: Table) -> dict:
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

    @override
    def chart_tracks(self) -> tuple:
        """The fatigue track, 1 to 20 (d6 seed)."""
        return (("fatigue", "Fatigue", tuple(str(n) for n in range(1, FATIGUE_MAX + 1))),)

    @override
    def chart_levels(self, table: Table) -> dict[str, dict[str, int]]:
        """Each combatant's fatigue as a place on the track (0 is fatigue 1)."""
        return {
            cid: ({"fatigue": min(max(c.fatigue, 1), FATIGUE_MAX) - 1} if isinstance(c.fatigue, int) else {})
            for cid, c in table.combatants.items()
        }

    @override
    def survived(self, table: Table, combatant_id: str) -> bool:
        """Still at the table at the encounter's end (the d6 system has no death)."""
        return combatant_id in table.combatants
