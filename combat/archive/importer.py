"""Import a saga archive (format 2): a service that rebuilds the saga with all its history, or writes nothing.

People are matched by username. The host's `manage.py import_saga` makes the ones missing (with no usable
password), since it rebuilds a saga for the host. The upload on the sagas page makes no account: the
uploader takes the file's storyguide's place everywhere, the file's other people are matched to accounts
already here, and anyone not matched is left out (no membership; their characters have no owner, their
log entries no actor; the saga returned names them in `unmatched`).
Every row gets a new id, characters, encounters, combatants and the rule system's rows included, so an archive
goes into an instance that has been used, and the same file imported twice makes two sagas: foreign keys are
given through the old → new mapping (`renumbering.Renumbering`), and so are the ids written inside JSON
(payloads, `pending`, `round_log`, a combatant's `state`, the system's rows' JSON fields), by the rule system
(`Archive.renumbered`) and, for its own event kinds, the core.
"""

from __future__ import annotations

import json

from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import IntegrityError, models, transaction

from campaign.models import Character, Membership, Saga
from campaign.services import made_here_name

from ..events import CORE_KINDS, CoreKind
from ..models import Combatant, Encounter, Event, SagaRecord
from .checks import Refused
from .export import archive_chunks
from .reading import whole_reader
from .reading_file import Plan, plan_of
from .renumbering import CHARACTER, COMBATANT, Renumbering
from .rows import is_person, label_of, row_fields

BATCH = 1000


def _people(plan: Plan, storyguide) -> dict:
    """Each username of the file as a person here: matched, or (no storyguide given: the host's command)
    made without a usable password, or (an upload) None; the file's storyguide is `storyguide` when one
    is given."""
    User = get_user_model()
    wanted = plan.usernames - ({plan.saga["storyguide"]} if storyguide is not None else set())
    people = {
        user.get_username(): user for user in User.objects.filter(**{f"{User.USERNAME_FIELD}__in": wanted})
    }
    for username in sorted(wanted - people.keys()):
        if storyguide is None:
            people[username] = User.objects.create_user(**{User.USERNAME_FIELD: username}, password=None)
        else:
            people[username] = None
    if storyguide is not None:
        people[plan.saga["storyguide"]] = storyguide
    return people


def _when(model, rows: list, times: list) -> None:
    """Give made rows the archive's times (made rows get now, whatever they are given)."""
    for row, moment in zip(rows, times, strict=True):
        row.created_at = moment
    model.objects.bulk_update(rows, ["created_at"], batch_size=BATCH)


ENCOUNTER = "combat.encounter"
CORE_NAMES = frozenset(kind.name for kind in CORE_KINDS)


def _write(plan: Plan, storyguide, made: str) -> Saga:
    """Every row of the plan made anew, in the order they name one another; the saga itself made now and
    named for what it is (`made`: "imported" or "copy"), every other row keeping the file's dates."""
    people = _people(plan, storyguide)
    person = lambda name: people[name] if name is not None else None  # noqa: E731
    guide = person(plan.saga["storyguide"])
    saga = Saga.objects.create(
        name=made_here_name(plan.saga["name"], guide, made),
        rule_system=plan.system.key,
        storyguide=guide,
        physical_dice=plan.saga["physical_dice"],
        npc_rolls=plan.saga["npc_rolls"],
        options=plan.saga["options"],
    )
    members = {}
    for member in plan.members:
        user = person(member["username"])
        if user is not None:
            members.setdefault(user.pk, Membership(saga=saga, user=user, role=member["role"]))
    Membership.objects.bulk_create(members.values())
    ids = Renumbering()
    _characters(plan, saga, person, ids)
    _encounters_and_combatants(plan, saga, ids, _seats(plan, saga, person))
    for label, rows in plan.system_rows.items():
        _system_rows(apps.get_model(label), rows, person, ids, plan.system)
    _json_anew(plan, ids)
    events = Event.objects.bulk_create(
        (
            Event(
                encounter_id=ids.id(ENCOUNTER, e["encounter_id"]),
                actor=person(e["actor"]),
                payload=_payload(plan.system, e["kind"], e["payload"], ids, people),
                **{k: e[k] for k in ("seq", "kind", "round_number", "phase", "storyguide_only")},
            )
            for e in plan.events
        ),
        batch_size=BATCH,
    )
    _when(Event, events, [e["created_at"] for e in plan.events])
    records = SagaRecord.objects.bulk_create(
        SagaRecord(
            saga=saga,
            kind=r["kind"],
            payload=_payload(plan.system, r["kind"], r["payload"], ids),
            actor=person(r["actor"]),
        )
        for r in plan.records
    )
    _when(SagaRecord, records, [r["created_at"] for r in plan.records])
    saga.unmatched = sorted(name for name, user in people.items() if user is None)
    return saga


def _characters(plan: Plan, saga: Saga, person, ids: Renumbering) -> None:
    """The characters, then each stamped copy's link to its template."""
    characters = Character.objects.bulk_create(
        Character(
            saga=saga, owner=person(c["owner"]), **{k: c[k] for k in ("name", "is_npc", "notes", "sheet")}
        )
        for c in plan.characters
    )
    ids.add(CHARACTER, [c["id"] for c in plan.characters], characters)
    _when(Character, characters, [c["created_at"] for c in plan.characters])
    copies = []
    for character, c in zip(characters, plan.characters, strict=True):
        if c["stamped_from"] is not None:
            character.stamped_from_id = ids.character(c["stamped_from"])
            copies.append(character)
    Character.objects.bulk_update(copies, ["stamped_from"], batch_size=BATCH)


