"""An event kind is one unit (`combat.events.EventKind`): a system subclasses it per kind, every member has
its default, the roles' defaults hand each event to its kind, and `manage.py check` reports a member the
base does not have (docs/architecture.md, "Event kinds"). A system is made here, in modules of its own put
in `sys.modules`, so the registry finds its kinds as it finds an installed system's."""

import sys
import types
from types import SimpleNamespace
from typing import TypedDict
from unittest.mock import patch

import pytest
from django.core.management import call_command
from django.core.management.base import SystemCheckError
from django.test import override_settings
from typing_extensions import override

from combat import systems
from combat.events import (
    CORE_BY_NAME,
    FOLDED_KINDS,
    EventKind,
    NoFields,
    PayloadMismatch,
    ReplayTable,
    check_payload,
    fold_core,
)
from combat.systems import Pushed
from tests.combat.test_roles import Sound


class RangPayload(TypedDict):
    bell: str
    strokes: int


class Rang(EventKind):
    """A kind with a sentence, a players' version, an effect, a mark and a tally, and the panel it changes."""

    name, label, payload = "bell_rang", "Bell rang", RangPayload
    panels = frozenset({"belfry"})

    @override
    def sentence(self, payload, names, *, storyguide):
        return f"The {payload['bell']} bell rings {payload['strokes']} times."

    @override
    def for_players(self, event, own, players, npc_rolls):
        return {"bell": event.payload["bell"]}

    @override
    def for_players_record(self, record, characters, npc_rolls):
        return {"bell": record.payload["bell"]}

    @override
    def apply(self, table, event):
        return [*table, event.payload["strokes"]]

    @override
    def marks(self, event):
        return [("hit", "1", "rang")]

    @override
    def tally(self, event):
        return [("1", "attacks", event.payload["strokes"])]

    @override
    def rolls(self, event):
        return [(1, event.payload["strokes"], "strokes"), (2, None, "hidden"), (3, True, "a flag")]


class Hushed(EventKind):
    """A kind that declares its name alone: every other member is the default."""

    name, label = "bell_hushed", "Bell hushed"


class Bells(Sound):
    key, label = "bells", "Bells"
    log = type("Log", (systems.Log,), {})  # holds secrets (the default), says nothing of them itself
    replay = type("Replay", (systems.Replay,), {"start": override(lambda self: [])})  # a list of strokes


@pytest.fixture
def bells(monkeypatch):
    """The bells system installed, its kinds in its `events` module."""
    for name, module in {
        "belltower": types.ModuleType("belltower"),
        "belltower.system": types.ModuleType("belltower.system"),
        "belltower.events": types.ModuleType("belltower.events"),
    }.items():
        monkeypatch.setitem(sys.modules, name, module)
    sys.modules["belltower"].__path__ = []  # a package, with no modules on disk
    sys.modules["belltower.events"].EVENT_KINDS = (Rang, Hushed)
    system = type("Bells", (Bells,), {"__module__": "belltower.system"})
    sys.modules["belltower.system"].Bells = system
    with override_settings(RULE_SYSTEMS=[*systems.configured(), "belltower.system.Bells"]):
        yield systems.get("bells")


def event(kind, payload):
    return SimpleNamespace(kind=kind, payload=payload)


def test_a_kind_left_to_its_defaults():
    hushed = Hushed()
    assert hushed.payload is NoFields and hushed.panels is None  # no fields; every panel
    assert hushed.template == "combat/events/bell_hushed.html"  # its package's folder: tests/combat here
    check_payload(hushed, {})
    with pytest.raises(PayloadMismatch):
        check_payload(hushed, {"anything": 1})
    said = event("bell_hushed", {"anything": 1})
    assert hushed.sentence({}, {}, storyguide=True) == ""
    assert hushed.for_players(said, set(), set(), "") == {}  # nothing of its own: it fails closed
    assert hushed.for_players_record(said, set(), "") == {}
    assert hushed.apply(["table"], said) == ["table"]
    assert hushed.marks(said) == [] and hushed.tally(said) == [] and hushed.rolls(said) == []
    with pytest.raises(ValueError, match="longer than 24"):
        EventKind("a" * 25, "Too long", NoFields, "x.html")


