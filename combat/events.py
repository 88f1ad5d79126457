"""Event kinds: each rule system declares the kinds it writes, each with a payload type; the core
declares its own few. `check_payload` refuses a payload that does not match its kind's type.

A payload type is a `TypedDict`: required and optional keys, each with a plain JSON type
(`int`, `str`, `bool`, `float`, `None`, `list[...]`, `dict[str, ...]`, another `TypedDict`, a union
of those, or `Any` where the shape is the rules engine's own record).
"""

from __future__ import annotations

import functools
import inspect
import types
import typing
from abc import ABC, abstractmethod
from typing import Any, NotRequired, TypedDict

from django.db import models
from typing_extensions import override


class PayloadMismatch(TypeError):
    """A payload that does not match its kind's declared type: a programming error, never a user's."""


class NoFields(TypedDict):
    """The payload of a kind that declares none: no fields at all."""


class EventKind:
    """One kind of log entry as one unit: everything the core asks of it, declared in one place, each
    member with its default. A system subclasses it per kind (`class Flip(EventKind)`, with `@override` on
    each method it overrides) and lists the classes in its `events` module's `EVENT_KINDS`; the registry
    makes one object of each. The roles' defaults (`combat.systems.Log`, `Replay`, `Page`) hand each
    event to its kind, so a system can move kind by kind; a kind made the old way,
    `EventKind(name, label, payload, template)`, has every other member's default.
    `manage.py check` reports a member the class defines that is not one of these (covenant.E001)."""

    name: str = ""
    """Its stored name (`Event.kind`, at most 24 characters)."""

    label: str = ""
    """Its label in the history's filter."""

    payload: type = NoFields
    """Its payload's type, a `TypedDict` (`check_payload` refuses a payload of another shape)."""

    template: str = ""
    """The template of its line in the log (context: `event`); by default `<app>/events/<name>.html`,
    `<app>` the last part of the package its class is declared in (`combat` for the core's)."""

    secret: bool = True
    """Whether its payload may hold what players may not see (an NPC's dice, say). False: players see it
    whole, by `for_players`' default. True, the default: players see only the core's fields of it unless
    the kind says what they see, so a kind that forgets shows them nothing of its own."""

    panels: frozenset[str] | None = None
    """The names of the panels of its system's live frame that it changes (`combat.live.Pushed`): a frame
    pushes again exactly those its events name. None, the default, names every panel: a kind that does not
    say changes everything, and nothing goes stale."""

    def __init__(self, name=None, label=None, payload=None, template=None, panels=None) -> None:
        given = {"name": name, "label": label, "payload": payload, "template": template, "panels": panels}
        for member, value in given.items():
            if value is not None:
                setattr(self, member, value)
        if not self.template:
            self.template = _default_template(type(self), self.name)
        _check_name(self.name)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"

    @classmethod
    def members(cls) -> set[str]:
        """What a kind declares: its constants and methods, each with its default here."""
        own = (*vars(EventKind), *inspect.get_annotations(EventKind))
        return {name for name in own if not name.startswith("_") and name != "members"}

    def sentence(self, payload: dict, names: dict, *, storyguide: bool) -> str:
        """The event as one sentence from its payload as its audience sees it (a phone's pop-up, a screen
        reader's words: `combat.sentences`); `names` are the combatants' names as the log named them at
        that step. "" by default: a kind that says nothing."""
        return ""

    def for_players(self, event, own: set[str], players: set[str], npc_rolls: str) -> dict:
        """Its payload as the players see it (`combat.systems.Log.players_payload`, when its system's log
        holds `SECRETS`; a log without them shows every payload whole). By default the core's own fields
        alone (`core_fields`), or the payload whole for a kind that is not `secret`: a kind that does not say
        what players see shows them nothing of its own."""
        return core_fields(self.name, event.payload) if self.secret else event.payload

    def for_players_record(self, record, characters: set[str], npc_rolls: str) -> dict:
        """A payload of this kind that names characters by id, as the players see it
        (`combat.systems.Log.players_record`): by default, as `for_players`, the core's own fields alone, or
        the payload whole for a kind that is not `secret`."""
        return core_fields(self.name, record.payload) if self.secret else record.payload

    def apply(self, table: Any, event) -> Any:
        """Its effect on the replay's table (`combat.systems.Replay.apply`): the table after it, changed in
        place or new. By default none."""
        return table

    def marks(self, event) -> list[tuple[str, str, str]]:
        """What it puts on an encounter's timeline (`combat.systems.Replay.chart_marks`): (mark, combatant
        id, words). None by default."""
        return []

    def tally(self, event) -> list[tuple[str, str, int]]:
        """What it adds to the saga's numbers (`combat.systems.Replay.chart_tally`): (combatant id, counter,
        amount). Nothing by default."""
        return []

    def rolls(self, event) -> list[tuple[Any, Any, str]]:
        """The rolls it holds, for the evening's best and worst (`combat.systems.Replay.recap_rolls`):
        (combatant id, total, what was rolled, in the system's words); a total the reader's version leaves
        out may be None. None by default."""
        return []


