"""Chases on a grid (d6 seed, 'Chasing characters is done purely on the basis of fatigue')."""

from dataclasses import replace

import pytest
from d6_helpers import typed
from hypothesis import given
from hypothesis import strategies as st

from combat.rules.dice import RandomDice
from combat.rules.errors import RulesError
from d6.rules.chase import (
    AHEAD,
    CAUGHT,
    DROPPED_OUT,
    ESCAPED,
    LOST_SIGHT,
    ONGOING,
    OVERTAKEN,
    Runner,
    Score,
    Terrain,
    change_terrain,
    exchange,
    offer_terrain,
    start_chase,
    take_breather,
)

STREET = Terrain("market street", rolled="athletics")
RIVER = Terrain("river", rolled="swimming")
ROOFS = Terrain("rooftops", rolled="climbing")
SCORES = {"athletics": Score(0, 2), "swimming": Score(1, 0), "climbing": Score(0, 0)}


def runner(id, fatigue=1, distance=None, base=1, scores=SCORES):
    return Runner(id, fatigue=fatigue, base_fatigue=base, scores=scores, distance=distance)


def chase(distance=2, target_fatigue=1, chaser_fatigue=1, **kwargs):
    return start_chase(
        runner("thief", target_fatigue),
        [runner("guard", chaser_fatigue, distance)],
        STREET,
        **kwargs,
    )


def test_three_or_more_higher_the_chaser_moves_one_square_closer():
    """'If a character rolls three or more points higher then her target, she moves one square closer.'"""
    state, record = exchange(chase(distance=3), typed([2], [5]))  # thief 4, guard 7
    assert record.distances_before == (("guard", 3),)
    assert record.distances_after == (("guard", 2),)
    assert [(m.mover, m.distance_before, m.distance_after) for m in record.moves] == [("guard", 3, 2)]
    assert record.outcome == ONGOING
    assert state.exchanges == 1


def test_three_or_more_lower_the_target_moves_one_square_further_away():
    """'If the a character rolls three or more points lower then the target, the target moves one
    square further away.'"""
    state, record = exchange(chase(distance=3), typed([6], [3]))  # thief 8, guard 5
    assert record.distances_after == (("guard", 4),)
    assert record.moves[0].mover == "thief"
    assert record.moves[0].chaser == "guard"


def test_less_than_three_apart_nobody_moves():
    _, record = exchange(chase(distance=3), typed([4], [6]))
    assert record.moves == ()
    assert record.distances_after == (("guard", 3),)


def test_the_roll_that_would_pass_the_target_is_an_action_against_it_instead():
    """'During the roll in which the chaser would surpass the chase target, he or she can take an
    action against the target instead of moving ahead of the target.'"""
    state, record = exchange(chase(distance=1), typed([1], [4]))  # thief 3, guard 6
    assert record.outcome == CAUGHT
    assert record.caught_by == "guard"
    assert record.acts_against_target is True
    assert record.distances_after == (("guard", 0),)
    assert state.outcome == CAUGHT


def test_the_terrain_decides_what_everyone_rolls():
    """'Based on the kind of terrain ... the GM decides what attribute or ability to roll.'"""
    _, record = exchange(chase(), typed([4], [4]))
    assert {(r.runner, r.terrain, r.rolled) for r in record.rolls} == {
        ("thief", "market street", "athletics"),
        ("guard", "market street", "athletics"),
    }
    assert record.rolls[0].attempt.roll.result == 6  # athletics: C 0, P 2


def test_characters_take_turns_the_target_rolls_first():
    _, record = exchange(chase(), typed([4], [5]))
    assert [(r.runner, r.role) for r in record.rolls] == [("thief", "target"), ("guard", "chaser")]


def test_a_target_that_fails_its_fatigue_check_is_caught():
    """'When one of the characters fails to pass their fatigue check ... If this is the target, this
    means the chaser will reach the target.'"""
    state, record = exchange(chase(target_fatigue=4), typed([3]))
    assert record.dropped_out == ("thief",)
    assert record.outcome == CAUGHT
    assert record.caught_by == "guard"
    assert record.acts_against_target is False
    assert state.target.status == DROPPED_OUT
    assert len(record.rolls) == 1


