"""Who held an encounter's storyguide's seat, step by step: what a person's version of an entry shows is fixed
by their place when it was written (docs/architecture.md, "Troupe play"), as `combat.played` fixes a player's
by who played a character when.

An encounter's seat is held, in its log, by the `was` of its first `seat_handed_over` entry (whoever made
the encounter, or its saga's storyguide for one made before troupe play) and, from each hand-over on, by the
storyguide that entry names (`to`); an encounter never handed over is held all along by its holder now. So
the storyguide's version of a step is for whoever held the seat when it was written, and for whoever holds
it now (they run on from it); every other person reads the players' version of it. The hand-over entries are
everyone's (not storyguide-only), so every reader's log holds them.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.db.models import Q

from .events import CoreKind
from .models import Encounter, Event


@dataclass(frozen=True)
class HandOver:
    """One hand-over of an encounter's seat, as its log entry says it."""

    seq: int
    round_number: int
    by: str
    was: str
    to: str
    reason: str


@dataclass
class Seated:
    """Who held each encounter's seat in some encounters' logs: from which step, whom (usernames)."""

    # encounter: [(seq from which, username)], oldest first
    steps: dict[int, list[tuple[int, str]]] = field(default_factory=dict)
    hand_overs: dict[int, list[HandOver]] = field(default_factory=dict)

    @classmethod
    def of(cls, events: Iterable, holders_now: dict[int, str]) -> Seated:
        """The timeline of `events` (in the log's order, each with `encounter_id`, `seq`, `kind`, `payload`;
        those of other kinds are passed over), given each encounter's holder now (a username)."""
        seated = cls()
        for event in events:
            if event.kind != CoreKind.SEAT_HANDED_OVER:
                continue
            p = event.payload
            steps = seated.steps.setdefault(event.encounter_id, [(0, p["was"])])
            steps.append((event.seq, p["to"]))
            given = HandOver(event.seq, event.round_number, p["by"], p["was"], p["to"], p.get("reason", ""))
            seated.hand_overs.setdefault(event.encounter_id, []).append(given)
        for encounter_id, holder in holders_now.items():
            seated.steps.setdefault(encounter_id, [(0, holder)])
        return seated

    @classmethod
    def read(cls, encounter_ids: list[int]) -> Seated:
        """The timeline of these encounters (two queries: their holders now, their hand-overs)."""
        name = f"seat_holder__{get_user_model().USERNAME_FIELD}"
        holders = dict(Encounter.objects.filter(pk__in=encounter_ids).values_list("pk", name))
        handed = Event.objects.filter(encounter_id__in=encounter_ids, kind=CoreKind.SEAT_HANDED_OVER)
        handed = handed.only("encounter_id", "seq", "kind", "payload", "round_number")
        return cls.of(handed.order_by("encounter_id", "seq"), holders)

    def holder(self, encounter_id: int, seq: int | None = None) -> str:
        """Who held the encounter's seat at step `seq` of its log (now, for None)."""
        steps = self.steps.get(encounter_id, [])
        if seq is None:
            return steps[-1][1] if steps else ""
        at = bisect_right([since for since, _ in steps], seq)
        return steps[at - 1][1] if at else ""

    def first(self, encounter_id: int) -> str:
        """Who held the encounter's seat at its start."""
        steps = self.steps.get(encounter_id, [])
        return steps[0][1] if steps else ""

    def whole(self, encounter_id: int, seq: int, username: str) -> bool:
        """Whether `username` reads step `seq` of the encounter in the storyguide's version: they held its
        seat when it was written, or hold it now."""
        if not username:
            return False
        return self.holder(encounter_id) == username or self.holder(encounter_id, seq) == username

    def spans(self, encounter_id: int, username: str) -> list[list]:
        """The steps of the encounter `username` reads whole: [from seq, to seq or None], in order ([[0,
        None]] for its holder now)."""
        if not username:
            return []
        steps = self.steps.get(encounter_id, [])
        if steps and steps[-1][1] == username:
            return [[0, None]]
        spans = []
        for index, (since, who) in enumerate(steps):
            if who == username:
                spans.append([since, steps[index + 1][0] if index + 1 < len(steps) else None])
        return spans

    def whole_steps(self, username: str) -> Q | None:
        """The steps of these encounters `username` reads whole, as a filter of events (None for none)."""
        found = None
        for encounter_id in self.steps:
            for since, until in self.spans(encounter_id, username):
                here = Q(encounter_id=encounter_id, seq__gte=since)
                if until is not None:
                    here &= Q(seq__lt=until)
                found = here if found is None else found | here
        return found

    def holds_all(self, username: str) -> bool:
        """Whether `username` holds the seat of every one of these encounters now."""
        return all(steps[-1][1] == username for steps in self.steps.values())
