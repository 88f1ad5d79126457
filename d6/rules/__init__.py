"""The d6 fatigue-track system (seed 001, RULES.md Part 2): pure rules, no Django, no I/O.

One job per module:
- `challenge`: the dice challenge (one d6 plus |Consistency| d10, Potential, every face kept);
- `odds`: its exact odds as fractions;
- `fatigue`: the 1..20 track, base fatigue, the automatic failure and the rise by one;
- `attempt`: a challenge rolled by a character with a fatigue;
- `initiative`, `fight`: a turn-based fight, one rise per turn, the breather
  (`fight.take_breather`; `chase.take_breather` refuses while the runner still runs);
- `chase`: chases on a grid, one exchange at a time;
- `encounter_file`: `python -m combat.rules resolve` for `rules: "d6fatigue"` files.
"""

from .attempt import Attempt, attempt
from .challenge import Challenge, ChallengeRoll, dice_from_faces, die_result, roll_challenge
from .chase import (
    CAUGHT,
    ESCAPED,
    ONGOING,
    OVERTAKEN,
    ChaseState,
    Exchange,
    Runner,
    Score,
    Terrain,
    change_terrain,
    exchange,
    offer_terrain,
    start_chase,
)
from .fatigue import base_fatigue
from .fight import (
    Fighter,
    FightRoll,
    FightState,
    end_turn,
    fight_roll,
    ranged_attack_into_cluster,
    start_fight,
)
from .initiative import InitiativeRoll, roll_initiative
from .odds import chance_to_meet, die_result_distribution

__all__ = [
    "CAUGHT",
    "ESCAPED",
    "ONGOING",
    "OVERTAKEN",
    "Attempt",
    "Challenge",
    "ChallengeRoll",
    "ChaseState",
    "Exchange",
    "FightRoll",
    "FightState",
    "Fighter",
    "InitiativeRoll",
    "Runner",
    "Score",
    "Terrain",
    "attempt",
    "base_fatigue",
    "chance_to_meet",
    "change_terrain",
    "dice_from_faces",
    "die_result",
    "die_result_distribution",
    "end_turn",
    "exchange",
    "fight_roll",
    "offer_terrain",
    "ranged_attack_into_cluster",
    "roll_challenge",
    "roll_initiative",
    "start_chase",
    "start_fight",
]
