"""The Ars Magica round's commands: each runs in the core's command frame (`combat.services.log`),
calls the rules engine, saves, and appends its events. The core's set-up commands are here too, so
an Ars Magica table has one namespace of commands; and what set-up asks of the page role
(`combat.systems.Page`: set-up's refusal, the combatants changed, the rounds played)."""

from combat.services import add_combatants, end_encounter, remove_combatant

from .corrections import correct
from .declarations import (
    close_declarations,
    declare,
    declare_as_before,
    declare_npcs_as_before,
    open_declarations,
)
from .phases import confirm_phase, end_round, preview_phase, undo_phase
from .recovery import pass_time, record_exertion, sleep_night
from .round import combatants_changed
from .setup import create_encounter

__all__ = [
    "add_combatants",
    "close_declarations",
    "combatants_changed",
    "confirm_phase",
    "correct",
    "create_encounter",
    "declare",
    "declare_as_before",
    "declare_npcs_as_before",
    "end_encounter",
    "end_round",
    "open_declarations",
    "pass_time",
    "preview_phase",
    "record_exertion",
    "remove_combatant",
    "sleep_night",
    "undo_phase",
]
