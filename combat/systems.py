"""The registry of rule systems, and the interface each one provides to the table core.

The core runs encounters, the event log, live push, the consumers and the generic pages; a rule
system brings everything that is its own through one `RuleSystem` object. The core asks the
registry for the saga's system and never names one. A system's module must import without Django
being set up: the command line resolves encounter files through the registry with no settings. What a
system gives is checked by `manage.py check` (`RuleSystem.problems`, `combat/checks.py`).
"""

from __future__ import annotations

import difflib
import importlib
import importlib.util
import inspect
from abc import ABC, abstractmethod
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

# The registry is campaign's (below the table); the core and the systems reach it as combat.systems too.
from campaign.systems import (  # noqa: F401
    INSTALLED_SYSTEMS,
    UnknownSystem,
    all_systems,
    choices,
    configured,
    get,
    load,
    of,
    played,
)

from .events import CORE_KINDS, FOLDED_KINDS, EventKind, core_fields

if TYPE_CHECKING:
    from django.forms import BaseForm
    from django.http import HttpRequest, HttpResponse


class Role(ABC):  # noqa: B024 (its abstract members are its subclasses', each role's)
    """One part of what a rule system provides to the core, as a class the system subclasses (the way a
    Django `ModelAdmin` is subclassed): `class Log(combat.systems.Log)` in the system's own module, with
    `@override` on each member it overrides, named by its `RuleSystem` (`log = ".sentences.Log"`).

    A role's class lists its members: each a method or a constant with its default here, or an abstract
    method when every system must give it. A system's role class defines nothing else (a helper of its
    own starts with `_`), takes each method's parameters as the core's, and gives every abstract one:
    `problems` says what it does not, `manage.py check` reports it (`combat/checks.py`), and the role is
    refused when first read."""

    def _kind(self, name: str) -> EventKind | None:
        """The kind of that name, the core's or its system's (the system that plays this role, once the
        registry made it; any system's for a role made by itself)."""
        return event_kind(name, getattr(self, "_system", None))

    @classmethod
    def core(cls) -> type[Role]:
        """The core's class of the role this class plays (`Log` for a system's own log)."""
        return next(each for each in reversed(cls.__mro__) if Role in each.__bases__)

    @classmethod
    def members(cls) -> set[str]:
        """The role's members: its methods and constants, and what it leaves to each system."""
        core = cls.core()
        return {name for name in (*vars(core), *inspect.get_annotations(core)) if not name.startswith("_")}


@dataclass(frozen=True)
class Problem:
    """What is wrong with a system's role class: `manage.py check` reports it as an Error with this id."""

    id: str
    message: str
    hint: str = ""


# What a role refuses when first read, besides what `manage.py check` reports: the ids of a class that
# cannot play its role (any other problem is the check's alone, and the privacy default fails closed).
REFUSED = frozenset({"covenant.E001", "covenant.E002", "covenant.E003", "covenant.E005"})


def role_problems(core: type[Role], given: Any, where: str) -> list[Problem]:
    """Everything wrong with `given` as a system's class for the core's role class `core`: not a subclass
    of it (E005), a member it does not have (E001, a misspelling), a member with other parameters or of
    another sort (E002), an abstract member left out (E003), a log with secrets that does not say what
    players see (E004), an override without `@override` (E006)."""
    if not (isinstance(given, type) and issubclass(given, core)):
        return [Problem("covenant.E005", f"{where} is not a subclass of {core.__module__}.{core.__name__}")]
    problems = []
    members = core.members()

    mine = [klass for klass in given.__mro__ if issubclass(klass, core) and klass is not core]
    for name, value in ((n, v) for klass in mine for n, v in vars(klass).items() if not n.startswith("_")):
        if name not in members:
            close = difflib.get_close_matches(name, members, n=1)
            problems.append(
                Problem(
                    "covenant.E001",
                    f"{where}.{name} is not a member of {core.__module__}.{core.__name__}",
                    f"did you mean {close[0]}?" if close else "a helper of the role's own starts with _",
                )
            )
            continue
        default = inspect.getattr_static(core, name, None)
        if inspect.isfunction(default) != inspect.isfunction(value):
            sort = "a method" if inspect.isfunction(default) else "a constant"
            problems.append(Problem("covenant.E002", f"{where}.{name} should be {sort}, as the core's is"))
        elif inspect.isfunction(value) and _parameters(value) != _parameters(default):
            problems.append(
                Problem("covenant.E002", f"{where}.{name} should take ({_signature(default)}), as the core's")
            )
        elif inspect.isfunction(value) and not getattr(value, "__override__", False):
            problems.append(
                Problem(
                    "covenant.E006",
                    f"{where}.{name} overrides the core's without saying so",
                    "decorate it with @override (typing_extensions)",
                )
            )
    for name in sorted(getattr(given, "__abstractmethods__", ())):
        problems.append(Problem("covenant.E003", f"{where} lacks {name}, which every system gives"))
    if issubclass(given, Log) and given.SECRETS:
        for name in ("players_payload", "players_record"):
            if getattr(given, name) is getattr(Log, name):
                problems.append(
                    Problem(
                        "covenant.E004",
                        f"{where} holds secrets (SECRETS) but does not say what players see: no {name}",
                        f"override {name}, or set SECRETS = False if players may see every payload whole",
                    )
                )
    return problems


