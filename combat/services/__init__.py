"""The core's commands: each locks the encounter, checks the expected version, saves, appends
events and broadcasts after commit (`log`). A rule system's own commands live in its folder."""

from .seat import hand_over_seat
from .setup import (
    add_combatants,
    create_encounter,
    delete_encounter,
    end_encounter,
    remove_combatant,
    rename_combatants,
    rename_encounter,
    set_encounter_archived,
)

__all__ = [
    "add_combatants",
    "create_encounter",
    "delete_encounter",
    "end_encounter",
    "remove_combatant",
    "rename_combatants",
    "rename_encounter",
    "set_encounter_archived",
    "hand_over_seat",
]
