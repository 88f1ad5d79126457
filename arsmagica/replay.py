"""The Ars Magica table at any step of an encounter, folded from its event log alone (ArM3 p163-p177).

Each event kind's effect is its unit's `apply` (`arsmagica.events`): the combatants' Fatigue and Body
levels, the advantage they carry, the round's step, the acting order and the engagements; its marks and
tallies on the charts its `marks` and `tally`. Kinds that change none of these (a declaration, an attack, a
spell, a fatigue roll: the phase's results, applied with its `phase_resolved`) leave the table as it was.
The core's kinds (a combatant joins, leaves or is renamed, the encounter ends) the core folds
itself, over the table's `join`, `leave`, `rename` and `end` (`combat.events.ReplayTable`).

What the log holds: every level change (`phase_resolved`, `correction`, rest), the advantage carried
(`round_ended`, `correction`), the acting order and engagements (`movement`); the levels each combatant
joins with (`combatant_added`'s `levels`) and each round starts with (`declarations_opened`'s `start`).
Logs written before those two were added lack the starting levels: a combatant's levels read "not in
the log" until an event sets them (docs/replay.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from typing_extensions import override

from combat import systems
from combat.events import ReplayTable

from .kinds import Kind
from .rules.table import STEPS

TEMPLATE = "arsmagica/_replay.html"
UNDO_KINDS = (Kind.PHASE_UNDONE,)


@dataclass
class Fighter:
    """One combatant as the table saw it at that step."""

    id: str
    name: str
    side: str
    npc: bool
    character: int | None = None
    fatigue_level: str | None = None
    body_level: str | None = None
    advantage_attack: int = 0
    advantage_defense: int = 0
    advantage_screened: tuple[str, ...] = ()  # in a player's replay: an NPC's advantage, its size hidden


@dataclass
class Table(ReplayTable):
    """The encounter at one step: status, round, the round's step, who fights, order, engagements. The
    core folds its own kinds over it (`ReplayTable`: join, leave, rename, end)."""

    status: str = "preparing"
    round: int = 0
    phase: str = ""
    fighters: dict[str, Fighter] = field(default_factory=dict)
    order: list[dict] = field(
        default_factory=list
    )  # Initiative rows in acting order, as the reader sees them
    engagements: list[dict] = field(default_factory=list)
    escapes: list[dict] = field(default_factory=list)

    def facts(self) -> dict:
        """What the table shows, as plain values: the replay's test compares them with the live rows'."""
        return {
            "status": self.status,
            "round": self.round,
            "phase": self.phase,
            "fighters": {
                fid: (f.fatigue_level, f.body_level, f.advantage_attack, f.advantage_defense)
                for fid, f in self.fighters.items()
            },
            "order": [row["combatant"] for row in self.order],
            "engagements": sorted((e["a"], e["b"], e["range"]) for e in self.engagements),
        }

    @override
    def join(self, combatant: str, name: str, side: str, npc: bool, levels: dict) -> None:
        self.fighters[combatant] = Fighter(
            id=combatant,
            name=name,
            side=side,
            npc=npc,
            character=levels.get("character"),
            fatigue_level=levels.get("fatigue_level"),
            body_level=levels.get("body_level"),
            advantage_attack=levels.get("advantage_attack", 0),
            advantage_defense=levels.get("advantage_defense", 0),
        )

    @override
    def leave(self, combatant: str) -> None:
        self.fighters.pop(combatant, None)

    @override
    def rename(self, combatant: str, name: str) -> None:
        if combatant in self.fighters:
            self.fighters[combatant].name = name

    @override
    def end(self) -> None:
        self.status = "ended"

    def by_character(self, character, name: str = "") -> Fighter | None:
        """The fighter playing that character (by the id its `levels` recorded, else by name)."""
        for fighter in self.fighters.values():
            if fighter.character is not None and fighter.character == character:
                return fighter
        return next((f for f in self.fighters.values() if f.character is None and f.name == name), None)


# --- the charts: the same table, and each event's part in the encounter's story (ArM3 p163-p177) ---

FATIGUE_LEVELS = ("fresh", "winded", "weary", "tired", "dazed", "unconscious")
BODY_LEVELS = ("unhurt", "hurt", "light_wounds", "medium_wounds", "heavy_wounds", "incapacitated", "dead")


# What the saga's charts read besides the kinds that fold, mark or tally (`combat.systems.charted_kinds`).
CHART_KINDS = ()

# What the charts' fold, marks and tallies never read of those kinds: the parts and dice of every roll,
# Movement's order, engagements and declarations (the charts draw levels, not the acting order).
_ROLLS = ("attack_roll", "defense_roll", "roll")
CHART_UNREAD = (
    *("attack_parts", "defense_parts", "parts", "dice", "names", "declarations"),
    *("initiative", "engagements", "escapes", "weapon", "range", "attack_total", "defense_total"),
    *("defense_with", "difference", "applied_as", "damage_total", "soak", "damage_prevented"),
    *(f"{roll}.{key}" for roll in _ROLLS for key in ("faces", "botch_faces", "value")),
)


# What a confirmed phase writes (ArM3 p163-p168): its results, then its `phase_resolved`.
PHASE_RESULTS = (Kind.ATTACK, Kind.SPELL, Kind.FATIGUE_ROLL, Kind.SKIPPED, Kind.PHASE_RESOLVED)


class Replay(systems.Replay):
    """Ars Magica's fold of the log, its charts and its undo (docs/replay.md)."""

    TEMPLATE = TEMPLATE
    UNDO_KINDS = UNDO_KINDS
    UNDO_IN_ROUND = True  # a phase's undo takes back results of its own round (`takes_back`)
    CHART_KINDS = CHART_KINDS
    CHART_UNREAD = CHART_UNREAD

    @override
    def joining_levels(self, combatant) -> dict:
        """A combatant's levels as it joins the fight, for its `combatant_added` event."""
        from .sheet import carried, sheet_of

        sheet = sheet_of(combatant.character)
        advantage = carried(combatant)
        return {
            "character": combatant.character_id,
            "fatigue_level": sheet.fatigue_level,
            "body_level": sheet.body_level,
            "advantage_attack": advantage.advantage_attack,
            "advantage_defense": advantage.advantage_defense,
        }

    @override
    def start(self) -> Table:
        """The table before an encounter's first event."""
        return Table()

    @override
    def replay_context(self, table: Table) -> dict:
        """The replay's panels: each combatant's levels and advantage, the acting order, the engagements."""
        from .models import BodyLevel, FatigueLevel
        from .presenters import advantage_sides, advantage_words

        names = {fid: f.name for fid, f in table.fighters.items()}

        def name(cid) -> str:
            return names.get(str(cid), "someone who left")

        return {
            "table": table,
            # An ended encounter's last step names no step of a round still to come (ArM3 p163's steps).
            "step_label": "Encounter over"
            if table.status == "ended"
            else STEPS.get(table.phase, table.phase),
            "over": table.status == "ended",
            "rows": [
                {
                    "id": f.id,
                    "name": f.name,
                    "side": f.side,
                    "fatigue": FatigueLevel(f.fatigue_level).label if f.fatigue_level else "not in the log",
                    "body": BodyLevel(f.body_level).label if f.body_level else "not in the log",
                    "advantage": advantage_words(f.advantage_attack, f.advantage_defense)
                    or advantage_sides(*(side in f.advantage_screened for side in ("attack", "defense")))
                    or "none",
                    "down": f.body_level in ("incapacitated", "dead") or f.fatigue_level == "unconscious",
                }
                for f in table.fighters.values()
            ],
            "order": [
                {"id": row["combatant"], "name": name(row["combatant"]), "total": row.get("total")}
                for row in table.order
            ],
            "engagements": [
                {
                    "a": name(e["a"]),
                    "b": name(e["b"]),
                    "range": e["range"].replace("_", " "),
                    "prevailed": name(e["prevailed"]) if e.get("contested") and e.get("prevailed") else "",
                }
                for e in table.engagements
            ],
            "escapes": [{"who": name(e["combatant"]), "from": name(e["pursuer"])} for e in table.escapes],
        }

    @override
    def takes_back(self, undo, standing: list) -> list[int]:
        """A `phase_undone` takes back what confirming its phase wrote, and the empty phases that passed by
        themselves after it [ours]: the standing results of those phases in its round (a phase is confirmed
        once at a time, so every standing result of it is the last confirmation's)."""
        phases = {undo.payload.get("phase"), *undo.payload.get("passed", ())}
        return [
            event.seq
            for event in standing
            if event.round_number == undo.round_number
            and event.phase in phases
            and event.kind in PHASE_RESULTS
        ]

    @override
    def chart_tracks(self) -> tuple:
        """Fatigue and Body levels, best to worst, with the labels the table reads (ArM3 p177)."""
        from .models import BodyLevel, FatigueLevel

        return (
            ("fatigue", "Fatigue level", tuple(FatigueLevel(v).label for v in FATIGUE_LEVELS)),
            ("body", "Body level", tuple(BodyLevel(v).label for v in BODY_LEVELS)),
        )

    @override
    def chart_levels(self, table: Table) -> dict[str, dict[str, int]]:
        """Each fighter's Fatigue and Body levels as places on their tracks (0 is Fresh, Unhurt)."""
        levels = {}
        for fid, fighter in table.fighters.items():
            places = {}
            if fighter.fatigue_level in FATIGUE_LEVELS:
                places["fatigue"] = FATIGUE_LEVELS.index(fighter.fatigue_level)
            if fighter.body_level in BODY_LEVELS:
                places["body"] = BODY_LEVELS.index(fighter.body_level)
            levels[fid] = places
        return levels

    @override
    def survived(self, table: Table, combatant_id: str) -> bool:
        """Alive at the encounter's end: not dead (RULES.md [ours]: death past Incapacitated)."""
        fighter = table.fighters.get(combatant_id)
        return fighter is not None and fighter.body_level != "dead"
