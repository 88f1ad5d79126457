"""The registry of rule systems and the interface it documents: every member says what a system
provides, the core names no system, and a saga finds its system by key."""

import ast
import inspect
import subprocess
from importlib import import_module
from pathlib import Path

import pytest

from combat import systems
from combat.events import CORE_KINDS

ROOT = Path(__file__).resolve().parents[2]
SYSTEM_WORDS = r"arsmagica|ars_magica|ars magica|d6|d6table|is_d6"


def documented_members(cls) -> dict[str, bool]:
    """Each public member of a class body, and whether a docstring says what it is."""
    body = ast.parse(inspect.getsource(cls)).body[0].body
    members = {}
    for index, node in enumerate(body):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            members[node.name] = ast.get_docstring(node) is not None
        elif isinstance(node, ast.AnnAssign | ast.Assign):
            target = node.target if isinstance(node, ast.AnnAssign) else node.targets[0]
            after = body[index + 1] if index + 1 < len(body) else None
            documented = isinstance(after, ast.Expr) and isinstance(
                getattr(after, "value", None), ast.Constant
            )
            members[target.id] = documented
    return {name: documented for name, documented in members.items() if not name.startswith("_")}


ROLES = (systems.Sheet, systems.Page, systems.Log, systems.Archive, systems.Replay, systems.Files)


def test_every_member_of_the_rule_system_interface_says_what_it_provides():
    members = documented_members(systems.RuleSystem)
    roles = {"sheet", "page", "log", "archive", "replay", "files"}
    assert {"key", "label", "urls", "event_kinds", *roles} <= set(members)
    for role in (systems.RuleSystem, *ROLES):
        assert [name for name, documented in documented_members(role).items() if not documented] == []
    given = {name for role in ROLES for name in role.__abstractmethods__}
    assert given == {"state_context"}  # every system gives its panels; the rest has defaults


def test_every_installed_system_plays_every_role_through_a_class_of_its_own():
    for system in systems.all_systems():
        assert type(system).problems() == []
        for role in ROLES:
            played = getattr(system, role.__name__.lower())
            assert isinstance(played, role) and played is getattr(system, role.__name__.lower())  # made once
            assert role.members() <= set(dir(played))
        assert system.sheet.FORM_TEMPLATE and system.page.FRAME_TEMPLATE  # a sheet with no scores shows none
    ars, d6 = systems.get("arsmagica"), systems.get("d6fatigue")
    assert type(ars.replay) is import_module("arsmagica.replay").Replay
    assert type(d6.page) is import_module("d6.views").Page
    assert (
        ars.urls == "arsmagica.urls"
        and ars.namespace == "arsmagica"
        and d6.log.STYLESHEETS == ("css/d6.css",)
    )
    assert ars.archive.COMBATANT_KEYS == {"attacker", "defender", "caster"}
    assert "runner" in d6.archive.COMBATANT_KEYS
    assert d6.replay.takes_back(None, []) == [] and d6.replay.UNDO_KINDS == ()  # the default: no undo


def test_the_core_names_no_rule_system():
    found = subprocess.run(
        # -I: text files only (an icon's bytes may spell a name by chance)
        ["git", "grep", "-I", "-niwE", SYSTEM_WORDS, "--", "combat", "campaign"]
        + [":(exclude,glob)**/migrations/**"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    ).stdout.splitlines()
    assert found == []  # the installed list is config's (config/rule_systems.py)


def test_a_saga_finds_its_system_by_key_and_an_unknown_key_is_refused():
    assert systems.get("arsmagica").label == "Ars Magica 3rd edition"
    assert systems.get("d6fatigue").label == "d6 fatigue track"
    with pytest.raises(systems.UnknownSystem):
        systems.get("gurps")
    assert ("coinduel", "Coin duel") in systems.choices()  # the test settings add the toy system


def test_the_installed_systems_read_as_one_sentence():
    assert systems.played().startswith("Ars Magica, d6 fatigue-track and Coin duel")


def test_each_system_declares_its_own_event_kinds_and_the_history_offers_core_and_its_own():
    ars, d6 = systems.get("arsmagica"), systems.get("d6fatigue")
    assert systems.event_kind("attack", ars).name == "attack"
    assert systems.event_kind("attack", d6) is None and systems.event_kind("d6_roll", d6).name == "d6_roll"
    offered = dict(systems.kind_choices(d6))
    assert set(offered) == {kind.name for kind in (*CORE_KINDS, *d6.event_kinds)}
    assert "attack" not in offered
