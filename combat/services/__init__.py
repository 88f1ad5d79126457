"""The only code that changes an encounter: each use case locks the encounter, checks the
expected version, calls the rules, saves, appends events and broadcasts after commit."""

from .corrections import correct, end_encounter
from .declarations import close_declarations, declare, open_declarations
from .phases import confirm_phase, end_round, preview_phase
from .recovery import pass_time, record_exertion, sleep_night
from .setup import add_combatants, create_encounter, remove_combatant

__all__ = [
    "add_combatants",
    "close_declarations",
    "confirm_phase",
    "correct",
    "create_encounter",
    "declare",
    "end_encounter",
    "end_round",
    "open_declarations",
    "pass_time",
    "preview_phase",
    "record_exertion",
    "remove_combatant",
    "sleep_night",
]