def kind_problems(kind: Any) -> list[Problem]:
    """Everything wrong with one of a system's `EVENT_KINDS` as a kind unit: as for a role (`role_problems`
    against `EventKind`), a member its base does not have (E001), other parameters or another sort (E002),
    an override without `@override` (E006); or not a kind at all (E005)."""
    given = kind if isinstance(kind, type) else type(kind)
    return role_problems(EventKind, given, _named(given))


def _said_by_kinds(system: type, problem: Problem, declared) -> bool:
    """An E004 of a log whose default hands each event to its kind, every one of whose kinds says what
    players see (`EventKind.for_players`, `for_players_record`) or that it holds no secret (`secret`): the
    kinds say it."""
    if problem.id != "covenant.E004":
        return False
    member = problem.message.rpartition("no ")[2]
    unit = {"players_payload": "for_players", "players_record": "for_players_record"}[member]
    return bool(declared) and all(
        isinstance(kind, type) and (getattr(kind, unit) is not getattr(EventKind, unit) or not kind.secret)
        for kind in declared
    )


def _module(name: str):
    """The module of that name, or None when the system has none."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name != name:
            raise
        return None


def _parameters(function) -> list[tuple[str, Any, bool]]:
    """A function's parameters as the interface compares them: name, kind, and whether it has a default."""
    return [
        (p.name, p.kind, p.default is inspect.Parameter.empty)
        for p in inspect.signature(function).parameters.values()
    ]


def _signature(function) -> str:
    """A function's parameters as written, without their annotations: "self, event, *, in_round=False"."""
    parameters = inspect.signature(function).parameters.values()
    return str(inspect.Signature([p.replace(annotation=inspect.Parameter.empty) for p in parameters]))[1:-1]


class Sheet(Role):
    """A character's sheet: its form, its page, its levels."""

    def sheet_forms(self, saga, character, data=None) -> tuple[BaseForm, Any]:
        """The character sheet's form and its rows' formset (weapons, abilities) for this saga; by default a
        name and notes, and no rows (`campaign.forms.name_and_notes`)."""
        from campaign.forms import name_and_notes

        return name_and_notes(character, data)

    TEMPLATE: str = ""
    """The sheet as shown on the character page (context: `character`, `saga`, `sheet`); none by default."""

    FORM_TEMPLATE: str = "campaign/_name_and_notes.html"
    """The sheet's fields on the character form (context: `form`, `rows`, `saga`); by default its name and
    notes."""

    def sheet_context(self, character) -> dict:
        """What `TEMPLATE` needs beyond the character (ordered attributes, say)."""
        return {}

    LEVEL_HEADINGS: tuple[str, ...] = ()
    """The headings of `levels`, for the saga's character table."""

    def levels(self, character) -> list[tuple[str, str]]:
        """The character's current levels as (heading, value): what the table sees of anyone's sheet."""
        return []

    def copy_rows(self, original, copies: list) -> None:
        """Stamped copies of an NPC: copy the rows its sheet keeps apart (weapons, say) to each copy."""
        return None

    def saga_links(self, saga) -> list[tuple[str, str, str]]:
        """Extra links on the storyguide's saga page, as (url, link text, what follows the link)."""
        return []