def test_a_kind_that_holds_no_secret_says_so_and_is_seen_whole():
    """`secret = False` shows players the payload whole; a kind that leaves it as it is shows them nothing
    of its own."""

    class Tolled(EventKind):
        name, secret = "bell_tolled", False

    said = event("bell_tolled", {"bell": "great"})
    assert Tolled().for_players(said, set(), set(), "") == {"bell": "great"}
    assert Tolled().for_players_record(said, set(), "") == {"bell": "great"}
    assert Hushed().secret and Hushed().for_players(event("bell_hushed", {"x": 1}), set(), set(), "") == {}


def test_the_roles_defaults_hand_each_event_to_its_kind(bells):
    rang = event("bell_rang", {"bell": "great", "strokes": 3})
    assert [type(kind) for kind in bells.event_kinds] == [Rang, Hushed]
    assert bells.event_kinds is bells.event_kinds  # one object of each kind, made once
    assert systems.event_kind("bell_rang", bells) is bells.event_kinds[0]
    said = bells.log.sentence("bell_rang", rang.payload, {}, storyguide=False)
    assert said == "The great bell rings 3 times."
    assert bells.log.players_payload(rang, set(), set(), "") == {"bell": "great"}
    assert bells.log.players_record(rang, set(), "") == {"bell": "great"}
    assert bells.log.players_payload(event("bell_hushed", {"x": 1}), set(), set(), "") == {}
    assert bells.replay.state_at([rang, event("bell_hushed", {}), rang]) == [3, 3]
    assert bells.replay.chart_marks(rang) == [("hit", "1", "rang")]
    assert bells.replay.chart_tally(rang) == [("1", "attacks", 3)]
    assert bells.replay.recap_rolls(rang) == [("1", 3, "strokes")]  # no total, or a flag: left out
    assert bells.replay.recap_rolls(event("bell_hushed", {})) == []
    # A core kind is its unit too: its sentence is said once, in the core.
    added = {"combatant": "7", "name": "Bruno", "side": "Foes", "npc": True}
    assert CORE_BY_NAME["combatant_added"].sentence(added, {}, storyguide=True) == (
        "Bruno joins the fight on the side of Foes."
    )


class Misspelt(EventKind):
    name, label = "bell_misspelt", "Misspelt"
    panel = frozenset({"belfry"})  # for panels


class Unsaid(EventKind):
    name, label = "bell_unsaid", "Unsaid"

    def sentence(self, payload, names, *, storyguide):  # no @override
        return ""


class OtherParameters(EventKind):
    name, label = "bell_other", "Other"

    @override
    def apply(self, table):
        return table


def test_a_kind_is_checked_as_a_role_is():
    (problem,) = systems.kind_problems(Misspelt)
    assert problem.id == "covenant.E001" and problem.hint == "did you mean panels?"
    assert "Misspelt.panel is not a member of combat.events.EventKind" in problem.message
    assert [p.id for p in systems.kind_problems(Unsaid)] == ["covenant.E006"]
    (problem,) = systems.kind_problems(OtherParameters)
    assert problem.id == "covenant.E002" and "should take (self, table, event)" in problem.message
    assert [p.id for p in systems.kind_problems(object)] == ["covenant.E005"]
    assert systems.kind_problems(Rang) == systems.kind_problems(EventKind("x", "X", NoFields, "x.html")) == []


