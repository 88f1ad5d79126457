"""Who the record names: every combatant as the encounter's log named them.

A combatant is named by its `combatant_added` event and, from a `combatant_renamed` event on (the
storyguide renamed its character while the encounter was open), by the name that event gives. A
combatant who left the fight keeps the name he had; a character renamed after the encounter ended
keeps, in that encounter's record, the name its log gave him. The history page, `history.json`, the
recap, the print view, the replay, the charts and the saga's statistics all ask `Roster.at`.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass, field

from .events import CoreKind

NAMING = (CoreKind.COMBATANT_ADDED, CoreKind.COMBATANT_RENAMED)


@dataclass
class Joined:
    """A combatant as the log brought it in: its side and, where the log says, its character's id."""

    side: str
    character: int | None


@dataclass
class Roster:
    """The names some encounters' logs gave their combatants, step by step."""

    steps: dict[int, list[tuple[int, str, str]]] = field(default_factory=dict)  # encounter: (seq, id, name)
    joined: dict[int, dict[str, Joined]] = field(default_factory=dict)  # encounter: id: how it came in
    _seen: dict[tuple[int, int], dict[str, str]] = field(default_factory=dict)

    @classmethod
    def of(cls, events: Iterable) -> Roster:
        """The roster of events in the log's order (each with `encounter_id`, `seq`, `kind`, `payload`)."""
        roster = cls()
        for event in events:
            if event.kind not in NAMING:
                continue
            p, cid = event.payload, str(event.payload.get("combatant"))
            roster.steps.setdefault(event.encounter_id, []).append((event.seq, cid, p.get("name", "")))
            if event.kind == CoreKind.COMBATANT_ADDED:
                roster.joined.setdefault(event.encounter_id, {})[cid] = Joined(
                    p.get("side", ""), p.get("character")
                )
        return roster

    def at(self, encounter_id: int, seq: int | None = None) -> dict[str, str]:
        """Every combatant's name by id (as a string) as the encounter's log named them at step `seq`
        (that step included), or at its end when `seq` is None: the record's one rule for names."""
        steps = self.steps.get(encounter_id, [])
        count = len(steps) if seq is None else bisect_right([step[0] for step in steps], seq)
        key = (encounter_id, count)
        if key not in self._seen:
            self._seen[key] = {cid: name for _, cid, name in steps[:count]}
        return self._seen[key]
