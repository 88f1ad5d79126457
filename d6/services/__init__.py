"""The d6 table's use cases: each locks the encounter, checks the expected version, calls the
d6 rules engine (d6.rules), saves rows, logs events and pushes them after commit; and what set-up asks
of the table role (`combat.systems.Page`: set-up's refusal, the rounds played)."""

from .chase import (
    choose_at_target,
    choose_terrain,
    enter_faces,
    exchange,
    offer_terrain,
    runner_breather,
    start_chase,
)
from .fight import (
    cluster_attack,
    end_turn,
    roll,
    set_challenge_value,
    start_fight,
    take_breather,
)
from .setup import create_encounter, set_attributes

__all__ = [
    "choose_at_target",
    "choose_terrain",
    "cluster_attack",
    "create_encounter",
    "set_attributes",
    "end_turn",
    "enter_faces",
    "exchange",
    "offer_terrain",
    "roll",
    "runner_breather",
    "set_challenge_value",
    "start_chase",
    "start_fight",
    "take_breather",
]
