"""The d6 table's use cases: each locks the encounter, checks the expected version, calls the
d6 rules engine (combat.rules.d6), saves rows, logs events and pushes them after commit."""

from .chase import choose_terrain, exchange, offer_terrain, runner_breather, start_chase
from .fight import end_turn, roll, start_fight, take_breather
from .setup import create_encounter

__all__ = [
    "choose_terrain",
    "create_encounter",
    "end_turn",
    "exchange",
    "offer_terrain",
    "roll",
    "runner_breather",
    "start_chase",
    "start_fight",
    "take_breather",
]
