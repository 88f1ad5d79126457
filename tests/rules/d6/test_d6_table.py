"""May this happen now? The table's checks (d6 seed), given a table: None, or the reason and its kind."""

from dataclasses import replace

from d6.rules.chase import Runner, Score, Terrain, start_chase
from d6.rules.fight import Fighter, start_fight
from d6.rules.table import (
    BAD_INPUT,
    NOT_YOURS,
    STALE,
    STORYGUIDE,
    WRONG_TIME,
    Actor,
    Defence,
    TableState,
    can_change_combatants,
    can_choose_at_target,
    can_choose_terrain,
    can_cluster_attack,
    can_end_turn,
    can_enter_faces,
    can_exchange,
    can_offer_terrain,
    can_roll,
    can_set_value,
    can_start_chase,
    can_start_fight,
    can_take_breather,
    can_take_runner_breather,
    unrollable,
)

NAMES = (("1", "Anna"), ("2", "Bram"), ("3", "Cara"))
ANNA = Actor(storyguide=False, plays=frozenset({"1"}))
BRAM = Actor(storyguide=False, plays=frozenset({"2"}))
MARKET = Terrain("Market streets", "running")


def table(**changes) -> TableState:
    """Anna, Bram and Cara at the table; Anna is played by alice, the others are NPCs."""
    return replace(TableState(status="running", names=NAMES, played=(("1", "alice"),)), **changes)


def fighting(**changes) -> TableState:
    """Anna acts first, then Bram."""
    fight = start_fight([Fighter.from_sheet("1", stamina=3), Fighter.from_sheet("2", stamina=3)])
    return table(fight=replace(fight, **changes))


def chasing(**changes) -> TableState:
    """Anna runs on the market streets; Bram is one square behind her, Cara three."""

    def runner(who, distance=None):
        return Runner(who, fatigue=1, base_fatigue=1, scores={"running": Score(1)}, distance=distance)

    chase = start_chase(runner("1"), [runner("2", 1), runner("3", 3)], MARKET)
    return table(chase=replace(chase, **changes))


def refused(reason, kind: str, text: str) -> bool:
    return reason == text and reason.kind == kind


def test_combatants_join_or_leave_only_outside_a_fight_or_chase():
    assert can_change_combatants(table(status="preparing")) is None
    reason = can_change_combatants(table())
    assert refused(
        reason,
        WRONG_TIME,
        "Combatants join or leave before the fight or the chase starts.",
    )


def test_a_fight_needs_two_combatants_and_starts_once_outside_a_chase():
    assert can_start_fight(table()) is None
    assert refused(
        can_start_fight(table(names=NAMES[:1])),
        BAD_INPUT,
        "A fight needs at least two combatants: add them first.",
    )
    assert refused(can_start_fight(fighting()), WRONG_TIME, "The fight has already started.")
    assert refused(
        can_start_fight(chasing()), WRONG_TIME, "A chase is running: start the fight when it ends."
    )


def test_nothing_is_rolled_before_initiative():
    reason = can_roll(table(), STORYGUIDE, "1")
    assert refused(reason, WRONG_TIME, "The fight has not started: roll initiative first.")


def test_a_player_rolls_on_their_own_turn_against_the_storyguides_value():
    assert can_roll(fighting(), ANNA, "1") is None
    assert refused(
        can_roll(fighting(), ANNA, "2"), NOT_YOURS, "Only Bram's player or the storyguide can do that."
    )
    assert refused(
        can_roll(fighting(turn=1), ANNA, "1"),
        NOT_YOURS,
        "Anna acts on their own turn, or defends when attacked.",
    )
    assert refused(
        can_roll(fighting(), ANNA, "1", value_given=True),
        NOT_YOURS,
        "The storyguide sets the challenge value.",
    )


