"""The saga's play sessions ("evenings"): its encounters grouped by when their events were written.

An encounter is played from its first event of a round (or its first event at all, if it never had a
round) to its last; encounters are taken in the order they were played, and one that starts more than
`GAP` after everything before it ended starts a new evening. The storyguide can regroup: an encounter's
`evening_start` (True: starts an evening, False: keeps with the one before) overrides the gap.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.db.models import Max, Min, Q

from ..models import Encounter

GAP = timedelta(hours=6)
EARLIER, LATER = "earlier", "later"
MOVES = {EARLIER: "to the evening before", LATER: "to the evening after"}  # the storyguide's buttons


@dataclass
class Evening:
    """One play session: its number (1 for the saga's first), its encounters in the order they were played."""

    number: int
    encounters: list[Encounter] = field(default_factory=list)
    start: datetime | None = None


def played(saga) -> list[Encounter]:
    """The saga's encounters with events, in the order they were played, each with `began` and `finished`."""
    encounters = saga.encounters.annotate(
        began=Min("events__created_at", filter=Q(events__round_number__gt=0)),
        opened=Min("events__created_at"),
        finished=Max("events__created_at"),
    ).filter(opened__isnull=False)
    for encounter in encounters:
        encounter.began = encounter.began or encounter.opened
    return sorted(encounters, key=lambda encounter: (encounter.began, encounter.pk))


def evenings(saga) -> list[Evening]:
    """The saga's evenings, oldest first: a new one after a gap of more than `GAP`, or where the storyguide
    said so (`Encounter.evening_start`)."""
    grouped: list[Evening] = []
    finished = None
    for encounter in played(saga):
        starts = encounter.evening_start
        if starts is None:
            starts = finished is None or encounter.began - finished > GAP
        if starts or not grouped:
            grouped.append(Evening(len(grouped) + 1, start=encounter.began))
        grouped[-1].encounters.append(encounter)
        finished = encounter.finished if finished is None else max(finished, encounter.finished)
    return grouped


def moves(grouped: list[Evening]) -> dict[int, tuple[str, ...]]:
    """Where each encounter can go: the first of an evening to the one before, the last to the one after."""
    allowed: dict[int, tuple[str, ...]] = {}
    for index, evening in enumerate(grouped):
        first, last = evening.encounters[0].pk, evening.encounters[-1].pk
        if index > 0:
            allowed[first] = (EARLIER,)
        if index < len(grouped) - 1:
            allowed[last] = (*allowed.get(last, ()), LATER)
    return allowed


def regrouped(grouped: list[Evening], encounter_id: int, direction: str) -> dict[int, bool]:
    """The `evening_start` to store, by encounter id, to move the encounter to the evening before or after
    (the first of an evening to the one before, the last to the one after); empty when it cannot go there."""
    if direction not in moves(grouped).get(encounter_id, ()):
        return {}
    # `moves` names only the first or last encounter of an evening: `encounter_id` is in one of them.
    index = next(i for i, evening in enumerate(grouped) if encounter_id in {e.pk for e in evening.encounters})
    encounters = grouped[index].encounters
    if direction == EARLIER:
        changes = {encounter_id: False}
        if len(encounters) > 1:
            changes[encounters[1].pk] = True  # the rest of the evening stays where it was
        return changes
    changes = {grouped[index + 1].encounters[0].pk: False}
    if len(encounters) > 1:
        changes[encounter_id] = True
    return changes
