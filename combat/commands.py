"""A command, declared once: its service and its `can_*` name it, and its URL (under its system's
namespace), its view, its refusal answers and the reason beside its disabled button follow, as a
`ModelAdmin` gives an admin its URLs and views. A system lists its commands (`RuleSystem.commands`);
`system_urls` makes each its path and its view; a panel asks `refusals` for its buttons' reasons."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field

from django.http import HttpResponsePermanentRedirect
from django.urls import include, path, reverse

from .views import encounter_command, posted_version


def versioned(request) -> dict:
    """What most commands read from their form: the version the page was drawn at, and nothing else."""
    return {"expected_version": posted_version(request)}


def fields(*names: str):
    """A form of plain fields: the version, and each named field as posted (blank when missing)."""

    def read(request) -> dict:
        return {**versioned(request), **{name: request.POST.get(name, "") for name in names}}

    return read


@dataclass(frozen=True)
class Command:
    """One command of a rule system. `service(user, encounter_id=..., **form(request))` does it (a
    `CombatError` refuses it); `can(table)`, the rules' `can_*` as the panel's table asks it, is the reason
    beside its button (None: offered); `storyguide_only` says who may give it (else any member, the service
    checks whose character); `name` is its URL's name in the system's namespace (the service's by
    default), `path` its path after `encounters/<id>/<namespace>/` (the name, with dashes, by default)."""

    service: Callable
    can: Callable | None = None
    storyguide_only: bool = True
    form: Callable[..., dict] = versioned
    name: str = field(default="", kw_only=True)
    path: str = field(default="", kw_only=True)

    def __post_init__(self) -> None:
        """The defaults of `name` and `path`, from the service's name."""
        if not self.name:
            object.__setattr__(self, "name", self.service.__name__)
        if not self.path:
            object.__setattr__(self, "path", self.name.replace("_", "-") + "/")

    def view(self, rule_system: str):
        """Its view: the check of who may and of the system (`encounter_command`, one read), the form read,
        the service called; the answer an empty error slot, the refusal beside the button, or a page."""

        @encounter_command(storyguide_only=self.storyguide_only, rule_system=rule_system)
        def command(request, encounter):
            self.service(request.user, encounter_id=encounter.pk, **self.form(request))

        command.__name__ = command.__qualname__ = self.name
        command.__doc__ = self.service.__doc__
        return command

    def refusal(self, table):
        """Why its button is disabled now (the rules' answer), or None."""
        return self.can(table) if self.can else None


def refusals(commands, table) -> dict[str, object]:
    """Each command's reason beside its button, by name (None: offered now)."""
    return {command.name: command.refusal(table) for command in commands if command.can}


def moved(name: str, view):
    """An old path of the view named `name`: a GET goes there for good (301); a post, from a page opened
    before the move, is answered by the view itself, so its form still works."""

    def old_path(request, **kwargs):
        if request.method == "GET":  # a HEAD too (config/head.py)
            return HttpResponsePermanentRedirect(reverse(name, kwargs=kwargs))
        return view(request, **kwargs)

    return old_path


def commands_of(system) -> tuple[Command, ...]:
    """The system's commands, named by `RuleSystem.commands` (".services.COMMANDS"); none if it names none."""
    if not system.commands:
        return ()
    module, _, name = system.commands.rpartition(".")
    package = type(system).__module__.rpartition(".")[0]
    return tuple(getattr(importlib.import_module(module, package), name))


def system_urls(system):
    """The system's URLs, under its namespace (`system.namespace`): each command's, at
    `encounters/<id>/<namespace>/<path>`, then its `urls` module's own (its pages, commands with answers of
    their own, the old paths of what moved)."""
    prefix = f"encounters/<id:encounter_id>/{system.namespace}/"
    patterns = [path(prefix + c.path, c.view(system.key), name=c.name) for c in commands_of(system)]
    if system.urls:
        patterns += importlib.import_module(system.urls).urlpatterns
    return path("", include((patterns, system.namespace)))