class Page(Role):
    """The encounter's page: the panels every live frame pushes, what set-up may do."""

    def encounter_page(self, request: HttpRequest, encounter, audience: str) -> HttpResponse | None:
        """The encounter's page for this person: the storyguide's controls or a player's view; by default
        (None) the core's, `FRAME_TEMPLATE`'s panels above the live log (`combat.views.drawn_page`)."""
        return None

    @abstractmethod
    def state_context(self, encounter, audience: str, facts=None) -> dict:
        """Everything the encounter's panels show to an audience, from rows, in a fixed number of queries;
        `facts` is what `table_facts` read for this push."""

    def table_facts(self, encounter, read=None):
        """What both audiences' panels are built from, read once for a push and handed to `state_context`
        for each audience (None: nothing shared, each audience's context reads its own). `read`: what
        the command read of the encounter, as it left it, when it hands that over: this system's own
        object, made by its own services, with every combatant of the encounter as `read.combatants`."""
        return None

    FRAME_TEMPLATE: str = ""
    """The panels pushed in every live frame after the new events (rendered with `state_context`). The
    context's `pushed` (`Pushed`) holds the names of the panels the frame's events change, as each kind
    names them (`EventKind.panels`): `{% if "setup" in pushed %}` pushes a panel only then."""

    CORE_KIND_PANELS: dict[str, frozenset[str]] = {}
    """The panels of the system's frame each of the core's kinds changes, by kind name (a core kind cannot
    name a system's panels itself); a core kind left out changes every panel."""

    def frame_context(self, events: list, *, replay: bool, context: dict) -> dict:
        """Flags and fragments for the frame from the events it carries, given the audience's
        `state_context` (with `pushed`, the panels its events name): which parts of a panel to push when
        not the whole; a `pushed` returned replaces the context's."""
        return {}

    def setup_refusal(self, encounter) -> str | None:
        """Why combatants cannot join or leave now, or None when they can."""
        return None

    def combatants_changed(self, encounter) -> list[str]:
        """After combatants joined or left: update the encounter's own state, return its changed fields."""
        return []

    def rounds_played(self, encounter) -> int:
        """The rounds the encounter played, for its closing line: its round number, less a round that was
        opened and in which nothing was resolved yet."""
        return encounter.round_number

    def saga_panels(self, request, saga) -> list[str]:
        """The panels the saga page shows the person asking, drawn (HTML): the storyguide's time panel, say.
        Drawn with the page, so nothing moves once it has loaded."""
        return []


class Pushed:
    """The names of the panels a live frame pushes again: those its events' kinds name (`EventKind.panels`),
    or every panel (`Pushed.EVERY`). `"setup" in pushed`; `pushed | {"declare"}` adds one."""

    def __init__(self, names: frozenset[str] | None) -> None:
        self.names = names  # None: every panel

    def __contains__(self, name: object) -> bool:
        return self.names is None or name in self.names

    def __or__(self, more) -> Pushed:
        return self if self.names is None else Pushed(self.names | frozenset(more))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Pushed) and self.names == other.names

    def __hash__(self) -> int:
        return hash(self.names)

    def __repr__(self) -> str:
        return "Pushed(every panel)" if self.names is None else f"Pushed({sorted(self.names)})"


Pushed.EVERY = Pushed(None)


def frame_panels(system: RuleSystem, events: list, *, replay: bool) -> Pushed:
    """The panels a frame of `events` pushes again: every one for a replay (a client catching up); else
    those each event's kind names (`EventKind.panels`; a core kind's, its system's `CORE_KIND_PANELS`), and
    every one when a kind names none (None) or is not declared."""
    if replay:
        return Pushed.EVERY
    names: set[str] = set()
    for event in events:
        if event.kind in system.page.CORE_KIND_PANELS:
            named = system.page.CORE_KIND_PANELS[event.kind]
        else:
            kind = event_kind(event.kind, system)
            named = kind.panels if kind else None
        if named is None:
            return Pushed.EVERY
        names |= named
    return Pushed(frozenset(names))