def test_a_chaser_that_fails_its_fatigue_check_lets_the_target_escape():
    """'If this is the chaser, this means the target has escaped.'"""
    state, record = exchange(chase(chaser_fatigue=5), typed([4], [2]))
    assert record.dropped_out == ("guard",)
    assert record.outcome == ESCAPED
    assert state.outcome == ESCAPED
    assert state.chasers[0].status == DROPPED_OUT


def test_every_chase_roll_is_physical_and_raises_fatigue():
    """'When characters are chasing off the grid, their fatigue does increase.'"""
    state, record = exchange(chase(target_fatigue=3, chaser_fatigue=3), typed([2, 3], [5]))
    # thief: d6 2 below fatigue 3 -> 4 (die result 3 meets 3: no drop); guard: d6 5, no rise
    assert state.target.fatigue == 4
    assert state.chasers[0].fatigue == 3
    assert record.rolls[0].attempt.fatigue_after == 4


def test_fatigue_cannot_be_lowered_during_a_chase():
    """'You can not lower fatigue during a chase'."""
    state = chase(target_fatigue=5)
    with pytest.raises(RulesError, match="cannot be lowered"):
        take_breather(state, "thief")


def test_only_by_standing_still_can_fatigue_be_restored():
    """'only by standing still can fatigue be restored to it's base.'"""
    state = start_chase(runner("thief", 2), [runner("guard", 6, 2, base=3), runner("hound", 1, 3)], STREET)
    state, record = exchange(state, typed([5], [2], [1]))  # the guard drops out, the hound runs on
    assert record.dropped_out == ("guard",)
    assert state.outcome == ONGOING
    state, breather = take_breather(state, "guard")
    assert (breather.fatigue_before, breather.fatigue_after) == (7, 3)  # the drop-out roll rose it
    with pytest.raises(RulesError):
        take_breather(state, "hound")


def test_after_the_chase_everyone_may_take_a_breather():
    state, _ = exchange(chase(target_fatigue=4), typed([3]))
    state, record = take_breather(state, "thief")
    assert record.fatigue_after == 1
    assert state.target.fatigue == 1


def test_the_target_may_choose_a_terrain_the_gm_offers():
    """'the GM can present the chase target with terrain decisions ... jump in the river and continue
    the chase swimming.'"""
    state, offer = offer_terrain(chase(), [RIVER, ROOFS])
    assert offer.terrains == (RIVER, ROOFS)
    state, change = change_terrain(state, "river")
    assert (change.before, change.after) == (STREET, RIVER)
    assert state.terrain == RIVER
    assert [(s.terrain.name, s.starts_at) for s in state.stretches] == [("market street", 1), ("river", 1)]
    state, record = exchange(state, typed([4, 6], [4, 2]))
    assert {r.rolled for r in record.rolls} == {"swimming"}
    assert record.terrain == RIVER


def test_a_terrain_not_offered_cannot_be_chosen():
    with pytest.raises(RulesError, match="not offered"):
        change_terrain(chase(), "river")
    state, _ = offer_terrain(chase(), [RIVER])
    state, _ = exchange(state, typed([4], [4]))  # the target kept running: the offer lapses
    with pytest.raises(RulesError, match="not offered"):
        change_terrain(state, "river")
    with pytest.raises(RulesError):
        offer_terrain(chase(), [])
    with pytest.raises(RulesError):
        offer_terrain(chase(), [RIVER, RIVER])


def test_several_chasers_each_track_their_own_distance():
    """[ours] 'several chasers each track their own distance to the target'."""
    state = start_chase(runner("thief"), [runner("guard", 1, 2), runner("hound", 1, 4)], STREET)
    state, record = exchange(state, typed([4], [6], [1]))  # thief 6; guard 8 (-), hound 3 (+1)
    assert record.distances_after == (("guard", 2), ("hound", 5))
    state, record = exchange(state, typed([1], [4], [6]))  # thief 3; guard 6 closes, hound 8 closes
    assert record.distances_after == (("guard", 1), ("hound", 4))


def test_with_several_chasers_the_target_escapes_when_all_have_dropped_out():
    state = start_chase(runner("thief"), [runner("guard", 5, 2), runner("hound", 5, 4)], STREET)
    state, record = exchange(state, typed([4], [1], [6]))
    assert record.dropped_out == ("guard",)
    assert state.outcome == ONGOING
    state, record = exchange(state, typed([4], [2]))
    assert [r.runner for r in record.rolls] == ["thief", "hound"]
    assert record.outcome == ESCAPED


