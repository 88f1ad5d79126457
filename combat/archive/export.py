"""The saga archive, format 2: the whole saga with all its history, streamed as JSON a piece at a time.

The storyguide's archive is everything and can be imported (`combat.archive.importer`); a player's is
what that player saw at the table (`docs/archive-format.md`). Rows are read with iterators, so the file
is never built whole in memory.
"""

from __future__ import annotations

from collections.abc import Iterator

from django.contrib.auth import get_user_model
from django.core.serializers.json import DjangoJSONEncoder

from campaign.models import Character, Membership

from ..models import SagaRecord
from .reading import Reader
from .rows import dumped
from .seats import seat_of

FORMAT = "covenant-saga-archive"
VERSION = 2
CHUNK = 2000

_encoder = DjangoJSONEncoder(ensure_ascii=False, separators=(",", ":"))


def _json(value) -> str:
    return _encoder.encode(value)


def _usernames(reader: Reader) -> dict[int, str]:
    """Every person the saga's rows may name: its members and its characters' players."""
    ids = set(Membership.objects.filter(saga=reader.saga).values_list("user_id", flat=True))
    ids |= {reader.saga.storyguide_id}
    ids |= set(
        Character.objects.filter(saga=reader.saga, owner__isnull=False).values_list("owner_id", flat=True)
    )
    return dict(get_user_model().objects.filter(pk__in=ids).values_list("pk", "username"))


def _saga(reader: Reader, usernames: dict[int, str]) -> dict:
    saga = reader.saga
    return {
        "name": saga.name,
        "rule_system": saga.rule_system,
        "physical_dice": saga.physical_dice,
        "npc_rolls": saga.npc_rolls,
        "options": saga.options,
        "storyguide": usernames.get(saga.storyguide_id),
        "storyguides": _storyguides(saga, usernames),
        "created_at": saga.created_at.isoformat(),
    }


def _storyguides(saga, usernames: dict[int, str]) -> list[str]:
    """The saga's troupe: its lead first, then its other storyguides as they joined."""
    rows = Membership.objects.filter(saga=saga, role=Membership.Role.STORYGUIDE).order_by("joined_at", "id")
    others = [usernames.get(pk) for pk in rows.values_list("user_id", flat=True) if pk != saga.storyguide_id]
    return [usernames.get(saga.storyguide_id), *others]


def _character(character: Character, reader: Reader, usernames: dict[int, str]) -> dict:
    """A character; a player's archive keeps only that player's own sheets (the others' are null), the
    storyguide's which template each stamped copy came from."""
    full = reader.is_storyguide or character.owner_id == reader.user_id
    data = {
        "id": character.pk,
        "name": character.name,
        "owner": usernames.get(character.owner_id) if character.owner_id else None,
        "is_npc": character.is_npc,
        "notes": character.notes if full else "",
        "sheet": character.sheet if full else None,
        "created_at": character.created_at.isoformat(),
    }
    if reader.is_storyguide:
        data["stamped_from"] = character.stamped_from_id
    return data


def _encounter_head(encounter, reader: Reader) -> dict:
    """An encounter without its events and who ran it; the step in waiting is its seat holder's only."""
    head = {
        "id": encounter.pk,
        "name": encounter.name,
        "status": encounter.status,
        "round_number": encounter.round_number,
        "phase": encounter.phase,
        "created_at": encounter.created_at.isoformat(),
    }
    if reader.holds(encounter.pk):
        head.update(version=encounter.version, pending=encounter.pending, round_log=encounter.round_log)
    head.update(seat_of(reader, encounter.pk))
    head["combatants"] = [
        {
            "id": c.pk,
            "character": c.character_id,
            "side": c.side,
            "state": _state(c, reader),
            "order": c.order,
        }
        for c in reader.combatants
        if c.encounter_id == encounter.pk
    ]
    return head


def _state(combatant, reader: Reader) -> dict:
    """A combatant's state: its encounter's seat holder's whole, anyone else's as the system lets players
    see an NPC's."""
    if reader.holds(combatant.encounter_id):
        return combatant.state
    npc = combatant.character.is_npc
    return reader.system.archive.players_state(combatant.state, npc, reader.saga.npc_rolls)