class Log(Role):
    """The log in the system's words: where each event happened, and what players see of it."""

    SECRETS: bool = True
    """Whether the log holds what players must not see (an NPC's dice, another's declaration): a log that
    does says what they see, `players_payload` and `players_record` (`manage.py check` refuses one that
    does not, covenant.E004). False: players see every payload whole."""

    STYLESHEETS: tuple[str, ...] = ()
    """Static stylesheets the system's log entries need besides the core's combat.css (its dice faces, say):
    linked by every page that shows its log away from its own table page (the history, the replay, the print
    record), so an entry looks there as it does at the table."""

    def event_label(self, event, *, in_round: bool = False) -> str:
        """Where an event happened, in the system's words ("R1 · Melee"); inside a round's heading, less
        (by default its round's heading, and nothing inside it)."""
        return "" if in_round else self.round_heading(event.round_number)

    def round_heading(self, number: int) -> str:
        """The history's heading for a round number (0: before the first round)."""
        return f"Round {number}" if number else "Setting up"

    NPC_ROLLS: dict[str, str] = {}
    """The saga setting "NPC rolls players see" in the system's words, by `NpcRolls` value: what "results
    only" leaves players of an NPC's rolls in its rules, say. A value left out reads as the core's label."""

    def players_payload(self, event, own: set[str], players: set[str], npc_rolls: str) -> dict:
        """An event's payload as the players see it, in every log, frame, history and export; `own` and
        `players` are combatant ids as strings, `npc_rolls` the saga's `NpcRolls` (how much of an NPC's
        rolls they see). By default, when the log holds `SECRETS`, its kind's (`EventKind.for_players`),
        whose own default is nothing beyond the core's own fields (a core kind's declared payload; nothing of
        the system's kinds): what a system forgets stays hidden."""
        if not self.SECRETS:
            return event.payload
        kind = self._kind(event.kind)
        return kind.for_players(event, own, players, npc_rolls) if kind else core_fields(event.kind, {})

    def sentence(self, kind: str, payload: dict, names: dict, *, storyguide: bool) -> str:
        """One of the system's events as one sentence built from its payload as its audience sees it (a
        phone's pop-up, a screen reader's words: `combat.sentences`); "" for a kind it does not say. By
        default its kind's (`EventKind.sentence`)."""
        unit = self._kind(kind)
        return unit.sentence(payload, names, storyguide=storyguide) if unit else ""

    def players_record(self, record, characters: set[str], npc_rolls: str) -> dict:
        """A payload that names characters by id, as the players see it: a saga record's (`SagaRecord`, time
        passing between encounters), or an event's after `players_payload` (the same kinds, on an encounter's
        page). `characters` are the player characters' ids as strings: any other is an NPC's, whose rolls
        they see as far as `npc_rolls` lets them. By default, as `players_payload`'s: the whole payload when
        the log holds no `SECRETS`, else its kind's (`EventKind.for_players_record`: the core's own fields
        alone unless the kind says more)."""
        if not self.SECRETS:
            return record.payload
        kind = self._kind(record.kind)
        return kind.for_players_record(record, characters, npc_rolls) if kind else {}


class Archive(Role):
    """The system's part of a saga's archive: its own rows, and the ids its JSON names."""

    def archive_rows(self, saga) -> dict[str, Any]:
        """The system's own rows of a saga for its archive, as {"app_label.modelname": queryset}, in the
        order an import makes them (a row's foreign keys point to characters, encounters, combatants,
        people or rows of an earlier model). Lazy: the import asks it for the names and order alone."""
        return {}

    def players_state(self, state: dict, is_npc: bool, npc_rolls: str) -> dict:
        """A combatant's `state` as a player's archive carries it: an NPC's as far as the saga's `npc_rolls`
        lets players see its rolls (by default all of it: a system whose state keeps no roll's number)."""
        return state

    COMBATANT_KEYS: frozenset[str] = frozenset()
    """The payload keys (at the top of a payload) that name a combatant by id, besides the core's
    `combatant`: an import refuses an event naming one its encounter's log never added."""

    BY_COMBATANT: frozenset[str] = frozenset()
    """Payload keys (at any depth) of objects keyed by combatant id, for the default `renumbered`."""

    def renumbered(self, where: str, value: Any, ids) -> Any:
        """JSON the system keeps, with every id in it given anew through `ids` on import
        (`combat.archive.renumbering.Renumbering`: `ids.combatant`, `ids.character`, `ids.id` for a row of
        `archive_rows`, `ids.walk` for keys that name them at any depth). `where` says what it is: an event
        or saga record's kind, "pending", "round_log", "state" (a combatant's), or "label.field" (a JSON
        field of one of `archive_rows`' models). By default the core's `combatant`, `COMBATANT_KEYS` and
        `BY_COMBATANT`."""
        combatant = frozenset({"combatant"}) | self.COMBATANT_KEYS
        return ids.walk(value, combatant=combatant, by_combatant=self.BY_COMBATANT)