def test_a_log_whose_kinds_say_what_players_see_needs_no_players_payload(bells, monkeypatch):
    monkeypatch.setattr(sys.modules["belltower.events"], "EVENT_KINDS", (Rang,))
    assert type(bells).problems() == []
    monkeypatch.setattr(sys.modules["belltower.events"], "EVENT_KINDS", (Rang, Hushed, Misspelt))
    found = [p.id for p in type(bells).problems()]
    # Hushed and Misspelt do not say what players see: the log must, or the check says so.
    assert found == ["covenant.E004", "covenant.E004", "covenant.E001"]
    with pytest.raises(SystemCheckError) as raised:
        call_command("check")
    assert "Misspelt.panel is not a member of combat.events.EventKind" in str(raised.value)


class Seats(ReplayTable):
    """A replay table that writes down what the core's kinds did to it."""

    def __init__(self):
        self.done = []

    @override
    def join(self, combatant, name, side, npc, levels):
        self.done.append(("join", combatant, name, side, npc, levels))

    @override
    def leave(self, combatant):
        self.done.append(("leave", combatant))

    @override
    def rename(self, combatant, name):
        self.done.append(("rename", combatant, name))

    @override
    def end(self):
        self.done.append(("end",))


ADA = {"f": 1}


def test_the_core_folds_its_own_kinds_over_the_table_each_system_gives():
    log = [
        event("encounter_created", {"name": "Dawn"}),
        event("combatant_added", {"combatant": "7", "name": "Bruno", "side": "Foes", "npc": True}),
        event("combatant_added", {"combatant": "8", "name": "Ada", "side": "Us", "npc": 0, "levels": ADA}),
        event("combatant_renamed", {"combatant": "7", "name": "Bruno the Bold", "was": "Bruno"}),
        event("combatant_removed", {"combatant": "8", "name": "Ada"}),
        event("handed_over", {"character": 3, "name": "Ada", "player": "bob", "was": "ada"}),
        event("encounter_ended", {"rounds": 2}),
    ]
    seats = Seats()
    for each in log:
        assert fold_core(seats, each) is seats
    assert seats.done == [
        ("join", "7", "Bruno", "Foes", True, {}),
        ("join", "8", "Ada", "Us", False, ADA),  # npc as a bool
        ("rename", "7", "Bruno the Bold"),
        ("leave", "8"),
        ("end",),
    ]
    assert FOLDED_KINDS == ("combatant_added", "combatant_removed", "combatant_renamed", "encounter_ended")
    assert systems.Replay().state_at(log) is None  # no table (the core's replay): nothing to fold over
    for system in systems.all_systems():  # every system's table is one the core folds its kinds over
        table = system.replay.start()
        assert table is None or isinstance(table, ReplayTable), system.key
        system.replay.state_at(log[:2])  # and a system's fold hands the core's kinds to the core
        if table is not None:
            assert system.replay.state_at(log[:2]) != system.replay.start()


def test_a_frame_pushes_the_panels_its_events_name(bells):
    def named(*kinds, replay=False):
        return systems.frame_panels(bells, [event(kind, {}) for kind in kinds], replay=replay)

    assert named("bell_rang") == Pushed(frozenset({"belfry"}))
    assert "belfry" in named("bell_rang") and "nave" not in named("bell_rang")
    assert named() == Pushed(frozenset())  # nothing happened: no panel
    assert named("bell_rang", "bell_hushed") is Pushed.EVERY  # a kind that names none changes every one
    assert "nave" in named("bell_hushed") and named("bell_rang", replay=True) is Pushed.EVERY
    assert named("combatant_added") is Pushed.EVERY  # a core kind its system does not place: every panel
    assert named("no_such_kind") is Pushed.EVERY
    assert named("bell_rang") | {"nave"} == Pushed(frozenset({"belfry", "nave"}))
    placed = {"combatant_added": frozenset({"nave"}), "combatant_renamed": frozenset()}
    with patch.object(type(bells.page), "CORE_KIND_PANELS", placed):
        assert named("combatant_added", "bell_rang") == Pushed(frozenset({"nave", "belfry"}))
        assert named("combatant_renamed") == Pushed(frozenset())