def _check_name(name: str) -> None:
    if len(name) > 24:
        raise ValueError(f"event kind {name!r} is longer than 24 characters")


def _default_template(kind: type, name: str) -> str:
    """`<app>/events/<name>.html`, `<app>` the last part of the package the kind is declared in."""
    package = kind.__module__.rpartition(".")[0] or kind.__module__
    return f"{package.rpartition('.')[2]}/events/{name}.html"


class CoreKind(models.TextChoices):
    """The kinds every encounter writes, whatever its rule system; and the saga records the core writes
    itself, through combat.receivers: a storyguide made a password link (campaign.resets, the link itself
    never stored), a character handed over to another player (campaign.services.hand_over, which an open
    encounter the character fights in logs as well). And an encounter's storyguide's seat handed over to
    another of its saga's storyguides (combat.services.seat), and the saga's records of its troupe: a member
    made one of its storyguides, a storyguide made a player again, the lead passed (campaign.services)."""

    ENCOUNTER_CREATED = "encounter_created", "Encounter created"
    COMBATANT_ADDED = "combatant_added", "Combatant added"
    COMBATANT_REMOVED = "combatant_removed", "Combatant removed"
    COMBATANT_RENAMED = "combatant_renamed", "Combatant renamed"
    ENCOUNTER_ENDED = "encounter_ended", "Encounter ended"
    RESET_LINK_MADE = "reset_link_made", "Password link made"
    HANDED_OVER = "handed_over", "Character handed over"
    SEAT_HANDED_OVER = "seat_handed_over", "Storyguide's seat handed over"
    STORYGUIDE_MADE = "storyguide_made", "Storyguide made"
    STORYGUIDE_REMOVED = "storyguide_removed", "Storyguide made a player again"
    LEAD_PASSED = "lead_passed", "Lead passed"


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


class SeatHandedOver(TypedDict):
    """Who holds an encounter's storyguide's seat from here on (combat.services.seat): its controls and the
    storyguide's version of it. Everyone sees it whole."""

    by: str  # the username who handed it over: the holder, or the saga's lead
    was: str  # who held the seat until now
    to: str  # who holds it from now on
    reason: str


class StoryguideMade(TypedDict):
    """A member made one of the saga's storyguides by its lead (campaign.services.make_storyguide)."""

    by: str  # the lead's username
    storyguide: str


class StoryguideRemoved(TypedDict):
    """A storyguide made a player again by the saga's lead (campaign.services.remove_storyguide): the seats of
    the encounters they held that were not over pass to the lead, each handed over in its own log."""

    by: str  # the lead's username, who takes the seats
    storyguide: str
    seats: list[str]  # the names of the encounters whose seats passed to the lead


class LeadPassed(TypedDict):
    """The saga's lead passed to another of its storyguides (campaign.services.pass_lead)."""

    was: str  # the lead until now, who stays one of the storyguides
    to: str


class ResetLinkMade(TypedDict):
    player: str  # the username whose one-time password link the storyguide (the record's actor) made


def plural(count, word: str) -> str:
    """1, "round" → "1 round"; 3 → "3 rounds"."""
    return f"{count} {word}{'' if count == 1 else 's'}"


class ReplayTable(ABC):
    """What a system's replay table gives the core, which folds its own kinds over it: a combatant joins
    (`combatant_added`, with the `levels` its system's `joining_levels` wrote), leaves, is renamed, and the
    encounter ends. A system's table (`Replay.start`) subclasses it; the core's kinds' `apply` call these,
    so no system copies their effect."""

    @abstractmethod
    def join(self, combatant: str, name: str, side: str, npc: bool, levels: dict) -> None:
        """A combatant joins the fight, with the levels it joined with (empty in a log from before)."""

    @abstractmethod
    def leave(self, combatant: str) -> None:
        """A combatant leaves the fight."""

    @abstractmethod
    def rename(self, combatant: str, name: str) -> None:
        """The name the log gives a combatant from here on (`combat.names`)."""

    @abstractmethod
    def end(self) -> None:
        """The encounter is over."""


def fold_core(table: Any, event) -> Any:
    """`table` after `event` when it is of one of the core's kinds (its effect, once, here), else as it was:
    for a system's replay that folds its own kinds itself."""
    kind = CORE_BY_NAME.get(event.kind)
    return kind.apply(table, event) if kind else table


