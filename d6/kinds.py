"""The d6 table's event kinds (Event.kind, at most 24 characters, all starting "d6_").

The names alone, which the services write and the wording reads: each kind is one unit in `d6.events`
(its label, payload type, line, sentence, players' version and effect on the replay).
"""

FIGHT_STARTED = "d6_fight_started"
ROLL = "d6_roll"
BREATHER = "d6_breather"
TURN_ENDED = "d6_turn_ended"
CHASE_STARTED = "d6_chase_started"
EXCHANGE = "d6_exchange"
TERRAIN_OFFERED = "d6_terrain_offered"
TERRAIN_CHOSEN = "d6_terrain_chosen"
CHASE_ENDED = "d6_chase_ended"
VALUE_SET = "d6_value_set"
FACES_IN = "d6_faces_in"
PASS_CHOICE = "d6_pass_choice"

ALL = (
    FIGHT_STARTED,
    ROLL,
    BREATHER,
    TURN_ENDED,
    CHASE_STARTED,
    EXCHANGE,
    TERRAIN_OFFERED,
    TERRAIN_CHOSEN,
    CHASE_ENDED,
    VALUE_SET,
    FACES_IN,
    PASS_CHOICE,
)
