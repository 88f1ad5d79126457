"""Step-by-step replay of an encounter: its event log up to a step, folded into the table as it stood
then by its rule system (`Replay.state_at`), with the step's own result highlighted.

Nothing but the log is read: no snapshot is stored. Each reader replays what they saw: a player folds
the players' version of the log (no storyguide-only entries, each payload as `players_payload` gives it
at the saga's NPC-roll setting), so the replay holds no number the live frames kept behind the screen.
Each step is an event's sequence number, `?seq=N`, the same for everyone; a player asked for a
storyguide-only entry gets the step before it.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from .. import systems
from ..access import encounter_for, holds_seat
from ..audience import PLAYERS, STORYGUIDE, as_players_see
from ..events import CoreKind
from ..inputs import is_digits
from ..models import Encounter, Event
from ..names import Roster
from ..played import Played
from ..seated import Seated
from ..undo import mark, undone_in


@dataclass(frozen=True)
class Step:
    """Where the replay stands: the step's event, its place among the reader's steps, and its links."""

    event: Event | None
    index: int  # from 1; 0 before the first step
    count: int
    seqs: list[int]
    note: str = ""

    @property
    def seq(self) -> int:
        return self.event.seq if self.event else 0

    def seq_at(self, index: int) -> int | None:
        return self.seqs[index - 1] if 1 <= index <= self.count else None


def reader_events(encounter: Encounter, user) -> tuple[str, list[Event]]:
    """The reader's audience and the encounter's log as that reader sees it, oldest first, each event marked
    `whole` when the reader reads it in the storyguide's version: every step for whoever holds its seat now
    (`holds_seat`), the steps written while they held it for a storyguide who handed it over, none for
    anyone else (combat.seated), who reads the players' version of the rest."""
    audience = STORYGUIDE if holds_seat(user, encounter) else PLAYERS
    events = list(Event.objects.filter(encounter=encounter).select_related("actor").order_by("seq"))
    if audience == STORYGUIDE:
        for event in events:
            event.whole = True
        return audience, events
    viewer = user.get_username()
    seated = Seated.of(events, {encounter.pk: ""})  # not the holder now: only the steps they held
    for event in events:
        event.whole = seated.whole(encounter.pk, event.seq, viewer)
    shown = [event for event in events if event.whole or not event.storyguide_only]
    rows = list(encounter.combatants.values_list("pk", "character_id", "character__is_npc"))
    players = {str(pk) for pk, _, npc in rows if not npc}
    characters = {str(character) for _, character, npc in rows if not npc}
    played = Played.read(encounter.saga_id, shown, {str(pk): character for pk, character, _ in rows})
    own = lambda event: played.own(encounter.pk, event.seq, viewer)  # noqa: E731
    theirs = iter(as_players_see(encounter.saga, [e for e in shown if not e.whole], players, own, characters))
    return audience, [event if event.whole else next(theirs) for event in shown]


def step_of(events: list[Event], asked: str | None) -> Step:
    """The step asked for (`?seq=N`): the last of the reader's events at or before N; the first step when
    nothing is asked; a value that is not a step is answered with the first step and a note."""
    seqs = [event.seq for event in events]
    if not events:
        return Step(None, 0, 0, seqs)
    asked = (asked or "").strip()
    if not asked:
        return Step(events[0], 1, len(events), seqs)
    if not is_digits(asked, 9):
        return Step(
            events[0], 1, len(events), seqs, f"“{asked[:20]}” is not a step number; this is the first."
        )
    wanted = int(asked)
    index = 0
    for position, seq in enumerate(seqs, start=1):
        if seq > wanted:
            break
        index = position
    if index == 0:
        return Step(events[0], 1, len(events), seqs, f"The log starts at step {seqs[0]}.")
    note = f"The log ends at step {seqs[-1]}; this is the latest." if wanted > seqs[-1] else ""
    return Step(events[index - 1], index, len(events), seqs, note)


def links(encounter: Encounter, step: Step) -> list[dict]:
    """First, previous, next and latest: each a step's URL, or none where it would go nowhere."""
    url = reverse("encounter_replay", args=[encounter.pk])
    targets = [
        ("First", 1, "replay-first"),
        ("Previous", step.index - 1, "replay-previous"),
        ("Next", step.index + 1, "replay-next"),
        ("Latest", step.count, "replay-latest"),
    ]
    shown = []
    for label, index, testid in targets:
        seq = step.seq_at(index)
        here = index == step.index
        shown.append(
            {"label": label, "url": "" if seq is None or here else f"{url}?seq={seq}", "testid": testid}
        )
    return shown


def kind_label(event: Event) -> str:
    """A step's short line among its round's: its kind's label (and its number, for a step read whole)."""
    kind = systems.event_kind(event.kind)
    label = kind.label if kind else event.kind
    return f"{label} #{event.seq}" if getattr(event, "whole", False) else label


@login_required
@require_GET
def replay_page(request, encounter_id):
    """One step of the encounter's replay: the table as it stood after that event, the step highlighted
    among its round's events, next, previous and a scrubber."""
    encounter = encounter_for(request.user, encounter_id)
    system = systems.of(encounter.saga)
    audience, events = reader_events(encounter, request.user)
    step = step_of(events, request.GET.get("seq"))
    mark(events, undone_in(system, [encounter.pk]))
    table = system.replay.state_at(events[: step.index])
    same_round = [e for e in events if step.event and e.round_number == step.event.round_number]
    roster = Roster.of(events)
    round_lines = [
        {
            "event": event,
            "names": roster.at(encounter.pk, event.seq),
            "current": event.seq == step.seq,
            "when": "before" if event.seq < step.seq else "after",
            "label": kind_label(event),
        }
        for event in same_round
    ]
    context = {
        "saga": encounter.saga,
        "encounter": encounter,
        "system": system,
        "is_storyguide": getattr(step.event, "whole", audience == STORYGUIDE),
        "step": step,
        "links": links(encounter, step),
        "round_lines": round_lines,
        "round_heading": system.log.round_heading(step.event.round_number) if step.event else "",
        "running": encounter.status == Encounter.Status.RUNNING,
        "first_seq": step.seqs[0] if step.seqs else 0,
        "last_seq": step.seqs[-1] if step.seqs else 0,
        **system.replay.replay_context(table),
    }
    return render(request, "combat/replay.html", context)


@login_required
@require_GET
def replay_latest(request, encounter_id):
    """The running encounter's newest step for this reader: the replay polls it to offer the latest."""
    encounter = encounter_for(request.user, encounter_id)
    events = Event.objects.filter(encounter=encounter)
    if not holds_seat(request.user, encounter):
        handed = events.filter(kind=CoreKind.SEAT_HANDED_OVER).order_by("seq")
        held = Seated.of(handed, {encounter.pk: ""}).whole_steps(request.user.get_username())
        shown = Q(storyguide_only=False)
        events = events.filter(shown | held if held is not None else shown)
    newest = events.order_by("-seq").values_list("seq", flat=True).first() or 0
    return render(
        request,
        "combat/_replay_latest.html",
        {
            "encounter": encounter,
            "last_seq": newest,
            "running": encounter.status == Encounter.Status.RUNNING,
        },
    )