class _Core(EventKind):
    """A kind the core writes itself, whatever the rule system: named and labelled by its `CoreKind`."""

    def __init_subclass__(cls, kind: CoreKind, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        cls.name, cls.label = kind.value, kind.label


class EncounterCreatedKind(_Core, kind=CoreKind.ENCOUNTER_CREATED):
    payload = EncounterCreated

    @override
    def sentence(self, payload: dict, names: dict, *, storyguide: bool) -> str:
        return f"The storyguide set up {payload['name']}."


class CombatantAddedKind(_Core, kind=CoreKind.COMBATANT_ADDED):
    payload = CombatantAdded

    @override
    def apply(self, table: Any, event) -> Any:
        if table is not None:
            p = event.payload
            levels = p.get("levels") or {}
            table.join(p["combatant"], p.get("name", ""), p.get("side", ""), bool(p.get("npc")), levels)
        return table

    @override
    def sentence(self, payload: dict, names: dict, *, storyguide: bool) -> str:
        return f"{payload['name']} joins the fight on the side of {payload['side']}."


class CombatantRemovedKind(_Core, kind=CoreKind.COMBATANT_REMOVED):
    payload = CombatantRemoved

    @override
    def apply(self, table: Any, event) -> Any:
        if table is not None:
            table.leave(event.payload.get("combatant"))
        return table

    @override
    def sentence(self, payload: dict, names: dict, *, storyguide: bool) -> str:
        return f"{payload['name']} leaves the fight."


class CombatantRenamedKind(_Core, kind=CoreKind.COMBATANT_RENAMED):
    payload = CombatantRenamed

    @override
    def apply(self, table: Any, event) -> Any:
        if table is not None:
            table.rename(event.payload.get("combatant"), event.payload.get("name", ""))
        return table

    @override
    def sentence(self, payload: dict, names: dict, *, storyguide: bool) -> str:
        return f"{payload['was']} is now called {payload['name']}."


class EncounterEndedKind(_Core, kind=CoreKind.ENCOUNTER_ENDED):
    payload = EncounterEnded

    @override
    def apply(self, table: Any, event) -> Any:
        if table is not None:
            table.end()
        return table

    @override
    def sentence(self, payload: dict, names: dict, *, storyguide: bool) -> str:
        return f"The encounter is over after {plural(payload['rounds'], 'round')}."


class ResetLinkMadeKind(_Core, kind=CoreKind.RESET_LINK_MADE):
    payload = ResetLinkMade

    @override
    def sentence(self, payload: dict, names: dict, *, storyguide: bool) -> str:
        return f"The storyguide made a one-time password link for {payload['player']}."


class HandedOverKind(_Core, kind=CoreKind.HANDED_OVER):
    payload = HandedOver

    @override
    def sentence(self, payload: dict, names: dict, *, storyguide: bool) -> str:
        """ "Ada is now played by bob.", or "Ada waits for a player who will join."."""
        if payload["player"]:
            return f"{payload['name']} is now played by {payload['player']}."
        return f"{payload['name']} waits for a player who will join."


class SeatHandedOverKind(_Core, kind=CoreKind.SEAT_HANDED_OVER):
    payload = SeatHandedOver
    secret = False

    @override
    def sentence(self, payload: dict, names: dict, *, storyguide: bool) -> str:
        """ "bob takes the storyguide's seat from sg: sg plays Ada tonight"."""
        return f"{payload['to']} takes the storyguide's seat from {payload['was']}: {payload['reason']}"


class StoryguideMadeKind(_Core, kind=CoreKind.STORYGUIDE_MADE):
    payload = StoryguideMade
    secret = False

    @override
    def sentence(self, payload: dict, names: dict, *, storyguide: bool) -> str:
        """ "sg makes dora one of the saga's storyguides."."""
        return f"{payload['by']} makes {payload['storyguide']} one of the saga's storyguides."


class StoryguideRemovedKind(_Core, kind=CoreKind.STORYGUIDE_REMOVED):
    payload = StoryguideRemoved
    secret = False

    @override
    def sentence(self, payload: dict, names: dict, *, storyguide: bool) -> str:
        """ "sg makes dora a player again; the seat of Ambush passes to sg."."""
        said = f"{payload['by']} makes {payload['storyguide']} a player again"
        seats = payload["seats"]
        if not seats:
            return f"{said}."
        if len(seats) == 1:
            return f"{said}; the seat of {seats[0]} passes to {payload['by']}."
        which = ", ".join(seats[:-1]) + f" and {seats[-1]}"
        return f"{said}; the seats of {which} pass to {payload['by']}."


class LeadPassedKind(_Core, kind=CoreKind.LEAD_PASSED):
    payload = LeadPassed
    secret = False

    @override
    def sentence(self, payload: dict, names: dict, *, storyguide: bool) -> str:
        """ "sg passes the saga's lead to dora."."""
        return f"{payload['was']} passes the saga's lead to {payload['to']}."


CORE_KINDS: tuple[EventKind, ...] = (
    EncounterCreatedKind(),
    CombatantAddedKind(),
    CombatantRemovedKind(),
    CombatantRenamedKind(),
    EncounterEndedKind(),
    ResetLinkMadeKind(),
    HandedOverKind(),
    SeatHandedOverKind(),
    StoryguideMadeKind(),
    StoryguideRemovedKind(),
    LeadPassedKind(),
)
CORE_BY_NAME: dict[str, EventKind] = {kind.name: kind for kind in CORE_KINDS}
FOLDED_KINDS: tuple[str, ...] = tuple(
    kind.name for kind in CORE_KINDS if type(kind).apply is not EventKind.apply
)
"""The core's kinds that change a replay's table (`ReplayTable`): the charts read them whatever a system's
`CHART_KINDS` says."""


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
