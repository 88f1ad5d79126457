"""Import a saga archive (format 2): a service that rebuilds the saga with all its history, or writes nothing.

People are matched by username. The host's `manage.py import_saga` makes the ones missing (with no usable
password), since it rebuilds a saga on a fresh instance. The upload on the sagas page makes no account: the
uploader takes the file's storyguide's place everywhere, the file's other people are matched to accounts
already here, and anyone not matched is left out (no membership; their characters have no owner, their
log entries no actor; the saga returned names them in `unmatched`).
Characters, encounters, combatants and the rule system's rows keep the archive's ids, because payloads and
the system's rows name them: an id already taken here is refused, so an archive goes into a fresh instance.
"""

from __future__ import annotations

from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management.color import no_style
from django.db import IntegrityError, connection, transaction

from campaign.models import Character, Membership, Saga

from .. import kept
from ..models import Combatant, Encounter, Event, SagaRecord
from .checks import Refused
from .reading_file import Plan, plan_of
from .rows import is_person, row_fields

BATCH = 1000


def _free(plan: Plan) -> None:
    """Refuse when any kept id is taken on this instance."""
    models = {"campaign.character": Character, "combat.encounter": Encounter, "combat.combatant": Combatant}
    for label in (*models, *plan.system_rows):
        model = models.get(label) or apps.get_model(label)
        taken = (
            model.objects.filter(pk__in=plan.ids.get(label, set()))
            .order_by("pk")
            .values_list("pk", flat=True)[:1]
        )
        if taken:
            raise Refused(
                label, f"id {taken[0]} is taken on this instance: import the archive into a fresh one"
            )


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


def _write(plan: Plan, storyguide) -> Saga:
    people = _people(plan, storyguide)
    person = lambda name: people[name] if name is not None else None  # noqa: E731
    saga = Saga.objects.create(
        name=plan.saga["name"],
        rule_system=plan.system.key,
        storyguide=person(plan.saga["storyguide"]),
        physical_dice=plan.saga["physical_dice"],
        npc_rolls=plan.saga["npc_rolls"],
        options=plan.saga["options"],
    )
    Saga.objects.filter(pk=saga.pk).update(created_at=plan.saga["created_at"])
    members = {}
    for member in plan.members:
        user = person(member["username"])
        if user is not None:
            members.setdefault(user.pk, Membership(saga=saga, user=user, role=member["role"]))
    Membership.objects.bulk_create(members.values())
    characters = Character.objects.bulk_create(
        Character(
            saga=saga,
            owner=person(c["owner"]),
            **{k: c[k] for k in ("id", "name", "is_npc", "notes", "sheet")},
        )
        for c in plan.characters
    )
    _when(Character, characters, [c["created_at"] for c in plan.characters])
    encounters = Encounter.objects.bulk_create(
        Encounter(saga=saga, **{k: v for k, v in e.items() if k != "created_at"}) for e in plan.encounters
    )
    _when(Encounter, encounters, [e["created_at"] for e in plan.encounters])
    Combatant.objects.bulk_create((Combatant(**c) for c in plan.combatants), batch_size=BATCH)
    for label, rows in plan.system_rows.items():
        _system_rows(apps.get_model(label), rows, person)
    events = Event.objects.bulk_create(
        (
            Event(
                actor=person(e["actor"]), **{k: v for k, v in e.items() if k not in ("actor", "created_at")}
            )
            for e in plan.events
        ),
        batch_size=BATCH,
    )
    _when(Event, events, [e["created_at"] for e in plan.events])
    records = SagaRecord.objects.bulk_create(
        SagaRecord(saga=saga, kind=r["kind"], payload=r["payload"], actor=person(r["actor"]))
        for r in plan.records
    )
    _when(SagaRecord, records, [r["created_at"] for r in plan.records])
    saga.unmatched = sorted(name for name, user in people.items() if user is None)
    return saga


def _system_rows(model, rows: list[dict], person) -> None:
    """Make a model's rows, then give back the times that making them stamped with now."""
    people = {each.name for each in row_fields(model) if is_person(each)}
    made = model.objects.bulk_create(
        (model(**{k: person(v) if k in people else v for k, v in row.items()}) for row in rows),
        batch_size=BATCH,
    )
    stamped = [
        f.attname
        for f in row_fields(model)
        if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)
    ]
    if made and stamped:
        for row, values in zip(made, rows, strict=True):
            for name in stamped:
                setattr(row, name, values[name])
        model.objects.bulk_update(made, stamped, batch_size=BATCH)


def _reset_sequences(plan: Plan) -> None:
    """After rows made with their own ids, the next new row must get a fresh one (PostgreSQL's sequences)."""
    models = [Character, Encounter, Combatant, *(apps.get_model(label) for label in plan.system_rows)]
    with connection.cursor() as cursor:
        for statement in connection.ops.sequence_reset_sql(no_style(), models):
            cursor.execute(statement)


def import_saga(data, *, storyguide=None) -> Saga:
    """Check the whole archive (Refused with the field's path), then write it in one transaction. The saga
    returned carries `unmatched`: the file's usernames with no account here (only when `storyguide` is
    given: an upload makes no account)."""
    plan = plan_of(data)
    with transaction.atomic():
        _free(plan)
        try:
            saga = _write(plan, storyguide)
        except IntegrityError as error:
            raise Refused("system_rows", f"rows that cannot stand together: {error}") from None
        _reset_sequences(plan)
    kept.forget(*saga.encounters.values_list("pk", flat=True))  # ids this process may keep of others
    return saga
