"""The archive's downloads, the print view, the saga's charts, and a saga imported or duplicated: thin,
the reading and writing are the package's."""

from __future__ import annotations

from collections import Counter, defaultdict

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from campaign.access import is_a_storyguide, is_lead, require_lead
from campaign.forms import ArchiveImportForm
from campaign.sent_once import sent_once
from campaign.views import saga_list_page

from ..access import encounter_for
from ..services.evenings import regroup
from ..undo import mark, undone_in
from . import summaries
from .charts import TALLIES, bars, encounter_table, level_chart
from .checks import Refused
from .downloads import as_download, chosen_encounter, file_name
from .evening_recap import PLAYERS_VERSION, evening_lines, evening_title, players_reader, told, version_words
from .evenings import MOVES, Evening, evenings, moves
from .export import archive_bytes
from .filters import Filters
from .importer import duplicate_saga, import_saga
from .reading import reader_for
from .reading_file import parsed
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
                    "heading": reader.system.log.round_heading(event.round_number),
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
            "headings": reader.system.sheet.LEVEL_HEADINGS,
            "standing": [
                (reader.name_of(c), c, [value for _, value in reader.system.sheet.levels(c.character)])
                for c in fought
            ],
        },
    )


def _evening(request, saga_id):
    """The reader (the players' version for players, and for the saga's storyguides when asked:
    `?version=players`), the saga's evenings and the one asked for (`?evening=N`, the latest by default;
    404 for no such one)."""
    reader = reader_for(request.user, saga_id, sheets=False)
    grouped = evenings(reader.saga)
    if request.GET.get("version") == PLAYERS_VERSION and reader.troupe:
        reader = players_reader(reader)
    asked = request.GET.get("evening", "")
    if not grouped:
        return reader, grouped, Evening(1)
    if not asked:
        return reader, grouped, grouped[-1]
    if not asked.isdigit() or not 1 <= int(asked) <= len(grouped):
        raise Http404("No such evening.")
    return reader, grouped, grouped[int(asked) - 1]


@login_required
@require_GET
def evening_page(request, saga_id):
    """The evening's recap on a page made for paper, with the saga's other evenings; each storyguide's own
    version (the storyguide's of the steps whose seat they held or hold) and the players' one to send round,
    and the lead's controls to regroup (saga-level)."""
    reader, grouped, evening = _evening(request, saga_id)
    lead = is_lead(request.user, reader.saga)
    troupe = lead or is_a_storyguide(request.user, reader.saga)
    allowed = {  # where the lead can move each encounter, with the button's words
        pk: [(way, MOVES[way]) for way in ways] for pk, ways in (moves(grouped) if lead else {}).items()
    }
    return render(
        request,
        "combat/evening.html",
        {
            "saga": reader.saga,
            "title": evening_title(reader.saga, evening),
            "version": version_words(reader),
            "players_version": not reader.troupe,
            "version_query": "&version=players" if troupe and not reader.troupe else "",
            "is_storyguide": troupe,
            "may_regroup": lead,
            "evening": evening,
            "evenings": [
                {
                    "number": each.number,
                    "start": each.start,
                    "encounters": [(e, allowed.get(e.pk, ())) for e in each.encounters],
                }
                for each in grouped
            ],
            "told": [told(reader, encounter) for encounter in evening.encounters],
        },
    )


@login_required
@require_GET
def evening_markdown(request, saga_id):
    """The evening's recap in Markdown, a download."""
    reader, _, evening = _evening(request, saga_id)
    text = "\n".join(evening_lines(reader, evening)) + "\n"
    what = f"evening-{evening.number}{'-players' if not reader.troupe else ''}.md"
    name = file_name(reader.saga, what, day=timezone.localdate(evening.start) if evening.start else None)
    return as_download(HttpResponse(text, content_type="text/markdown; charset=utf-8"), name)


