"""The dice challenge (RULES.md Part 2, from the parent rules): one d6 plus |C| d10."""

import pytest
from d6_helpers import typed
from hypothesis import given
from hypothesis import strategies as st

from combat.rules.dice import RandomDice
from combat.rules.errors import DiceExhausted, RulesError
from d6.rules.challenge import Challenge, dice_from_faces, die_result, read_d10, roll_challenge


@pytest.mark.parametrize(
    ("consistency", "d6", "d10s", "expected", "why"),
    [
        (0, 4, (), 4, "consistency 0: the d6 alone"),
        (2, 3, (7, 5), 7, "consistency 2: the highest die"),
        (2, 6, (4, 2), 6, "the d6 counts among the dice"),
        (1, 2, (10,), 10, "one 10 is 10"),
        (3, 5, (10, 10, 4), 11, "a second 10 adds 1"),
        (3, 5, (10, 10, 10), 12, "each extra 10 beyond the first adds 1"),
        (-2, 5, (7, 3), 3, "consistency -2: the lowest die"),
        (-2, 2, (9, 8), 2, "the d6 can be the lowest"),
        (-1, 4, (1,), 1, "one 1 is 1"),
        (-2, 4, (1, 1), 0, "a second 1 takes 1 off"),
        (-2, 1, (1, 1), -1, "the d6 showing 1 is one of the 1s"),
        (-3, 1, (1, 1, 1), -2, "each extra 1 beyond the first takes 1 off"),
    ],
)
def test_die_result_reads_highest_or_lowest_die(consistency, d6, d10s, expected, why):
    assert die_result(consistency, d6, d10s) == expected, why


def test_a_d10_face_zero_is_ten():
    assert read_d10(0) == 10
    assert read_d10(7) == 7


def test_result_is_die_result_plus_potential_and_meets_the_value():
    roll = roll_challenge(typed([3, 8, 2]), Challenge(consistency=2, potential=2, value=10, physical=False))
    assert roll.die_result == 8
    assert roll.result == 10
    assert roll.success is True
    miss = roll_challenge(typed([3, 8, 2]), Challenge(consistency=2, potential=1, value=10, physical=False))
    assert miss.result == 9
    assert miss.success is False


def test_every_face_is_kept_d6_first_then_the_d10s_with_ten_as_ten():
    roll = roll_challenge(typed([5, 10, 3]), Challenge(consistency=-2, physical=True))
    assert roll.faces == (5, 10, 3)
    assert roll.d6 == 5
    assert roll.d10s == (10, 3)
    assert roll.value is None
    assert roll.success is None


def test_the_d6_is_rolled_before_the_d10s():
    dice = typed([6, 1])
    roll = roll_challenge(dice, Challenge(consistency=1, physical=False))
    assert (roll.d6, roll.d10s) == (6, (1,))


def test_the_roll_record_is_frozen():
    roll = roll_challenge(typed([2]), Challenge(consistency=0, physical=False))
    with pytest.raises(AttributeError):
        roll.result = 9


def test_faces_typed_in_accept_ten_or_zero_for_a_ten():
    assert roll_challenge(dice_from_faces([2, 10]), Challenge(consistency=1, physical=False)).die_result == 10
    assert roll_challenge(dice_from_faces([2, 0]), Challenge(consistency=1, physical=False)).die_result == 10


def test_typed_faces_need_the_d6_and_every_d10():
    with pytest.raises(RulesError):
        dice_from_faces([])
    with pytest.raises(DiceExhausted):
        roll_challenge(dice_from_faces([3]), Challenge(consistency=2, physical=False))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((2, 3, (4,)), "rolls 2 d10s"),
        ((0, 7, ()), "a d6 shows 1 to 6"),
        ((1, 3, (11,)), "read 1 to 10"),
        ((1, 3, (0,)), "read 1 to 10"),
    ],
)
def test_die_result_refuses_impossible_faces(args, message):
    with pytest.raises(RulesError, match=message):
        die_result(*args)


@pytest.mark.parametrize(
    "fields",
    [
        {"consistency": 1.5, "physical": True},
        {"consistency": True, "physical": True},
        {"consistency": 1, "potential": "2", "physical": True},
        {"consistency": 1, "value": 2.0, "physical": True},
        {"consistency": 1, "value": False, "physical": True},
    ],
)
def test_a_challenge_needs_whole_numbers(fields):
    with pytest.raises(RulesError, match="whole number"):
        Challenge(**fields)


@given(st.integers(-6, 6), st.integers(-5, 5), st.integers(0, 2**32))
def test_the_same_dice_give_the_same_roll(consistency, potential, seed):
    challenge = Challenge(consistency=consistency, potential=potential, value=6, physical=True)
    first = roll_challenge(RandomDice(seed), challenge)
    again = roll_challenge(RandomDice(seed), challenge)
    assert first == again
    assert len(first.faces) == 1 + abs(consistency)
    assert 1 <= first.d6 <= 6
    assert all(1 <= face <= 10 for face in first.d10s)
    assert first.result == first.die_result + potential
