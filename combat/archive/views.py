"""The archive's downloads and the print view: thin, the reading and writing are the package's."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.views.decorators.http import require_GET

from ..undo import mark, undone_in
from ..views import encounter_for
from .downloads import chosen_encounter, file_name
from .export import archive_bytes
from .filters import Filters
from .reading import reader_for
from .recap import recap_bytes
from .streaming import streamed


@login_required
@require_GET
def archive_json(request, saga_id):
    """The saga archive, format 2, streamed: everything for the storyguide, what they saw for a player."""
    reader = reader_for(request.user, saga_id)
    name = file_name(reader.saga, "archive.json")
    return streamed(request, archive_bytes(reader), "application/json", name)


@login_required
@require_GET
def recap_markdown(request, saga_id):
    """The session recap in Markdown, with the history's filters."""
    reader = reader_for(request.user, saga_id)
    encounters = set(reader.saga.encounters.values_list("pk", flat=True))
    filters = Filters.parse(request.GET, reader, encounters)
    return streamed(
        request,
        recap_bytes(reader, filters),
        "text/markdown; charset=utf-8",
        file_name(reader.saga, "recap.md", chosen_encounter(reader.saga.encounters.all(), filters)),
    )


@login_required
@require_GET
def encounter_record(request, encounter_id):
    """One encounter's whole log on a page made for paper."""
    encounter = encounter_for(request.user, encounter_id)
    reader = reader_for(request.user, encounter.saga_id)
    events = reader.events().filter(encounter=encounter).select_related("actor")
    events = [reader.named(reader.shown(e)) for e in events]
    mark(events, undone_in(reader.system, [encounter.pk]))
    rounds: list[dict] = []
    for event in events:
        if not rounds or rounds[-1]["number"] != event.round_number:
            rounds.append(
                {
                    "number": event.round_number,
                    "heading": reader.system.round_heading(event.round_number),
                    "events": [],
                }
            )
        rounds[-1]["events"].append(event)
    fought = [c for c in reader.combatants if c.encounter_id == encounter.pk]
    return render(
        request,
        "combat/record.html",
        {
            "saga": reader.saga,
            "encounter": encounter,
            "system": reader.system,
            "is_storyguide": reader.is_storyguide,
            "rounds": rounds,
            "headings": reader.system.level_headings,
            "standing": [
                (reader.name_of(c), c, [value for _, value in reader.system.levels(c.character)])
                for c in fought
            ],
        },
    )
