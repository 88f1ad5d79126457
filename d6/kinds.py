"""The d6 table's event kinds (Event.kind, at most 24 characters, all starting "d6_").

Their history lines are `templates/d6table/events/<kind>.html`; their payload types are in
`d6.events`.
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

KINDS = {
    FIGHT_STARTED: "Fight started: initiative",
    ROLL: "Dice challenge",
    BREATHER: "Breather",
    TURN_ENDED: "Turn ended",
    CHASE_STARTED: "Chase started",
    EXCHANGE: "Chase exchange",
    TERRAIN_OFFERED: "Terrain offered",
    TERRAIN_CHOSEN: "Terrain chosen",
    CHASE_ENDED: "Chase ended",
    VALUE_SET: "Challenge value set",
    FACES_IN: "Dice typed in",
    PASS_CHOICE: "Choice at the target",
}
