"""Reading an archive file (format 2) into a plan of rows, refusing anything that does not fit.

Nothing here writes: `importer.import_saga` checks the whole file with `plan_of` first, then writes
the plan in one transaction.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError

from campaign.models import Membership, NpcRolls

from .. import systems
from ..events import CoreKind, PayloadMismatch, check_payload
from ..models import Encounter
from . import checks
from .checks import Refused, at
from .export import FORMAT, VERSION
from .rows import is_person, label_of, row_fields


@dataclass
class Plan:
    """Everything the file says, checked: plain values ready to become rows."""

    system: systems.RuleSystem
    saga: dict
    usernames: set[str] = field(default_factory=set)
    members: list[dict] = field(default_factory=list)
    characters: list[dict] = field(default_factory=list)
    encounters: list[dict] = field(default_factory=list)
    combatants: list[dict] = field(default_factory=list)
    events: list[dict] = field(default_factory=list)
    records: list[dict] = field(default_factory=list)
    system_rows: dict[str, list[dict]] = field(default_factory=dict)
    ids: dict[str, set[int]] = field(default_factory=dict)
    troupe: set[str] = field(default_factory=set)  # the saga's storyguides' usernames, its lead among them


def parsed(raw: bytes | str) -> Any:
    """The file's JSON, or Refused at the file itself."""
    try:
        return json.loads(raw)
    except (ValueError, RecursionError) as error:
        raise Refused("(file)", f"is not JSON an archive can be read from ({type(error).__name__})") from None


def _username(value, path: str, plan: Plan, *, null: bool = True) -> str | None:
    if value is None and null:
        return None
    name_field = get_user_model()._meta.get_field(get_user_model().USERNAME_FIELD)
    try:
        name_field.clean(checks.text(value, path, empty=False), None)
    except ValidationError as error:
        raise Refused(path, "is not a username here: " + " ".join(error.messages)) from None
    plan.usernames.add(value)
    return value


def _new_id(value, path: str, plan: Plan, label: str) -> int:
    ids = plan.ids.setdefault(label, set())
    number = checks.whole(value, path, least=1)
    if number in ids:
        raise Refused(path, f"{number} is used twice")
    ids.add(number)
    return number


def _saga(data: Any, plan: Plan) -> None:
    fields = ("name", "rule_system", "physical_dice", "npc_rolls", "options", "storyguide", "created_at")
    saga = checks.obj(data, "saga", fields, ("storyguides",))
    plan.saga = {
        "name": checks.text(saga["name"], "saga.name", longest=120, empty=False),
        "physical_dice": checks.flag(saga["physical_dice"], "saga.physical_dice"),
        "npc_rolls": checks.choice(saga["npc_rolls"], "saga.npc_rolls", NpcRolls.values),
        "options": checks.mapping(saga["options"], "saga.options"),
        "storyguide": _username(saga["storyguide"], "saga.storyguide", plan, null=False),
        "created_at": checks.moment(saga["created_at"], "saga.created_at"),
        "storyguides": [
            _username(name, at("saga.storyguides", index), plan, null=False)
            for index, name in enumerate(checks.array(saga.get("storyguides", []), "saga.storyguides"))
        ],
    }


def _members(data: Any, plan: Plan) -> None:
    seen = set()
    for index, member in enumerate(checks.array(data, "members")):
        path = at("members", index)
        member = checks.obj(member, path, ("username", "role"))
        username = _username(member["username"], at(path, "username"), plan, null=False)
        if username in seen:
            raise Refused(at(path, "username"), f"{username} is a member twice")
        seen.add(username)
        role = checks.choice(member["role"], at(path, "role"), Membership.Role.values)
        plan.members.append({"username": username, "role": role})
    if plan.saga["storyguide"] not in seen:
        plan.members.insert(0, {"username": plan.saga["storyguide"], "role": Membership.Role.STORYGUIDE})
    troupe = {m["username"] for m in plan.members if m["role"] == Membership.Role.STORYGUIDE}
    for index, name in enumerate(plan.saga["storyguides"]):
        if name not in troupe | {plan.saga["storyguide"]}:
            raise Refused(at("saga.storyguides", index), f"{name} is no member of role storyguide")
    plan.troupe = troupe | {plan.saga["storyguide"]}