class Replay(Role):
    """The encounter folded from its log alone, step by step, and what the replay, the undo, the charts and
    the evening's recap read of it."""

    def joining_levels(self, combatant) -> dict[str, Any]:
        """What a replay needs of a combatant as it joins (its levels now, as JSON), kept in the
        `levels` of its `combatant_added` event: the log alone then says how each one started."""
        return {}

    def start(self) -> Any:
        """The replay's table before an encounter's first event, in the system's own type."""
        return None

    def apply(self, table: Any, event) -> Any:
        """The table after one more event: that event kind's effect (by default its kind's,
        `EventKind.apply`; a kind nobody declares leaves the table as it was). May change `table` in place;
        returns it."""
        kind = self._kind(event.kind)
        return kind.apply(table, event) if kind else table

    def state_at(self, events: list) -> Any:
        """The table as it stood after the last of `events` (an encounter's log up to a step, as its
        audience reads it), folded from the log alone: `apply` on `start`, in order."""
        table = self.start()
        for event in events:
            table = self.apply(table, event)
        return table

    TEMPLATE: str = ""
    """The panels of one replay step, drawn from `replay_context` (none when empty: the log alone)."""

    def replay_context(self, table: Any) -> dict:
        """What `TEMPLATE` shows of the table at a step (levels, order, engagements, positions)."""
        return {"table": table}

    UNDO_KINDS: tuple[str, ...] = ()
    """The event kinds that take back earlier events (each with a `reason` in its payload, shown to
    everyone); none when the system has no undo. `combat.undo` says what each took back."""

    def takes_back(self, undo, standing: list) -> list[int]:
        """The seqs of the events an undo (an event of `UNDO_KINDS`) takes back, among those of its
        encounter's log that still stand before it (oldest first: earlier undos' already taken out)."""
        return []

    UNDO_IN_ROUND: bool = False
    """Whether an undo takes back events of its own round only (`takes_back` looks at no other): then an
    undo's live frame reads that round's events and the lines that name combatants, not the whole log
    (`combat.live.undo_log`); False reads the whole log."""

    def chart_tracks(self) -> tuple[tuple[str, str, tuple[str, ...]], ...]:
        """The level tracks the charts draw, as (key, heading, the levels' labels from best to worst)."""
        return ()

    CHART_KINDS: tuple[str, ...] | None = None
    """The event kinds the saga's charts read (those that change a level or add to a tally), so a long
    saga's other entries are never read for them; None reads every kind. The core's kinds that change the
    table (`combat.events.FOLDED_KINDS`: joined, left, renamed, ended), and the system's kinds whose units
    fold, mark or tally, are read whatever it says (`charted_kinds`): a system of kind units gives `()`."""

    CHART_UNREAD: tuple[str, ...] = ()
    """Payload keys of those kinds the saga's charts never read (dotted for a key inside a key:
    `attack_roll.faces`), nor the players' version of a payload needs to be made: removed in the
    database, so a long saga's dice and parts are never sent or decoded for its charts."""

    def chart_levels(self, table: Any) -> dict[str, dict[str, int]]:
        """Each combatant's place on every track of `chart_tracks` in a replay's table, by combatant id
        (as a string) and track key: an index of that track's labels (a level not in the log is left out)."""
        return {}

    def chart_marks(self, event) -> list[tuple[str, str, str]]:
        """What an event puts on an encounter's timeline, as (mark, combatant id, words): each mark one of
        `combat.archive.charts.MARKS` ("hit", "wound", "botch", "correction"); an undo of `UNDO_KINDS` is
        marked ("undo") by the core itself. By default its kind's (`EventKind.marks`)."""
        kind = self._kind(event.kind)
        return kind.marks(event) if kind else []

    def chart_tally(self, event) -> list[tuple[str, str, int]]:
        """What an event adds to the saga's numbers, as (combatant id, counter, amount): each counter one of
        `combat.archive.charts.TALLIES` (attacks made and landed, wounds dealt and taken, botches, fatigue
        levels lost). By default its kind's (`EventKind.tally`)."""
        kind = self._kind(event.kind)
        return kind.tally(event) if kind else []

    def recap_rolls(self, event) -> list[tuple[str, int, str]]:
        """The rolls in an event as the reader's version of it shows them, as (combatant id, total, what was
        rolled, in the system's words): the evening's recap names the best and the worst. By default its
        kind's (`EventKind.rolls`); a total the reader may not see (not in their version) is left out."""
        kind = self._kind(event.kind)
        rolled = kind.rolls(event) if kind else []
        return [(str(who), total, what) for who, total, what in rolled if _a_total(total)]

    def survived(self, table: Any, combatant_id: str) -> bool:
        """Whether a combatant came out of the encounter alive, by the replay's table at its end."""
        return True


