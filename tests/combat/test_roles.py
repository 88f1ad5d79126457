"""A rule system's roles are classes it subclasses, checked by `manage.py check`: a misspelt member, other
parameters, a member every system gives left out, a log with secrets that does not say what players see
(docs/architecture.md, "Adding a rule system"). Each check meets a system broken on purpose here."""

from types import SimpleNamespace

import pytest
from django.core.management import call_command
from django.core.management.base import SystemCheckError
from django.test import override_settings
from typing_extensions import override

from combat import systems


class Files(systems.Files):
    @override
    def resolve(self, data):
        return data


class Sheet(systems.Sheet):
    @override
    def sheet_forms(self, saga, character, data=None):
        return None, None


class Page(systems.Page):
    @override
    def encounter_page(self, request, encounter, audience):
        return None

    @override
    def state_context(self, encounter, audience, facts=None):
        return {}


class Log(systems.Log):
    SECRETS = False


class Sound(systems.RuleSystem):
    """Every role it must give, and a log with no secrets."""

    key, label = "sound", "Sound"
    sheet, page, log, files = Sheet, Page, Log, Files


def ids(system: type[systems.RuleSystem]) -> list[str]:
    return [problem.id for problem in system.problems()]


def test_a_system_that_gives_what_it_must_has_no_problem():
    assert Sound.problems() == []
    sound = Sound()
    assert isinstance(sound.log, Log) and sound.replay.state_at([]) is None  # a role not named: the core's


class Misspelt(systems.Log):
    SECRETS = False

    @override
    def round_header(self, number):
        return f"Turn {number}"


def test_a_member_the_core_does_not_have_is_a_misspelling():
    (problem,) = systems.role_problems(systems.Log, Misspelt, "Misspelt")
    assert problem.id == "covenant.E001" and "Misspelt.round_header is not a member" in problem.message
    assert problem.hint == "did you mean round_heading?"
    Misspelling = type("Misspelling", (Sound,), {"log": Misspelt})
    with pytest.raises(TypeError, match="round_header is not a member"):
        assert Misspelling().log is None  # never: the role is refused when first read


class OtherParameters(systems.Log):
    SECRETS = False
    NPC_ROLLS = {}

    @override
    def event_label(self, event):
        return ""

    def sentence(self, kind, payload, names, *, storyguide):
        return ""

    round_heading = "Turn"


def test_other_parameters_another_sort_of_member_and_an_override_not_marked():
    problems = systems.role_problems(systems.Log, OtherParameters, "Other")
    assert [(p.id, p.message) for p in problems] == [
        ("covenant.E002", "Other.event_label should take (self, event, *, in_round=False), as the core's"),
        ("covenant.E006", "Other.sentence overrides the core's without saying so"),
        ("covenant.E002", "Other.round_heading should be a method, as the core's is"),
    ]


def test_a_member_every_system_gives_left_out():
    Panelless = type("Panelless", (Sound,), {"page": systems.Page})
    assert ids(Panelless) == ["covenant.E003"]
    assert "lacks state_context, which every system gives" in Panelless.problems()[0].message
    with pytest.raises(TypeError, match="lacks state_context"):
        assert Panelless().page is None


def test_a_role_named_by_a_path_that_is_not_there_or_not_the_role():
    Lost = type("Lost", (Sound,), {"__module__": __name__, "log": ".test_roles.Nowhere", "files": Sheet})
    problems = Lost.problems()
    assert [p.id for p in problems] == ["covenant.E005", "covenant.E005"]
    assert "Nowhere" in problems[0].message
    assert "not a subclass of combat.systems.Files" in problems[1].message


class Forgetful(systems.Log):
    """A log that says nothing of its secrets: it keeps the default, that it has some."""


class Secretive(systems.Log):
    @override
    def players_payload(self, event, own, players, npc_rolls):
        return {}


def test_a_log_with_secrets_must_say_what_players_see():
    assert [(p.id, p.message) for p in systems.role_problems(systems.Log, Secretive, "S")] == [
        ("covenant.E004", "S holds secrets (SECRETS) but does not say what players see: no players_record")
    ]
    assert ids(type("Forgets", (Sound,), {"log": Forgetful})) == ["covenant.E004", "covenant.E004"]


def test_a_log_that_forgets_shows_players_only_the_core_fields():
    log = type("Forgets", (Sound,), {"log": Forgetful})().log  # the check refuses it; the page does not
    added = {"combatant": "7", "name": "Bruno", "side": "Foes", "npc": True}
    shown = log.players_payload(SimpleNamespace(kind="combatant_added", payload=added), set(), set(), "")
    assert shown == added
    secret = {"combatant": "7", "dice": [9, 0], "total": 14}
    assert log.players_payload(SimpleNamespace(kind="attack", payload=secret), set(), set(), "") == {}
    assert log.players_record(SimpleNamespace(kind="time_passed", payload=secret), set(), "") == {}
    record = {"character": 3, "name": "Ada", "player": "ada", "was": ""}
    assert log.players_record(SimpleNamespace(kind="handed_over", payload=record), set(), "") == record
    shown = Sound().log.players_payload(SimpleNamespace(kind="attack", payload=secret), set(), set(), "")
    assert shown == secret  # a log with no secrets shows every payload whole


class Broken(Sound):
    """Registered by the test below alone: a misspelt member and a log that hides nothing it should."""

    key, label = "broken", "Broken"
    log = Forgetful
    replay = type("Replay", (systems.Replay,), {"surviving": lambda self, table, combatant_id: True})


def test_manage_py_check_reports_each_problem_of_an_installed_system():
    call_command("check")  # the installed systems: none
    with override_settings(RULE_SYSTEMS=[*systems.configured(), f"{__name__}.Broken"]):
        with pytest.raises(SystemCheckError) as raised:
            call_command("check")
    report = str(raised.value)
    assert "covenant.E004" in report and "covenant.E001" in report and "did you mean survived?" in report
    assert f"{__name__}.Broken" in report