def _seats(plan: Plan, saga: Saga, person) -> list[int]:
    """Each encounter's seat holder here: the file's, matched as every person is, when they are one of the
    new saga's storyguides; else its lead (one not matched here has no membership)."""
    rows = Membership.objects.filter(saga=saga, role=Membership.Role.STORYGUIDE)
    troupe = {*rows.values_list("user_id", flat=True), saga.storyguide_id}
    holders = []
    for e in plan.encounters:
        holder = person(e["seat_holder"])
        holders.append(holder.pk if holder is not None and holder.pk in troupe else saga.storyguide_id)
    return holders


def _encounters_and_combatants(plan: Plan, saga: Saga, ids: Renumbering, holders: list[int]) -> None:
    """The encounters (each seated as `holders` says) and their combatants, with their JSON as the file has it
    (`_json_anew` follows)."""
    kept = ("name", "status", "round_number", "phase", "version", "last_seq", "pending", "round_log")
    encounters = Encounter.objects.bulk_create(
        Encounter(saga=saga, seat_holder_id=holder, **{k: e[k] for k in kept})
        for e, holder in zip(plan.encounters, holders, strict=True)
    )
    ids.add(ENCOUNTER, [e["id"] for e in plan.encounters], encounters)
    _when(Encounter, encounters, [e["created_at"] for e in plan.encounters])
    combatants = Combatant.objects.bulk_create(
        (
            Combatant(
                encounter_id=ids.id(ENCOUNTER, c["encounter_id"]),
                character_id=ids.character(c["character_id"]),
                **{k: c[k] for k in ("side", "state", "order")},
            )
            for c in plan.combatants
        ),
        batch_size=BATCH,
    )
    ids.add(COMBATANT, [c["id"] for c in plan.combatants], combatants)


def _json_anew(plan: Plan, ids: Renumbering) -> None:
    """Encounters' `pending` and `round_log` and combatants' `state`, given anew once every row is made
    (a round log names weapons, a state may name another combatant)."""
    system = plan.system
    encounters = Encounter.objects.filter(pk__in=ids.made.get(ENCOUNTER, {}).values())
    for encounter in encounters:
        encounter.pending = system.archive.renumbered("pending", encounter.pending, ids)
        encounter.round_log = system.archive.renumbered("round_log", encounter.round_log, ids)
    Encounter.objects.bulk_update(encounters, ["pending", "round_log"], batch_size=BATCH)
    combatants = Combatant.objects.filter(pk__in=ids.made.get(COMBATANT, {}).values())
    for combatant in combatants:
        combatant.state = system.archive.renumbered("state", combatant.state, ids)
    Combatant.objects.bulk_update(combatants, ["state"], batch_size=BATCH)


def _payload(system, kind: str, payload: dict, ids: Renumbering, people: dict | None = None) -> dict:
    """An event's or record's payload with its ids given anew: the core's kinds name a `combatant`, and a
    combatant joining names its `character` (in its `levels` too, which the replay finds it by); a seat's
    hand-over names people, each as they are matched here (an upload's storyguide is the uploader)."""
    if kind == CoreKind.SEAT_HANDED_OVER and people is not None:
        here = {key: people.get(payload[key]) for key in ("by", "was", "to")}
        return {**payload, **{key: user.get_username() for key, user in here.items() if user is not None}}
    if kind in CORE_NAMES:
        return ids.walk(payload, combatant=frozenset({"combatant"}), character=frozenset({"character"}))
    return system.archive.renumbered(kind, payload, ids)


def _name(each) -> str:
    """The name a row is made with: a person's field takes the user, any other its column's value."""
    return each.name if is_person(each) else each.attname


def _system_rows(model, rows: list[dict], person, ids: Renumbering, system) -> None:
    """Make a model's rows with new ids, links and JSON given anew, then give back the times that making them
    stamped with now."""
    label = label_of(model)
    fields = row_fields(model)

    def value(each, row):
        """One field of a row as it is made here."""
        if is_person(each):
            return person(row[each.name])
        given = row[each.attname]
        if each.is_relation:
            return None if given is None else ids.id(label_of(each.related_model), given)
        if isinstance(each, models.JSONField):
            return system.archive.renumbered(f"{label}.{each.name}", given, ids)
        return given

    made = model.objects.bulk_create(
        (
            model(**{_name(each): value(each, row) for each in fields if not each.primary_key})
            for row in rows
        ),
        batch_size=BATCH,
    )
    pk = model._meta.pk.attname
    ids.add(label, [row[pk] for row in rows], made)
    stamped = [
        f.attname for f in fields if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)
    ]
    if made and stamped:
        for row, values in zip(made, rows, strict=True):
            for name in stamped:
                setattr(row, name, values[name])
        model.objects.bulk_update(made, stamped, batch_size=BATCH)


def import_saga(data, *, storyguide=None, made: str = "imported") -> Saga:
    """Check the whole archive (Refused with the field's path), then write it in one transaction as a new
    saga, every row with a new id (the same file twice makes two sagas), made today and named so ("…
    (imported 29 Nov)", `campaign.services.made_here_name`). The saga returned carries
    `unmatched`: the file's usernames with no account here (only when `storyguide` is given: an upload
    makes no account)."""
    plan = plan_of(data)
    with transaction.atomic():
        try:
            saga = _write(plan, storyguide, made)
        except IntegrityError as error:
            raise Refused("system_rows", f"rows that cannot stand together: {error}") from None
    return saga


def duplicate_saga(saga: Saga, storyguide) -> Saga:
    """A copy of the saga with all its history, its troupe and its seats, made the way an archive moves: its
    whole archive exported and imported again, as "… (copy 29 Nov)", its people matched as an upload matches
    them (`storyguide`, the lead who copies it, takes the lead's place)."""
    data = json.loads("".join(archive_chunks(whole_reader(saga))))
    return import_saga(data, storyguide=storyguide, made="copy")
