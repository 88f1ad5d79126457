"""Who played whom, step by step: what a player's version of an entry shows is fixed by who played its
character when it was written (docs/replay.md, "Who played whom").

A player character's combatant is played, in its encounter's log, by the player its `combatant_added`
event names (`player`) and, from a `handed_over` event on (the storyguide gave the character to another
player, or a player took it up, while the encounter was open), by the player that event names. So an entry a
player reads as their own (a declaration in full, `own` in a rule system's `players_payload`)
is one written while they played its character; the new player of a character handed over does not read
the previous player's, and the previous player no longer reads the new one's. An ended encounter's record
never changes hands.

A log written before the log named players (its `combatant_added` has no `player`) is read as played by
the one who played the character before its first hand-over anywhere: the `was` of the first `handed_over`
in that encounter's log, else of the saga's first `handed_over` record of that character, else its player
now (no hand-over was possible when such a log was written, but one logged into it while it was open).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model

from campaign.models import Character

from .events import CoreKind
from .models import SagaRecord

PLAYING = (CoreKind.COMBATANT_ADDED, CoreKind.HANDED_OVER)


@dataclass
class Played:
    """Who played each player character's combatant in some encounters' logs: from which step, whom."""

    # encounter: combatant (as a string): [(seq from which, username)], oldest first; "" plays nobody
    steps: dict[int, dict[str, list[tuple[int, str]]]] = field(default_factory=dict)

    @classmethod
    def of(
        cls,
        events: Iterable,
        records: Iterable = (),
        players_now: dict[int, str] | None = None,
        character_of: dict[str, int] | None = None,
    ) -> Played:
        """The timeline of `events` (in the log's order, each with `encounter_id`, `seq`, `kind`, `payload`;
        those of other kinds are passed over), given the saga's `handed_over` records (oldest first), each
        character's player now (by id: a username, "" for nobody) and each combatant's character where the
        log does not name it, for a log that does not name its players."""
        first_was: dict[int, str] = {}
        for record in records:
            if record.kind == CoreKind.HANDED_OVER:
                first_was.setdefault(record.payload["character"], record.payload["was"])
        players_now, character_of = players_now or {}, character_of or {}
        played, unnamed = cls(), {}
        for event in events:
            p = event.payload
            if event.kind == CoreKind.COMBATANT_ADDED and not p.get("npc"):
                cid = str(p.get("combatant"))
                if "player" in p:
                    played.steps.setdefault(event.encounter_id, {})[cid] = [(0, p["player"])]
                else:
                    character = p.get("character", character_of.get(cid))
                    before = first_was.get(character, players_now.get(character, ""))
                    played.steps.setdefault(event.encounter_id, {})[cid] = [(0, before)]
                    unnamed[(event.encounter_id, cid)] = True
            elif event.kind == CoreKind.HANDED_OVER and "combatant" in p:
                cid = str(p["combatant"])
                steps = played.steps.setdefault(event.encounter_id, {}).setdefault(cid, [(0, p["was"])])
                if unnamed.pop((event.encounter_id, cid), False):
                    steps[0] = (0, p["was"])  # who played it before: the log says so at its first hand-over
                steps.append((event.seq, p["player"]))
        return played

    @classmethod
    def read(cls, saga_id: int, events: list, character_of: dict[str, int]) -> Played:
        """The timeline of a saga's `events` (in the log's order); the saga's records and its characters'
        players now are read (two queries) only for a log that does not name its players."""
        unnamed = any(
            e.kind == CoreKind.COMBATANT_ADDED and not e.payload.get("npc") and "player" not in e.payload
            for e in events
        )
        if not unnamed:
            return cls.of(events, (), {}, character_of)
        field = f"owner__{get_user_model().USERNAME_FIELD}"
        now = Character.objects.filter(saga=saga_id, is_npc=False).values_list("pk", field)
        records = SagaRecord.objects.filter(saga=saga_id, kind=CoreKind.HANDED_OVER)
        records = list(records.order_by("created_at", "id"))
        return cls.of(events, records, {pk: name or "" for pk, name in now}, character_of)

    def player(self, encounter_id: int, combatant: str, seq: int) -> str:
        """Who played the combatant at step `seq` of its encounter's log ("" for nobody, or an NPC)."""
        steps = self.steps.get(encounter_id, {}).get(str(combatant), [])
        at = bisect_right([since for since, _ in steps], seq)
        return steps[at - 1][1] if at else ""

    def own(self, encounter_id: int, seq: int, username: str) -> set[str]:
        """The combatants (ids as strings) whose character `username` played at step `seq` of the log."""
        if not username:
            return set()
        return {
            cid for cid in self.steps.get(encounter_id, {}) if self.player(encounter_id, cid, seq) == username
        }

    def spans(self, encounter_id: int, username: str) -> list[list]:
        """When `username` played whom in the encounter: [combatant, from seq, to seq or None], in order (what
        a kept summary of a player's was folded from)."""
        spans = []
        for cid, steps in sorted(self.steps.get(encounter_id, {}).items()):
            for index, (since, who) in enumerate(steps):
                if who == username and username:
                    until = steps[index + 1][0] if index + 1 < len(steps) else None
                    spans.append([cid, since, until])
        return spans