def _a_total(value) -> bool:
    """A number a roll came to (not None, not a flag): what the recap may rank."""
    return isinstance(value, int) and not isinstance(value, bool)


class Files(Role):
    """The system on the command line, without Django: `python -m combat.rules resolve FILE.json`."""

    def resolve(self, data: dict) -> dict:
        """An encounter file (already read as JSON) resolved, as the command line prints it; by default by
        the system's `rules` module's `resolve`."""
        return importlib.import_module(f"{self._system._package}.rules").resolve(data)


ROLES: dict[str, type[Role]] = {
    "sheet": Sheet,
    "page": Page,
    "log": Log,
    "archive": Archive,
    "replay": Replay,
    "files": Files,
}
"""The roles every system plays, by the name its `RuleSystem` gives each one's class."""


class Played:
    """A role as a system plays it: the role's class, named on the `RuleSystem` by itself or by its dotted
    path (relative to the system's package when it starts with a dot), imported and made the first time
    the core asks for it, then kept on the system. Named by path, a system's `system.py` imports without
    Django (the command line reads it with no settings)."""

    def __init__(self, core: type[Role], named: type[Role] | str | None = None):
        self.core, self.named = core, named or core

    def __set_name__(self, owner, name: str) -> None:
        self.name = name

    def __get__(self, system, owner=None):
        """The role's object, made once per system; refused when its class cannot play the role."""
        if system is None:
            return self
        given = self.role_class(type(system))
        refused = [each for each in role_problems(self.core, given, _named(given)) if each.id in REFUSED]
        if refused:
            raise TypeError("; ".join(each.message for each in refused))
        role = vars(system)[self.name] = given()
        role._system = system  # whose kinds its defaults hand events to
        return role

    def role_class(self, owner: type) -> Any:
        """The class the system names for this role, imported when named by path."""
        if not isinstance(self.named, str):
            return self.named
        module, _, name = self.named.rpartition(".")
        return getattr(importlib.import_module(module, owner.__module__.rpartition(".")[0]), name)


def _named(given: Any) -> str:
    return f"{given.__module__}.{given.__qualname__}" if isinstance(given, type) else repr(given)


