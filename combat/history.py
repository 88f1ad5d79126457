"""The saga's history archive: encounters, rounds and events, read back, filtered, paged, exported.

Players see the players' version: storyguide-only events are left out, and so are the events' sequence
numbers (theirs would skip the storyguide's entries and look like missing ones); an entry says where it
happened in its rule system's words instead. Their payloads are the live page's version too: the rule
system's `players_payload` (old events are never edited; they are read the players' way).

`history.json` is the first export, a record kept as it always was; the re-importable archive (format 2)
and the Markdown recap are `combat.archive`'s.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import JsonResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from . import sentences, systems
from .archive.downloads import as_download, chosen_encounter, file_name
from .archive.filters import Filters
from .archive.paging import page_of, pager
from .archive.reading import Reader, reader_for
from .archive.seats import seat_of
from .models import SagaRecord
from .undo import mark, reason, undone_in


def _encounters(reader: Reader) -> list:
    """The saga's encounters, oldest first."""
    return list(reader.saga.encounters.order_by("created_at", "id"))


def _records(reader: Reader, filters: Filters) -> list[SagaRecord]:
    """Rest, sleep and exertion recorded outside any encounter (everyone sees them, in their version)."""
    records = filters.records(SagaRecord.objects.filter(saga=reader.saga).select_related("actor"))
    return [reader.shown_record(record) for record in records]


def _rounds(reader: Reader, encounters: list, events: list) -> list[dict]:
    """A page's events under their encounters and rounds, in the archive's order."""
    by_id = {encounter.pk: encounter for encounter in encounters}
    archive: list[dict] = []
    for event in events:
        if not archive or archive[-1]["encounter"].pk != event.encounter_id:
            archive.append({"encounter": by_id[event.encounter_id], "rounds": []})
        rounds = archive[-1]["rounds"]
        if not rounds or rounds[-1]["number"] != event.round_number:
            rounds.append(
                {
                    "number": event.round_number,
                    "heading": reader.system.log.round_heading(event.round_number),
                    "events": [],
                }
            )
        rounds[-1]["events"].append(event)
    return archive


def _character_choices(reader: Reader) -> list[tuple[str, str]]:
    """Every character who fought in the saga, by the name the log last gave them."""
    _, names = reader.who_fought
    return sorted(names.items(), key=lambda item: (item[1].casefold(), item[0]))


@login_required
@require_GET
def history_page(request, saga_id):
    reader = reader_for(request.user, saga_id, sheets=False)
    encounters = _encounters(reader)
    filters = Filters.parse(request.GET, reader, {encounter.pk for encounter in encounters})
    page = page_of(filters.events(reader.events().select_related("actor"), reader), request.GET.get("page"))
    events = [reader.named(reader.shown(event)) for event in page.entries]
    mark(events, undone_in(reader.system, {event.encounter_id for event in events}))
    return render(
        request,
        "combat/history.html",
        {
            "saga": reader.saga,
            "audience": reader.audience,
            "is_storyguide": reader.is_storyguide,
            "system": reader.system,
            "archive": _rounds(reader, encounters, events),
            "encounter_choices": [(str(encounter.pk), encounter.name) for encounter in encounters],
            "character_choices": _character_choices(reader),
            "kinds": systems.kind_choices(reader.system),
            "filters": filters,
            "chosen": filters.encounter,
            "kind": filters.kind,
            "page": page,
            "pager": pager(page, filters),
            "records": _records(reader, filters) if page.number == 1 else [],
            "recap_query": filters.query(),
        },
    )


def undone_entry(undo, is_storyguide: bool) -> dict:
    """What `history.json` says of an entry an undo took back: the undo's reason (and its seq, for the
    storyguide, who reads the seqs)."""
    return {"reason": reason(undo), **({"by": undo.seq} if is_storyguide else {})}


def said(reader: Reader, event) -> str:
    """An entry in words, as its reader's page says it (`combat.sentences`: "Sir Boris, Initiative: stress
    die 8 +12 = 20"), from the payload the reader sees (the storyguide's words for a step read whole)."""
    return sentences.sentence(reader.system, event.kind, event.payload, event.names, storyguide=event.whole)


@login_required
@require_GET
def history_json(request, saga_id):
    reader = reader_for(request.user, saga_id)
    encounters = _encounters(reader)
    filters = Filters.parse(request.GET, reader, {encounter.pk for encounter in encounters})
    by_encounter: dict[int, list] = {}
    undone = undone_in(reader.system, reader.encounter_ids)
    for event in filters.events(reader.events().select_related("actor"), reader):
        event = reader.named(reader.shown(event))
        undo = undone.get((event.encounter_id, event.seq))
        by_encounter.setdefault(event.encounter_id, []).append(
            {
                **({"seq": event.seq} if event.whole else {}),
                "kind": event.kind,
                "round": event.round_number,
                "phase": event.phase,
                "payload": event.payload,
                "said": said(reader, event),
                "actor": event.actor.get_username() if event.actor else None,
                "created_at": event.created_at.isoformat(),
                **({"undone": undone_entry(undo, event.whole)} if undo else {}),
            }
        )
    response = JsonResponse(
        {
            "saga": {"id": reader.saga.pk, "name": reader.saga.name, "rule_system": reader.saga.rule_system},
            "audience": reader.audience,
            "encounters": [
                {
                    "id": encounter.pk,
                    "name": encounter.name,
                    "status": encounter.status,
                    "rounds": encounter.round_number,
                    **seat_of(reader, encounter.pk),
                    "combatants": [
                        {"id": int(cid), "name": reader.roster.at(encounter.pk)[cid], "side": joined.side}
                        for cid, joined in reader.roster.joined.get(encounter.pk, {}).items()
                    ],
                    "events": by_encounter.get(encounter.pk, []),
                }
                for encounter in encounters
            ],
            "between_encounters": [
                {
                    "kind": record.kind,
                    "payload": record.payload,
                    "said": sentences.sentence(
                        reader.system, record.kind, record.payload, {}, storyguide=reader.whole(record)
                    ),
                    "actor": record.actor.get_username() if record.actor else None,
                    "created_at": record.created_at.isoformat(),
                }
                for record in _records(reader, filters)
            ],
        },
        json_dumps_params={"indent": 1},
    )
    name = file_name(reader.saga, "history.json", chosen_encounter(encounters, filters))
    return as_download(response, name)