def _characters(data: Any, plan: Plan) -> None:
    for index, character in enumerate(checks.array(data, "characters")):
        path = at("characters", index)
        keys = ("id", "name", "owner", "is_npc", "notes", "sheet", "created_at")
        character = checks.obj(character, path, keys, ("stamped_from",))
        plan.characters.append(
            {
                "id": _new_id(character["id"], at(path, "id"), plan, "campaign.character"),
                "name": checks.text(character["name"], at(path, "name"), longest=80, empty=False),
                "owner": _username(character["owner"], at(path, "owner"), plan),
                "is_npc": checks.flag(character["is_npc"], at(path, "is_npc")),
                "notes": checks.text(character["notes"], at(path, "notes")),
                "sheet": checks.mapping(character["sheet"], at(path, "sheet")),
                "created_at": checks.moment(character["created_at"], at(path, "created_at")),
                "stamped_from": character.get("stamped_from"),
            }
        )
    for index, character in enumerate(plan.characters):
        if character["stamped_from"] is not None:
            template = checks.whole(
                character["stamped_from"], at(at("characters", index), "stamped_from"), least=1
            )
            if template not in plan.ids["campaign.character"] or template == character["id"]:
                raise Refused(
                    at(at("characters", index), "stamped_from"),
                    f"{template} is no other character of this archive",
                )


def _payload(kind_name: Any, payload: Any, path: str, plan: Plan) -> None:
    """A kind the saga's rule system (or the core) declares, with a payload of its declared type."""
    kind = systems.event_kind(checks.text(kind_name, at(path, "kind")), plan.system)
    if kind is None:
        raise Refused(at(path, "kind"), f"{kind_name} is not a kind {plan.system.label} writes")
    try:
        check_payload(kind, payload)
    except PayloadMismatch as mismatch:
        where, _, reason = str(mismatch).split(": ", 1)[1].partition(" ")
        raise Refused(f"{path}.{where}", reason) from None


def _events(data: Any, path: str, encounter_id: int, plan: Plan) -> None:
    for index, event in enumerate(checks.array(data, path)):
        here = at(path, index)
        keys = ("seq", "kind", "round", "phase", "payload", "actor", "storyguide_only", "created_at")
        event = checks.obj(event, here, keys)
        if checks.whole(event["seq"], at(here, "seq"), least=1) != index + 1:
            raise Refused(at(here, "seq"), f"should be {index + 1}: an encounter's log has no gaps")
        _payload(event["kind"], event["payload"], here, plan)
        if event["kind"] == CoreKind.SEAT_HANDED_OVER:  # the people it names are matched as the others
            for key in ("by", "was", "to"):
                _username(event["payload"][key], at(at(here, "payload"), key), plan, null=False)
        plan.events.append(
            {
                "encounter_id": encounter_id,
                "seq": event["seq"],
                "kind": event["kind"],
                "round_number": checks.whole(event["round"], at(here, "round")),
                "phase": checks.text(event["phase"], at(here, "phase"), longest=16),
                "payload": event["payload"],
                "actor": _username(event["actor"], at(here, "actor"), plan),
                "storyguide_only": checks.flag(event["storyguide_only"], at(here, "storyguide_only")),
                "created_at": checks.moment(event["created_at"], at(here, "created_at")),
            }
        )