def test_a_target_that_drops_out_is_caught_by_the_nearest_chaser_still_running():
    state = start_chase(runner("thief", 3), [runner("hound", 1, 4), runner("guard", 1, 2)], STREET)
    _, record = exchange(state, typed([1]))
    assert record.caught_by == "guard"


def test_a_chaser_that_falls_the_escape_distance_behind_loses_the_target():
    """[ours] the grid's end: at the escape distance a chaser has lost sight of the target."""
    state, record = exchange(chase(distance=3, escape_distance=4), typed([6], [3]))
    assert record.lost_sight == ("guard",)
    assert state.chasers[0].status == LOST_SIGHT
    assert record.outcome == ESCAPED


def test_the_first_chaser_to_reach_the_target_ends_the_exchange():
    state = start_chase(runner("thief"), [runner("guard", 1, 1), runner("hound", 1, 1)], STREET)
    _, record = exchange(state, typed([1], [6]))
    assert record.caught_by == "guard"
    assert [r.runner for r in record.rolls] == ["thief", "guard"]


def test_each_runner_may_roll_their_own_dice():
    state = chase(distance=3)
    _, record = exchange(state, RandomDice(1), runner_dice={"thief": typed([1]), "guard": typed([6])})
    assert [r.attempt.roll.faces for r in record.rolls] == [(1,), (6,)]


def test_a_finished_chase_takes_no_more_steps():
    state, _ = exchange(chase(distance=1), typed([1], [4]))
    with pytest.raises(RulesError, match="over"):
        exchange(state, typed([1], [1]))
    with pytest.raises(RulesError, match="over"):
        offer_terrain(state, [RIVER])


@pytest.mark.parametrize(
    ("target", "chasers", "kwargs", "message"),
    [
        (runner("thief"), [], {}, "at least one chaser"),
        (runner("thief"), [runner("thief", 1, 2)], {}, "one part"),
        (runner("thief", distance=1), [runner("guard", 1, 2)], {}, "no distance"),
        (runner("thief"), [runner("guard", 1, 0)], {}, "at least one square"),
        (runner("thief"), [runner("guard", 1)], {}, "at least one square"),
        (runner("thief"), [runner("guard", 1, 3)], {"escape_distance": 3}, "escape distance"),
        (runner("thief", 0), [runner("guard", 1, 3)], {}, "fatigue"),
    ],
)
def test_a_chase_must_make_sense_at_the_start(target, chasers, kwargs, message):
    with pytest.raises(RulesError, match=message):
        start_chase(target, chasers, STREET, **kwargs)


def test_a_runner_without_a_score_for_the_terrain_is_refused():
    state = start_chase(runner("thief", scores={}), [runner("guard", 1, 2)], STREET)
    with pytest.raises(RulesError, match="no score"):
        exchange(state, typed([4], [4]))
    with pytest.raises(RulesError, match="no runner"):
        state.runner("zed")


@given(st.integers(0, 2**32), st.integers(1, 6), st.integers(1, 8), st.integers(1, 8))
def test_a_chase_always_ends_and_fatigue_stays_on_the_track(seed, distance, target_fatigue, chaser_fatigue):
    state = chase(distance, target_fatigue, chaser_fatigue, escape_distance=distance + 4)
    dice = RandomDice(seed)
    for _ in range(5000):
        if state.outcome != ONGOING:
            break
        state, record = exchange(state, dice)
        for roll in record.rolls:
            assert 1 <= roll.attempt.fatigue_after <= 20
            assert roll.dropped_out == (roll.attempt.roll.die_result < roll.attempt.fatigue_before)
        assert all(d >= 0 for _, d in record.distances_after)
    assert state.outcome in (CAUGHT, ESCAPED)


def two_chasers(first=1, second=3):
    return start_chase(
        runner("thief"), [runner("guard", 1, first), runner("hound", 1, second)], STREET, escape_distance=8
    )


def test_the_chaser_may_move_ahead_of_the_target_instead_of_acting():
    """'During the roll in which the chaser would surpass the chase target, he or she can take an
    action against the target instead of moving ahead of the target': moving ahead is the choice."""
    state, record = exchange(chase(distance=1), typed([1], [4]), move_ahead={"guard"})  # thief 3, guard 6
    assert record.moved_ahead == ("guard",)
    assert record.acts_against_target is False
    assert record.caught_by is None
    assert [(m.mover, m.distance_before, m.distance_after) for m in record.moves] == [("guard", 1, -1)]
    assert record.distances_after == (("guard", -1),)
    assert state.runner("guard").status == AHEAD
    assert record.outcome == OVERTAKEN
    assert state.outcome == OVERTAKEN


