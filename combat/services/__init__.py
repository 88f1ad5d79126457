"""The core's commands: each locks the encounter, checks the expected version, saves, appends
events and broadcasts after commit (`log`). A rule system's own commands live in its folder."""

from .setup import add_combatants, create_encounter, end_encounter, remove_combatant

__all__ = ["add_combatants", "create_encounter", "end_encounter", "remove_combatant"]