def _combatants(data: Any, path: str, encounter_id: int, plan: Plan) -> None:
    characters = plan.ids.get("campaign.character", set())
    seen = set()
    for index, combatant in enumerate(checks.array(data, path)):
        here = at(path, index)
        combatant = checks.obj(combatant, here, ("id", "character", "side", "state", "order"))
        character = checks.whole(combatant["character"], at(here, "character"), least=1)
        if character not in characters:
            raise Refused(at(here, "character"), f"{character} is no character of this archive")
        if character in seen:
            raise Refused(at(here, "character"), f"{character} fights twice in one encounter")
        seen.add(character)
        plan.combatants.append(
            {
                "id": _new_id(combatant["id"], at(here, "id"), plan, "combat.combatant"),
                "encounter_id": encounter_id,
                "character_id": character,
                "side": checks.text(combatant["side"], at(here, "side"), longest=60),
                "state": checks.mapping(combatant["state"], at(here, "state")),
                "order": checks.whole(combatant["order"], at(here, "order")),
            }
        )


def _encounters(data: Any, plan: Plan) -> None:
    for index, encounter in enumerate(checks.array(data, "encounters")):
        path = at("encounters", index)
        keys = (
            "id",
            "name",
            "status",
            "round_number",
            "phase",
            "version",
            "pending",
            "round_log",
            "created_at",
        )
        optional = ("seat_holder", "hand_overs")
        encounter = checks.obj(encounter, path, (*keys, "combatants", "events"), optional)
        number = _new_id(encounter["id"], at(path, "id"), plan, "combat.encounter")
        plan.encounters.append(
            {
                "id": number,
                "name": checks.text(encounter["name"], at(path, "name"), longest=120, empty=False),
                "status": checks.choice(encounter["status"], at(path, "status"), Encounter.Status.values),
                "round_number": checks.whole(encounter["round_number"], at(path, "round_number")),
                "phase": checks.text(encounter["phase"], at(path, "phase"), longest=16),
                "version": checks.whole(encounter["version"], at(path, "version")),
                "pending": checks.mapping(encounter["pending"], at(path, "pending")),
                "round_log": checks.mapping(encounter["round_log"], at(path, "round_log")),
                "created_at": checks.moment(encounter["created_at"], at(path, "created_at")),
            }
        )
        _combatants(encounter["combatants"], at(path, "combatants"), number, plan)
        first = len(plan.events)
        _events(encounter["events"], at(path, "events"), number, plan)
        plan.encounters[-1]["last_seq"] = len(plan.events) - first  # gapless from 1 (`_events`)
        _named(plan.events[first:], at(path, "events"), plan)
        plan.encounters[-1]["seat_holder"] = _seat(encounter, path, plan.events[first:], plan)


def _seat(encounter: dict, path: str, events: list[dict], plan: Plan) -> str:
    """Who holds the encounter's seat: one of the saga's storyguides, the one its log last handed it to
    (a file from before troupe play names none: its lead, who ran every encounter)."""
    handed = [e["payload"]["to"] for e in events if e["kind"] == CoreKind.SEAT_HANDED_OVER]
    hand_overs = checks.array(encounter.get("hand_overs", []), at(path, "hand_overs"))
    if "hand_overs" in encounter and len(hand_overs) != len(handed):
        raise Refused(at(path, "hand_overs"), f"should be the log's {len(handed)} hand-overs of the seat")
    for index, given in enumerate(hand_overs):
        keys = ("round", "by", "was", "to", "reason")
        given = checks.obj(given, at(at(path, "hand_overs"), index), keys, ("seq",))
        if given["to"] != handed[index]:
            raise Refused(at(at(at(path, "hand_overs"), index), "to"), "is not who the log handed it to")
    if "seat_holder" not in encounter:
        return handed[-1] if handed else plan.saga["storyguide"]
    holder = _username(encounter["seat_holder"], at(path, "seat_holder"), plan, null=False)
    if holder not in plan.troupe:
        raise Refused(at(path, "seat_holder"), f"{holder} is not one of the saga's storyguides")
    if handed and holder != handed[-1]:
        raise Refused(at(path, "seat_holder"), f"the log hands the seat to {handed[-1]} last")
    return holder