def test_moving_ahead_only_matters_on_the_roll_that_would_pass_the_target():
    state, record = exchange(chase(distance=2), typed([1], [4]), move_ahead={"guard"})
    assert record.moved_ahead == ()
    assert record.distances_after == (("guard", 1),)
    assert state.outcome == ONGOING
    state, record = exchange(chase(distance=1), typed([1], [2]), move_ahead={"guard"})  # +2: nobody moves
    assert (record.moved_ahead, record.outcome) == ((), ONGOING)


def test_a_chaser_who_moves_ahead_leaves_the_others_running():
    """[ours] The chaser who passed is out of the chase; the next chaser still rolls."""
    # thief 3; guard 6 (would pass, moves ahead); hound 7 (closes from 3 to 2)
    state, record = exchange(two_chasers(), typed([1], [4], [5]), move_ahead=["guard"])
    assert [r.runner for r in record.rolls] == ["thief", "guard", "hound"]
    assert record.moved_ahead == ("guard",)
    assert record.distances_after == (("guard", -1), ("hound", 2))
    assert state.outcome == ONGOING
    # next exchange: only the thief and the hound roll (thief 3, hound 6: distance 2 → 1)
    state, record = exchange(state, typed([1], [4]))
    assert [r.runner for r in record.rolls] == ["thief", "hound"]
    assert record.distances_after == (("guard", -1), ("hound", 1))
    # the thief, now at fatigue 4, drops out: caught by the hound, the only chaser still running
    state, record = exchange(replace(state, target=replace(state.target, fatigue=4)), typed([1]))
    assert (record.outcome, record.caught_by) == (CAUGHT, "hound")


def test_when_every_other_chaser_is_out_a_chaser_ahead_leaves_the_target_overtaken():
    state, _ = exchange(two_chasers(), typed([1], [4], [3]), move_ahead=["guard"])  # hound +0
    state = replace(state, chasers=(state.chasers[0], replace(state.chasers[1], fatigue=6)))
    state, record = exchange(state, typed([3], [2]))  # the hound's die result 2 < fatigue 6: drops out
    assert record.dropped_out == ("hound",)
    assert record.outcome == OVERTAKEN


def test_only_a_chaser_can_move_ahead():
    with pytest.raises(RulesError, match="only a chaser"):
        exchange(chase(distance=1), typed([1], [4]), move_ahead={"thief"})
    with pytest.raises(RulesError, match="no runner"):
        exchange(chase(distance=1), typed([1], [4]), move_ahead={"zed"})


def test_a_chaser_who_moved_ahead_may_take_a_breather_once_out():
    state, _ = exchange(two_chasers(), typed([1], [4], [3]), move_ahead=["guard"])
    state, breather = take_breather(state, "guard")
    assert breather.fatigue_after == 1


@given(
    st.integers(0, 2**32),
    st.integers(1, 6),
    st.integers(1, 8),
    st.integers(1, 8),
    st.frozensets(st.sampled_from(["guard", "hound"])),
)
def test_a_chase_with_chasers_moving_ahead_always_ends_on_the_track(seed, distance, tf, cf, ahead):
    state = start_chase(
        runner("thief", tf),
        [runner("guard", cf, distance), runner("hound", cf, distance + 1)],
        STREET,
        escape_distance=distance + 5,
    )
    dice = RandomDice(seed)
    for _ in range(5000):
        if state.outcome != ONGOING:
            break
        state, record = exchange(state, dice, move_ahead=ahead)
        for roll in record.rolls:
            assert 1 <= roll.attempt.fatigue_after <= 20
        for chaser in state.chasers:
            assert (chaser.distance == -1) == (chaser.status == AHEAD)
            assert chaser.distance >= -1
        assert set(record.moved_ahead) <= ahead
    assert state.outcome in (CAUGHT, ESCAPED, OVERTAKEN)
    assert (state.outcome == OVERTAKEN) == (
        state.caught_by is None and any(c.status == AHEAD for c in state.chasers)
    )
