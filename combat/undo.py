"""What an undo took back: the one answer every reader of the log asks (the charts and the saga's
statistics, the replay, the encounter's log, the history and `history.json`, the print view, the recap).

The log is never edited: an undo is an event of its own (a kind of its replay's `UNDO_KINDS`),
and the rule system says which earlier events it takes back (`Replay.takes_back`). An undo takes
back only what still stands, so a step confirmed again after its undo, and then undone again, is taken
back once each time. A taken-back event counts nowhere; wherever it is listed, it is marked undone with
the undo's reason (`undone_by`, set in memory only).
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import groupby
from types import SimpleNamespace

from .models import Event
from .systems import RuleSystem


def taken_back(system: RuleSystem, events: Iterable) -> dict[int, object]:
    """Each event of one encounter's log (oldest first) that an undo took back, by seq, with that undo."""
    standing: list = []
    undone: dict[int, object] = {}
    for event in events:
        if event.kind in system.replay.UNDO_KINDS:
            back = set(system.replay.takes_back(event, standing))
            if back:
                undone.update((seq, event) for seq in back)
                standing = [kept for kept in standing if kept.seq not in back]
        standing.append(event)
    return undone


def undone_in(system: RuleSystem, encounter_ids: Iterable[int]) -> dict[tuple[int, int], object]:
    """What undos took back in those encounters, by (encounter id, seq), read from the whole log (every
    audience's undo is the same): one query, and one more only where an encounter has an undo."""
    if not system.replay.UNDO_KINDS:
        return {}
    events = Event.objects.filter(encounter_id__in=list(encounter_ids))
    undoing = set(events.filter(kind__in=system.replay.UNDO_KINDS).values_list("encounter_id", flat=True))
    if not undoing:
        return {}
    rows = (
        Event.objects.filter(encounter_id__in=undoing)
        .order_by("encounter_id", "seq")
        .values_list("encounter_id", "seq", "kind", "round_number", "phase", "payload")
    )
    found: dict[tuple[int, int], object] = {}
    light = (
        SimpleNamespace(encounter_id=e, seq=s, kind=k, round_number=r, phase=p, payload=payload)
        for e, s, k, r, p, payload in rows.iterator(chunk_size=2000)
    )
    for encounter_id, log in groupby(light, key=lambda event: event.encounter_id):
        found.update(((encounter_id, seq), undo) for seq, undo in taken_back(system, log).items())
    return found


def mark(events: Iterable, undone: dict[tuple[int, int], object]) -> None:
    """Mark each listed event an undo took back (`undone_in`'s answer) with that undo, as
    `event.undone_by` (in memory only: the stored event is never edited)."""
    for event in events:
        event.undone_by = undone.get((event.encounter_id, event.seq))


def reason(undo) -> str:
    """The reason an undo gave (its payload's `reason`, shown to everyone), or ""."""
    return str((undo.payload or {}).get("reason", "")) if undo is not None else ""
