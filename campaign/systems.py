"""The registry of rule systems: which are installed, and the saga's.

It sits at the bottom, with the sagas, so that anything may ask it: a saga's page and its characters' sheets
as much as the table. A system is found by its dotted path (settings' RULE_SYSTEMS) and made when first
asked for, so nothing here imports the table core or a system; what a system provides is
`combat.systems.RuleSystem`. Imports nothing of Django's at module level: the command line resolves
encounter files through the registry with no settings.
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any

from config.rule_systems import INSTALLED_SYSTEMS


class UnknownSystem(LookupError):
    """No installed rule system has that key."""


def configured() -> tuple[str, ...]:
    """Settings' RULE_SYSTEMS when Django is set up; the installed list on the bare command line."""
    from django.conf import settings

    if settings.configured:
        return tuple(getattr(settings, "RULE_SYSTEMS", INSTALLED_SYSTEMS))
    return INSTALLED_SYSTEMS


@cache
def load(paths: tuple[str, ...]) -> dict:
    """Each system of those dotted paths (a `combat.systems.RuleSystem`, made once), by its key."""
    systems = {}
    for path in paths:
        module, _, name = path.rpartition(".")
        system = getattr(importlib.import_module(module), name)()
        systems[system.key] = system
    return systems


def all_systems() -> list:
    """Every installed system, in the order they are installed."""
    return list(load(configured()).values())


def get(key: str) -> Any:
    """The system stored as `key`; UnknownSystem when none is installed under it."""
    try:
        return load(configured())[key]
    except KeyError:
        raise UnknownSystem(key) from None


def of(saga) -> Any:
    """The saga's rule system."""
    return get(saga.rule_system)


def played() -> str:
    """The installed systems in a sentence: "A", "A and B", "A, B and C"."""
    names = [system.short_name or system.label for system in all_systems()]
    return " and ".join(filter(None, [", ".join(names[:-1]), names[-1]])) if names else ""


def choices() -> list[tuple[str, str]]:
    """(key, label) for every installed system: the saga form's choice."""
    return [(system.key, system.label) for system in all_systems()]