def _event(event, reader: Reader, usernames: dict[int, str]) -> dict:
    event = reader.shown(event)
    data = {"seq": event.seq} if event.whole else {}
    data.update(kind=event.kind, round=event.round_number, phase=event.phase, payload=event.payload)
    data["actor"] = usernames.get(event.actor_id) if event.actor_id else None
    if event.whole:
        data["storyguide_only"] = event.storyguide_only
    data["created_at"] = event.created_at.isoformat()
    return data


def _list(items: Iterator[str]) -> Iterator[str]:
    """A JSON array of already encoded items, one item a line."""
    yield "["
    for index, item in enumerate(items):
        yield ("\n" if index == 0 else ",\n") + item
    yield "]"


def _encounters(reader: Reader, usernames: dict[int, str]) -> Iterator[str]:
    """Each encounter with its events: one iterator over the encounters, one over the events, in chunks."""
    encounters = reader.saga.encounters.order_by("id")  # the events' order (Reader.events)
    events = reader.events().iterator(chunk_size=CHUNK)
    pending = next(events, None)
    yield "["
    for index, encounter in enumerate(encounters.iterator(chunk_size=CHUNK)):
        head = _json(_encounter_head(encounter, reader))
        yield ("\n" if index == 0 else ",\n") + head[:-1] + ',"events":['
        first = True
        while pending is not None and pending.encounter_id == encounter.pk:
            yield ("\n" if first else ",\n") + _json(_event(pending, reader, usernames))
            first = False
            pending = next(events, None)
        yield "]}"
    yield "]"


def _system_rows(reader: Reader, usernames: dict[int, str]) -> Iterator[str]:
    """The rule system's own rows by model, in the order they are made (the storyguide's archive only)."""
    rows = reader.system.archive.archive_rows(reader.saga) if reader.is_storyguide else {}
    yield "{"
    for index, (label, queryset) in enumerate(rows.items()):
        yield ("" if index == 0 else ",\n") + _json(label) + ":"
        yield from _list(
            _json(dumped(row, usernames)) for row in queryset.order_by("pk").iterator(chunk_size=CHUNK)
        )
    yield "}"


def archive_chunks(reader: Reader) -> Iterator[str]:
    """The archive as pieces of JSON text, in order."""
    usernames = _usernames(reader)
    yield "{" + f'"format":{_json(FORMAT)},"version":{VERSION},"audience":{_json(reader.audience)},\n'
    yield f'"saga":{_json(_saga(reader, usernames))},\n'
    members = Membership.objects.filter(saga=reader.saga).order_by("joined_at", "id")
    yield (
        '"members":'
        + _json([{"username": usernames.get(m.user_id), "role": m.role} for m in members])
        + ",\n"
    )
    characters = Character.objects.filter(saga=reader.saga).order_by("pk")
    yield '"characters":'
    yield from _list(_json(_character(c, reader, usernames)) for c in characters.iterator(chunk_size=CHUNK))
    yield ',\n"system_rows":'
    yield from _system_rows(reader, usernames)
    yield ',\n"records":'
    records = SagaRecord.objects.filter(saga=reader.saga).order_by("created_at", "id")
    yield from _list(
        _json(
            {
                "kind": r.kind,
                "payload": r.payload,
                "actor": usernames.get(r.actor_id) if r.actor_id else None,
                "created_at": r.created_at.isoformat(),
            }
        )
        for r in map(reader.shown_record, records.iterator(chunk_size=CHUNK))
    )
    yield ',\n"encounters":'
    yield from _encounters(reader, usernames)
    yield "}\n"


def archive_bytes(reader: Reader) -> Iterator[bytes]:
    """The archive as UTF-8, in pieces of about 64 KiB: what the streaming response sends."""
    buffer: list[str] = []
    size = 0
    for chunk in archive_chunks(reader):
        buffer.append(chunk)
        size += len(chunk)
        if size >= 65536:
            yield "".join(buffer).encode()
            buffer, size = [], 0
    if buffer:
        yield "".join(buffer).encode()