class RuleSystem:
    """What a rule system provides to the core: its names, and its roles, each a class of its own that
    subclasses the core's (`Log`, `Page`...) and is named here by class or dotted path
    (`log = ".presenters.Log"`). One instance per system, registered by dotted path; a role the system
    does not name is the core's own class, its defaults (but for `Page.state_context`: every system gives
    its panels)."""

    key: str
    """The name stored in `Saga.rule_system` and in an encounter file's `"rules"` (at most 16 characters)."""

    label: str
    """The name people read: in the saga form's choice and on the saga page."""

    short_name: str = ""
    """The name in a sentence, "Run ... and ... combat live" (the label when empty)."""

    sheet = Played(Sheet)
    """Its character sheet, a `Sheet`."""

    page = Played(Page)
    """The encounter's page and the panels its frames push, a `Page`."""

    log = Played(Log)
    """Its log's words and what players see of it, a `Log`."""

    archive = Played(Archive)
    """Its part of a saga's archive, an `Archive`."""

    replay = Played(Replay)
    """The encounter folded from its log, a `Replay`."""

    files = Played(Files)
    """Its encounter files on the command line, a `Files`."""

    def __init_subclass__(cls, **kwargs) -> None:
        """Each role the subclass names (a class or a dotted path) is played through `Played`."""
        super().__init_subclass__(**kwargs)
        for name, core in ROLES.items():
            named = vars(cls).get(name)
            if named is not None and not isinstance(named, Played):
                role = Played(core, named)
                role.__set_name__(cls, name)
                setattr(cls, name, role)

    @classmethod
    def problems(cls) -> list[Problem]:
        """Everything wrong with the system's role classes (`role_problems`): what `manage.py check`
        reports of it."""
        found = []
        for name, core in ROLES.items():
            try:
                given = inspect.getattr_static(cls, name).role_class(cls)
            except (ImportError, AttributeError) as error:
                found.append(Problem("covenant.E005", f"{cls.__qualname__}.{name} names no class: {error}"))
                continue
            found += role_problems(core, given, _named(given))
        declared = getattr(_module(f"{cls.__module__.rpartition('.')[0]}.events"), "EVENT_KINDS", ())
        for kind in declared:
            found += kind_problems(kind)
        return [each for each in found if not _said_by_kinds(cls, each, declared)]

    commands: str = ""
    """Its commands, each declared once (`combat.commands.Command`): a dotted path to their tuple
    (".services.COMMANDS"), from which their URLs, views and buttons' reasons follow (none when empty)."""

    @property
    def namespace(self) -> str:
        """Its URLs' namespace and their prefix, its package's last name: `<name>:declare` at
        `encounters/<id>/<name>/declare/<id>/` (`combat.commands.system_urls`)."""
        return self._package.rpartition(".")[2]

    @property
    def urls(self) -> str:
        """The module of the system's own URL patterns beyond its commands', its `urls` (its pages, a command
        with an answer of its own, the old paths of what moved), when it has one; under its namespace."""
        name = f"{self._package}.urls"
        return name if importlib.util.find_spec(name) else ""

    @property
    def event_kinds(self) -> tuple[EventKind, ...]:
        """Every event kind the system writes (encounter log and saga records), each a unit with its payload
        type and the rest (`combat.events.EventKind`): its `events` module's EVENT_KINDS, each a subclass of
        `EventKind` (one object of each made here, once) or an `EventKind` made the old way; refused when a
        kind's class cannot be one (`kind_problems`)."""
        made = vars(self).get("_event_kinds")
        if made is None:
            declared = getattr(_module(f"{self._package}.events"), "EVENT_KINDS", ())
            refused = [p for each in declared for p in kind_problems(each) if p.id in REFUSED]
            if refused:
                raise TypeError("; ".join(each.message for each in refused))
            made = vars(self)["_event_kinds"] = tuple(
                each() if isinstance(each, type) else each for each in declared
            )
        return made

    @property
    def _package(self) -> str:
        return type(self).__module__.rpartition(".")[0]


@cache
def _kinds(paths: tuple[str, ...]) -> dict[str, EventKind]:
    kinds = {kind.name: kind for kind in CORE_KINDS}
    for system in load(paths).values():
        for kind in system.event_kinds:
            if kind.name in kinds:
                raise ValueError(f"event kind {kind.name!r} is declared twice")
            kinds[kind.name] = kind
    return kinds


def charted_kinds(system: RuleSystem) -> tuple[str, ...]:
    """The kinds the saga's charts read whatever the system's `Replay.CHART_KINDS` says: the core's kinds
    it folds (`FOLDED_KINDS`), and the system's kinds whose units fold, mark or tally (`EventKind.apply`,
    `marks`, `tally`)."""
    own = (
        kind.name
        for kind in system.event_kinds
        if any(getattr(type(kind), member) is not getattr(EventKind, member) for member in CHARTED)
    )
    return (*FOLDED_KINDS, *own)


CHARTED = ("apply", "marks", "tally")


def event_kind(name: str, system: RuleSystem | None = None) -> EventKind | None:
    """The declared kind of that name, the core's or the system's (any system's when None), or None."""
    kind = _kinds(configured()).get(name)
    if kind is None or system is None or kind in CORE_KINDS or kind in system.event_kinds:
        return kind
    return None


def kind_choices(system: RuleSystem | None = None) -> list[tuple[str, str]]:
    """(name, label) of the core's kinds and one system's (every system's when None): the history filter."""
    systems = [system] if system else all_systems()
    return [(kind.name, kind.label) for kind in CORE_KINDS] + [
        (kind.name, kind.label) for each in systems for kind in each.event_kinds
    ]
