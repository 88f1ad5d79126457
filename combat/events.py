"""Event kinds: each rule system declares the kinds it writes, each with a payload type; the core
declares its own few. `check_payload` refuses a payload that does not match its kind's type.

A payload type is a `TypedDict`: required and optional keys, each with a plain JSON type
(`int`, `str`, `bool`, `float`, `None`, `list[...]`, `dict[str, ...]`, another `TypedDict`, a union
of those, or `Any` where the shape is the rules engine's own record).
"""

from __future__ import annotations

import functools
import types
import typing
from dataclasses import dataclass
from typing import Any, NotRequired, TypedDict

from django.db import models


class PayloadMismatch(TypeError):
    """A payload that does not match its kind's declared type: a programming error, never a user's."""


@dataclass(frozen=True)
class EventKind:
    """One kind of log entry: its stored name (at most 24 characters), its label in the history's
    filter, its payload type, and the template of its line in the log."""

    name: str
    label: str
    payload: type
    template: str

    def __post_init__(self) -> None:
        if len(self.name) > 24:
            raise ValueError(f"event kind {self.name!r} is longer than 24 characters")


class CoreKind(models.TextChoices):
    """The kinds every encounter writes, whatever its rule system; and the saga records the core writes
    itself, through combat.receivers: a storyguide made a password link (campaign.resets, the link itself
    never stored), a character handed over to another player (campaign.services.hand_over, which an open
    encounter the character fights in logs as well)."""

    ENCOUNTER_CREATED = "encounter_created", "Encounter created"
    COMBATANT_ADDED = "combatant_added", "Combatant added"
    COMBATANT_REMOVED = "combatant_removed", "Combatant removed"
    COMBATANT_RENAMED = "combatant_renamed", "Combatant renamed"
    ENCOUNTER_ENDED = "encounter_ended", "Encounter ended"
    RESET_LINK_MADE = "reset_link_made", "Password link made"
    HANDED_OVER = "handed_over", "Character handed over"


class EncounterCreated(TypedDict):
    name: str


class CombatantAdded(TypedDict):
    combatant: str
    name: str
    side: str
    npc: bool
    character: NotRequired[int]  # the character's id (the record's statistics follow it once the row is gone)
    player: NotRequired[str]  # a player character's player as it joined: a username, "" for nobody yet
    levels: NotRequired[dict[str, str | int | None]]  # the rule system's `joining_levels`, for the replay


class CombatantRemoved(TypedDict):
    combatant: str
    name: str


class CombatantRenamed(TypedDict):
    combatant: str
    name: str
    was: str


class EncounterEnded(TypedDict):
    rounds: int


class HandedOver(TypedDict):
    """Who plays a player character from here on (combat.played): in the saga's records, and in the log of
    each open encounter it fights in, with its combatant there."""

    character: int
    name: str
    player: str  # the username who plays it from now on; "" for nobody yet (a player who will join)
    was: str  # who played it until now, the same way
    combatant: NotRequired[str]


class ResetLinkMade(TypedDict):
    player: str  # the username whose one-time password link the storyguide (the record's actor) made


def _core(kind: CoreKind, payload: type) -> EventKind:
    return EventKind(kind.value, kind.label, payload, f"combat/events/{kind.value}.html")


CORE_KINDS: tuple[EventKind, ...] = (
    _core(CoreKind.ENCOUNTER_CREATED, EncounterCreated),
    _core(CoreKind.COMBATANT_ADDED, CombatantAdded),
    _core(CoreKind.COMBATANT_REMOVED, CombatantRemoved),
    _core(CoreKind.COMBATANT_RENAMED, CombatantRenamed),
    _core(CoreKind.ENCOUNTER_ENDED, EncounterEnded),
    _core(CoreKind.RESET_LINK_MADE, ResetLinkMade),
    _core(CoreKind.HANDED_OVER, HandedOver),
)


CORE_FIELDS: dict[str, frozenset[str]] = {
    kind.name: frozenset(typing.get_type_hints(kind.payload)) for kind in CORE_KINDS
}