def test_only_the_awaited_defender_rolls_and_a_defence_has_no_target():
    state = replace(fighting(acted=True), defence=Defence(attacker="1", defender="2"))
    assert can_roll(state, STORYGUIDE, "2") is None
    assert refused(can_roll(state, STORYGUIDE, "1"), WRONG_TIME, "Bram must defend first (or end the turn).")
    assert refused(can_roll(state, STORYGUIDE, "2", target="1"), BAD_INPUT, "A defence has no target.")


def test_a_breather_was_the_turns_action_and_nobody_attacks_themself():
    assert refused(
        can_roll(fighting(took_breather=True), STORYGUIDE, "1"),
        BAD_INPUT,
        "Anna took a breather: that was the turn's action",
    )
    assert refused(
        can_roll(fighting(), STORYGUIDE, "1", target="1"), BAD_INPUT, "Anna cannot attack themself"
    )
    assert refused(
        can_roll(fighting(), STORYGUIDE, "1", target="9"), BAD_INPUT, "That combatant is not in this fight."
    )


def test_a_shot_into_a_cluster_is_the_shooters_own_turn():
    assert can_cluster_attack(fighting(), STORYGUIDE, "1") is None
    assert refused(
        can_cluster_attack(fighting(), STORYGUIDE, "2"),
        NOT_YOURS,
        "Bram can shoot into a cluster only on their own turn.",
    )
    state = replace(fighting(), defence=Defence(attacker="1", defender="2"))
    assert refused(can_cluster_attack(state, STORYGUIDE, "1"), WRONG_TIME, "Settle the defence first.")


def test_a_defence_always_has_a_challenge_value():
    assert can_set_value(fighting(), value_given=False) is None
    state = replace(fighting(), defence=Defence(attacker="1", defender="2"))
    assert refused(
        can_set_value(state, value_given=False),
        BAD_INPUT,
        "A defence needs a challenge value: the attack's result, or yours.",
    )


def test_a_breather_is_the_whole_turn_and_never_during_a_chase():
    assert can_take_breather(fighting(), ANNA) is None
    assert refused(
        can_take_breather(fighting(acted=True), STORYGUIDE),
        BAD_INPUT,
        "Anna already acted this turn: a breather is the whole action",
    )
    assert refused(
        can_take_breather(fighting(took_breather=True), STORYGUIDE),
        BAD_INPUT,
        "Anna already took a breather this turn",
    )
    assert refused(
        can_take_breather(replace(fighting(), chase=chasing().chase), STORYGUIDE),
        WRONG_TIME,
        "A chase is running: fatigue cannot be lowered during a chase.",
    )
    assert refused(
        can_take_breather(replace(fighting(), defence=Defence("1", "2")), STORYGUIDE),
        WRONG_TIME,
        "Settle the defence first: a breather is the whole turn.",
    )


def test_a_player_ends_their_turn_once_no_defence_is_awaited():
    assert can_end_turn(fighting(), ANNA) is None
    assert refused(
        can_end_turn(fighting(), BRAM), NOT_YOURS, "Only Anna's player or the storyguide can do that."
    )
    state = replace(fighting(), defence=Defence("1", "2"))
    assert can_end_turn(state, STORYGUIDE) is None
    assert refused(
        can_end_turn(state, ANNA),
        WRONG_TIME,
        "A defence is awaited: it is rolled first, or the storyguide ends the turn.",
    )


def test_one_chase_at_a_time():
    assert can_start_chase(table()) is None
    assert refused(can_start_chase(chasing()), WRONG_TIME, "A chase is already running.")


def test_every_runner_needs_the_score_the_terrain_calls_for():
    rooftops = Terrain("Rooftops", "climbing")
    assert unrollable(chasing(), [MARKET]) is None
    assert refused(
        unrollable(chasing(), [rooftops]), BAD_INPUT, "Anna's sheet has no 'climbing' to roll on Rooftops."
    )
    assert refused(can_offer_terrain(chasing(), []), BAD_INPUT, "Offer at least one terrain.")
    assert can_offer_terrain(chasing(), [MARKET]) is None