def _named(events: list[dict], path: str, plan: Plan) -> None:
    """Every combatant an encounter's events name (`combatant` and the system's `combatant_keys`) entered
    that encounter's log (a `combatant_added` event): a file naming anyone else is refused there."""
    added = {e["payload"].get("combatant") for e in events if e["kind"] == CoreKind.COMBATANT_ADDED}
    keys = ("combatant", *sorted(plan.system.archive.COMBATANT_KEYS))
    for index, event in enumerate(events):
        for key in keys:
            value = event["payload"].get(key)
            if isinstance(value, str) and value not in added:
                raise Refused(
                    at(at(at(path, index), "payload"), key),
                    f"{value} is no combatant of this encounter (its log never added one)",
                )


def _records(data: Any, plan: Plan) -> None:
    for index, record in enumerate(checks.array(data, "records")):
        path = at("records", index)
        record = checks.obj(record, path, ("kind", "payload", "actor", "created_at"))
        _payload(record["kind"], record["payload"], path, plan)
        plan.records.append(
            {
                "kind": record["kind"],
                "payload": record["payload"],
                "actor": _username(record["actor"], at(path, "actor"), plan),
                "created_at": checks.moment(record["created_at"], at(path, "created_at")),
            }
        )


def _row(model, data: Any, path: str, plan: Plan) -> dict:
    """One of the system's rows: every field present and valid, each link to a row of this archive."""
    fields = row_fields(model)
    data = checks.obj(data, path, tuple(f.name for f in fields))
    values: dict = {}
    for each in fields:
        here, value = at(path, each.name), data[each.name]
        if each.primary_key:
            values[each.attname] = _new_id(value, here, plan, label_of(model))
        elif is_person(each):
            values[each.name] = _username(value, here, plan, null=each.null)
        elif each.is_relation:
            values[each.attname] = _link(each, value, here, plan)
        else:
            try:
                values[each.attname] = each.clean(value, None)
            except (ValidationError, TypeError, ValueError) as error:
                reason = " ".join(error.messages) if isinstance(error, ValidationError) else str(error)
                raise Refused(here, reason) from None
    return values


def _link(each, value: Any, path: str, plan: Plan) -> int | None:
    if value is None and each.null:
        return None
    target = label_of(each.related_model)
    number = checks.whole(value, path, least=1)
    if number not in plan.ids.get(target, set()):
        raise Refused(path, f"{number} is no {each.related_model._meta.verbose_name} of this archive")
    return number


def _system_rows(data: Any, plan: Plan) -> None:
    """The rows of the models the saga's rule system names, in its order; no other model is written."""
    rows = checks.mapping(data, "system_rows")
    allowed = list(plan.system.archive.archive_rows(None).keys())
    unknown = sorted(set(rows) - set(allowed))
    if unknown:
        raise Refused(
            at("system_rows", unknown[0]), f"is not a model {plan.system.label} keeps in an archive"
        )
    for label in allowed:
        model = apps.get_model(label)
        path = at("system_rows", label)
        plan.system_rows[label] = [
            _row(model, row, at(path, index), plan)
            for index, row in enumerate(checks.array(rows.get(label, []), path))
        ]


def plan_of(data: Any) -> Plan:
    """The whole file checked, in the order its parts depend on one another; Refused at the first fault."""
    top = (
        "format",
        "version",
        "audience",
        "saga",
        "members",
        "characters",
        "system_rows",
        "records",
        "encounters",
    )
    data = checks.obj(data, "", top)
    checks.choice(data["format"], "format", (FORMAT,))
    checks.choice(data["version"], "version", (VERSION,))
    if data["audience"] != "storyguide":
        raise Refused(
            "audience",
            "only the storyguide's archive can be imported (a player's leaves out what was hidden)",
        )
    saga = checks.mapping(data["saga"], "saga")
    try:
        system = systems.get(checks.text(saga.get("rule_system"), "saga.rule_system"))
    except systems.UnknownSystem:
        raise Refused("saga.rule_system", f"{saga.get('rule_system')} is not installed here") from None
    plan = Plan(system=system, saga={})
    _saga(saga, plan)
    _members(data["members"], plan)
    _characters(data["characters"], plan)
    _encounters(data["encounters"], plan)
    _system_rows(data["system_rows"], plan)
    _records(data["records"], plan)
    return plan