@login_required
@require_POST
def evening_regroup(request, saga_id):
    """The storyguide moves an encounter to the evening before or after; back to the recap."""
    refused = regroup(request.user, saga_id, request.POST.get("encounter"), request.POST.get("direction", ""))
    if refused:
        messages.error(request, refused)
    return redirect(reverse("saga_evening", args=[saga_id]) + f"?evening={request.POST.get('evening', '')}")


@login_required
@require_GET
def saga_charts(request, saga_id):
    """A saga's charts: each character's levels round by round across every encounter, and their numbers."""
    reader = reader_for(request.user, saga_id, sheets=False)
    character_of, names = reader.who_fought
    encounter_names = dict(reader.saga.encounters.values_list("pk", "name"))
    points: list[tuple[str, dict]] = []
    spans: list[tuple[str, list[dict]]] = []
    numbers: dict[str, Counter] = defaultdict(Counter)
    for encounter_id, story in summaries.saga_stories_kept(reader):
        rounds = []
        for round_number in story.rounds:
            if round_number:
                levels = story.levels[round_number]
                rounds.append({character_of[cid]: v for cid, v in levels.items() if cid in character_of})
                points.append((f"E{len(spans) + 1} R{round_number}", rounds[-1]))
        spans.append((encounter_names.get(encounter_id, ""), rounds))
        for cid, counted in story.tally.items():
            if cid in character_of:
                numbers[character_of[cid]].update(counted)
        for cid in story.fought & character_of.keys():
            numbers[character_of[cid]]["fought"] += 1
            numbers[character_of[cid]]["survived"] += cid in story.survivors
    # A combatant who left before the fight has no numbers: only those still at a table, or who fought.
    present = {str(c.character_id) for c in reader.combatants}
    fought = [(row, name) for row, name in names.items() if row in present or numbers[row]["fought"]]
    series = sorted(fought, key=lambda item: item[1].casefold())
    charts = []
    for track in reader.system.replay.chart_tracks():
        chart = level_chart(track, points, series, "saga")
        chart["table"] = encounter_table(track[0], track[2], spans, series)
        chart["desc"] += " (each encounter's last level and the worst it reached)"
        charts.append(chart)
    rows = [
        {
            "name": name,
            "values": {**{m: numbers[cid][m] for m in TALLIES}, "survived": numbers[cid]["survived"]},
            "fought": numbers[cid]["fought"],
        }
        for cid, name in series
    ]
    return render(
        request,
        "combat/saga_charts.html",
        {
            "saga": reader.saga,
            "level_charts": charts,
            "numbers": bars(rows),
            "rows": rows,
            "encounters": len(encounter_names),
        },
    )


@login_required
@require_POST
@sent_once
def saga_import(request):
    """A saga rebuilt from an uploaded archive, the uploader its storyguide; a refused file writes nothing."""
    form = ArchiveImportForm(request.POST, request.FILES)
    if form.is_valid():
        try:
            saga = import_saga(parsed(form.cleaned_data["archive"].read()), storyguide=request.user)
        except Refused as refusal:
            form.add_error("archive", f"Refused, nothing imported: {refusal}")
        else:
            messages.success(request, f"“{saga.name}” is imported with all its history.")
            if saga.unmatched:
                messages.info(
                    request,
                    "Not matched to anyone here, so left out (their characters have no owner): "
                    + ", ".join(saga.unmatched)
                    + ". Invite them, then give them their characters.",
                )
            return redirect("saga_detail", saga_id=saga.pk)
    return saga_list_page(request, import_form=form)


@login_required
@require_POST
@sent_once
def saga_duplicate(request, saga_id):
    """A copy of the saga with all its history and its troupe and seats, by the archive's export and import;
    the lead's only (saga-level)."""
    saga = require_lead(request.user, saga_id)
    copy = duplicate_saga(saga, request.user)
    messages.success(request, f"“{copy.name}” is a copy of “{saga.name}” with all its history.")
    return redirect("saga_detail", saga_id=copy.pk)