def test_an_exchange_waits_for_a_players_dice():
    assert can_exchange(table()) == "No chase is running."
    state = replace(chasing(), physical_dice=True)
    assert can_exchange(state) is None
    assert refused(
        can_exchange(state, typed=()),
        BAD_INPUT,
        "Waiting for Anna's dice: alice types them, or you do.",
    )
    assert can_exchange(state, typed=("1",)) is None
    assert can_exchange(replace(state, dice_in=frozenset({"1"})), typed=()) is None


def test_the_target_chooses_an_offered_terrain():
    state = chasing(offered=(Terrain("Rooftops", "running"),))
    assert can_choose_terrain(state, ANNA, "Rooftops") is None
    assert refused(
        can_choose_terrain(state, STORYGUIDE, "Rooftops"),
        NOT_YOURS,
        "Only Anna's player chooses the terrain.",
    )
    assert refused(
        can_choose_terrain(state, ANNA, "River"), BAD_INPUT, "'River' was not offered (offered: Rooftops)"
    )


def test_fatigue_is_not_lowered_while_the_runner_still_runs():
    reason = can_take_runner_breather(chasing(), "2")
    assert refused(reason, WRONG_TIME, "Bram is still running: fatigue cannot be lowered during a chase.")
    assert refused(can_take_runner_breather(chasing(), "9"), BAD_INPUT, "That combatant is not in the chase.")


def test_a_runner_types_dice_only_for_the_next_exchange():
    state = replace(chasing(), physical_dice=True)
    assert can_enter_faces(state, ANNA, "1", 1) is None
    assert refused(
        can_enter_faces(state, ANNA, "1", 2),
        STALE,
        "The chase has moved on to exchange 1; nothing was changed. Look again.",
    )
    assert refused(
        can_enter_faces(state, ANNA, "2", 1), NOT_YOURS, "Only Bram's player or the storyguide can do that."
    )
    assert refused(
        can_enter_faces(chasing(), ANNA, "1", 1),
        WRONG_TIME,
        "This saga's dice are rolled by the server: the storyguide rolls the exchange.",
    )


def test_only_a_chaser_chooses_what_to_do_at_the_target():
    assert can_choose_at_target(chasing(), STORYGUIDE, "2", 1) is None
    assert refused(
        can_choose_at_target(chasing(), STORYGUIDE, "1", 1),
        BAD_INPUT,
        "Only a chaser can move ahead of the target.",
    )


def test_an_ended_encounter_takes_no_command_and_no_choice_of_terrain():
    over = {"status": "ended"}
    offered = chasing(offered=(MARKET,))
    assert can_choose_terrain(offered, ANNA, "Market streets") is None  # while the encounter lasts
    checks = (
        can_change_combatants(table(**over)),
        can_start_fight(table(**over)),
        can_start_chase(table(**over)),
        can_roll(replace(fighting(), **over), STORYGUIDE, "1"),
        can_cluster_attack(replace(fighting(), **over), STORYGUIDE, "1"),
        can_set_value(replace(fighting(), **over)),
        can_take_breather(replace(fighting(), **over), STORYGUIDE),
        can_end_turn(replace(fighting(), **over), STORYGUIDE),
        can_exchange(replace(offered, **over)),
        can_offer_terrain(replace(offered, **over)),
        can_choose_terrain(replace(offered, **over), ANNA, "Market streets"),
        can_choose_terrain(replace(offered, **over), ANNA),
        can_take_runner_breather(replace(offered, **over), "2"),
        can_enter_faces(replace(offered, physical_dice=True, **over), ANNA, "1", 1),
        can_choose_at_target(replace(offered, **over), STORYGUIDE, "2", 1),
    )
    for reason in checks:
        assert refused(reason, WRONG_TIME, "This encounter is over.")
