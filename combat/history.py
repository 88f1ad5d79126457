"""The saga's history archive: encounters, rounds and events, read back, filtered, exported.

Players see the players' version: storyguide-only events are left out, and so are the events' sequence
numbers (theirs would skip the storyguide's entries and look like missing ones); an entry says where it
happened in its rule system's words instead. Their payloads are the live page's version too: the rule
system's `players_payload` (old events are never edited; they are read the players' way).
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import JsonResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from campaign.access import get_membership, is_storyguide

from . import systems
from .audience import PLAYERS, STORYGUIDE, as_players_see
from .inputs import is_digits
from .models import Event, SagaRecord


def _archive(request, saga_id):
    membership = get_membership(request.user, saga_id)
    saga = membership.saga
    audience = STORYGUIDE if is_storyguide(request.user, saga) else PLAYERS
    encounters = list(saga.encounters.order_by("created_at").prefetch_related("combatants__character"))
    events = (
        Event.objects.filter(encounter__saga=saga).select_related("actor").order_by("encounter_id", "seq")
    )
    if audience != STORYGUIDE:
        events = events.filter(storyguide_only=False)
    chosen = request.GET.get("encounter", "")
    if is_digits(chosen, 18):  # ASCII only: '²' and '٣' are no encounter
        events = events.filter(encounter_id=int(chosen))
    kind = request.GET.get("kind", "")
    if kind not in dict(systems.kind_choices(systems.of(saga))):
        kind = ""
    if kind:
        events = events.filter(kind=kind)
    events = list(events)
    if audience != STORYGUIDE:
        combatants = [c for encounter in encounters for c in encounter.combatants.all()]
        players = {str(c.pk) for c in combatants if not c.character.is_npc}
        own = {str(c.pk) for c in combatants if c.character.owner_id == request.user.pk}
        events = as_players_see(saga, events, players, own)
    return saga, audience, encounters, events, chosen, kind


def _records(saga, chosen: str, kind: str) -> list[SagaRecord]:
    """Rest, sleep and exertion recorded outside any encounter (everyone sees them)."""
    if chosen:
        return []
    records = SagaRecord.objects.filter(saga=saga).select_related("actor")
    if kind:
        records = records.filter(kind=kind)
    return list(records)


@login_required
@require_GET
def history_page(request, saga_id):
    saga, audience, encounters, events, chosen, kind = _archive(request, saga_id)
    system = systems.of(saga)
    by_encounter = {encounter.pk: {"encounter": encounter, "rounds": {}} for encounter in encounters}
    for event in events:
        entry = by_encounter.get(event.encounter_id)
        if entry is not None:
            entry["rounds"].setdefault(event.round_number, []).append(event)
    for entry in by_encounter.values():
        entry["rounds"] = [
            {"heading": system.round_heading(number), "events": round_events}
            for number, round_events in entry["rounds"].items()
        ]
    names = {
        str(combatant.pk): combatant.character.name
        for encounter in encounters
        for combatant in encounter.combatants.all()
    }
    return render(
        request,
        "combat/history.html",
        {
            "saga": saga,
            "audience": audience,
            "is_storyguide": audience == STORYGUIDE,
            "system": system,
            "archive": [entry for entry in by_encounter.values() if entry["rounds"] or not (chosen or kind)],
            "encounters": encounters,
            "encounter_choices": [(str(encounter.pk), encounter.name) for encounter in encounters],
            "kinds": systems.kind_choices(system),
            "chosen": chosen,
            "kind": kind,
            "names": names,
            "records": _records(saga, chosen, kind),
        },
    )


@login_required
@require_GET
def history_json(request, saga_id):
    saga, audience, encounters, events, chosen, kind = _archive(request, saga_id)
    by_encounter: dict[int, list] = {}
    for event in events:
        by_encounter.setdefault(event.encounter_id, []).append(
            {
                **({"seq": event.seq} if audience == STORYGUIDE else {}),
                "kind": event.kind,
                "round": event.round_number,
                "phase": event.phase,
                "payload": event.payload,
                "actor": event.actor.get_username() if event.actor else None,
                "created_at": event.created_at.isoformat(),
            }
        )
    return JsonResponse(
        {
            "saga": {"id": saga.pk, "name": saga.name, "rule_system": saga.rule_system},
            "audience": audience,
            "encounters": [
                {
                    "id": encounter.pk,
                    "name": encounter.name,
                    "status": encounter.status,
                    "rounds": encounter.round_number,
                    "combatants": [
                        {"id": c.pk, "name": c.character.name, "side": c.side}
                        for c in encounter.combatants.all()
                    ],
                    "events": by_encounter.get(encounter.pk, []),
                }
                for encounter in encounters
            ],
            "between_encounters": [
                {
                    "kind": record.kind,
                    "payload": record.payload,
                    "actor": record.actor.get_username() if record.actor else None,
                    "created_at": record.created_at.isoformat(),
                }
                for record in _records(saga, chosen, kind)
            ],
        },
        json_dumps_params={"indent": 1},
    )