def core_fields(kind: str, payload: dict) -> dict:
    """Only what the core itself writes of a payload: a core kind's declared fields, nothing of a system's
    kind. What players see of a log whose system does not say (`combat.systems.Log.players_payload`)."""
    fields = CORE_FIELDS.get(kind, frozenset())
    return {key: value for key, value in payload.items() if key in fields}


def check_payload(kind: EventKind, payload: dict) -> None:
    """Raise PayloadMismatch unless `payload` has the shape of `kind.payload`."""
    problem = _mismatch(kind.payload, payload, "payload")
    if problem:
        raise PayloadMismatch(f"{kind.name}: {problem}")


def _mismatch(expected: Any, value: Any, where: str) -> str | None:
    """What is wrong with `value` as an `expected`, or None."""
    if expected is Any:
        return None
    if expected is None or expected is type(None):
        return None if value is None else f"{where} should be null"
    if typing.is_typeddict(expected):
        return _typeddict_mismatch(expected, value, where)
    origin = typing.get_origin(expected)
    if origin in (typing.Union, types.UnionType):
        options = typing.get_args(expected)
        if any(_mismatch(option, value, where) is None for option in options):
            return None
        return f"{where} should be one of {', '.join(_name(option) for option in options)}"
    if origin is list:
        if not isinstance(value, list):
            return f"{where} should be a list"
        (item,) = typing.get_args(expected) or (Any,)
        return next((p for i, v in enumerate(value) if (p := _mismatch(item, v, f"{where}[{i}]"))), None)
    if origin is dict:
        if not isinstance(value, dict):
            return f"{where} should be an object"
        _, item = typing.get_args(expected) or (str, Any)
        if any(not isinstance(key, str) for key in value):
            return f"{where} should have string keys"
        return next((p for k, v in value.items() if (p := _mismatch(item, v, f"{where}.{k}"))), None)
    if expected is float:
        ok = isinstance(value, int | float) and not isinstance(value, bool)
    elif expected is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
    else:
        ok = isinstance(value, expected)
    return None if ok else f"{where} should be {_name(expected)}, not {type(value).__name__}"


def _typeddict_mismatch(expected: type, value: Any, where: str) -> str | None:
    if not isinstance(value, dict):
        return f"{where} should be an object"
    required, hints = _shape(expected)
    missing = sorted(required - value.keys())
    if missing:
        return f"{where} lacks {', '.join(missing)}"
    unknown = sorted(value.keys() - hints.keys())
    if unknown:
        return f"{where} has undeclared {', '.join(map(str, unknown))}"
    return next(
        (p for key, item in value.items() if (p := _mismatch(hints[key], item, f"{where}.{key}"))),
        None,
    )


@functools.cache
def _shape(expected: type) -> tuple[frozenset[str], dict[str, Any]]:
    """A payload type's required keys and each key's type (`NotRequired` taken off), worked out once per
    type: a `TypedDict` is a class declared at import, and its hints are strings to evaluate under
    `from __future__ import annotations`, which took most of a payload check."""
    hints = typing.get_type_hints(expected, include_extras=True)
    return _required_keys(expected, hints), {key: _unwrap(hint) for key, hint in hints.items()}


def _required_keys(expected: type, hints: dict[str, Any]) -> frozenset[str]:
    """The keys a payload must have: Python 3.11 counts a `NotRequired` key written under
    `from __future__ import annotations` as required, so the hints say it again."""
    optional = {key for key, hint in hints.items() if typing.get_origin(hint) is typing.NotRequired}
    return frozenset(expected.__required_keys__) - optional


def _unwrap(hint: Any) -> Any:
    """`NotRequired[X]` and `Required[X]` as X."""
    while typing.get_origin(hint) in (typing.NotRequired, typing.Required):
        (hint,) = typing.get_args(hint)
    return hint


def _name(expected: Any) -> str:
    return getattr(expected, "__name__", None) or str(expected)
