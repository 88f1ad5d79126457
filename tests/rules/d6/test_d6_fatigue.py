"""The fatigue track, in the seed page's words (d6 seed, 'Base fatigue' and the paragraphs above)."""

import pytest
from d6_helpers import typed
from hypothesis import given
from hypothesis import strategies as st

from combat.rules.dice import RandomDice
from combat.rules.errors import RulesError
from d6.rules.attempt import attempt
from d6.rules.challenge import Challenge
from d6.rules.fatigue import (
    FATIGUE_MAX,
    FATIGUE_MIN,
    automatic_failure,
    base_fatigue,
    check_fatigue,
    clamp_fatigue,
    fatigue_rises,
    raised_fatigue,
)

PHYSICAL = Challenge(consistency=0, potential=0, physical=True)


@pytest.mark.parametrize(
    ("stamina", "base", "words"),
    [
        (3, 1, "a character with a stamina of three will have a base tiredness of one"),
        (-2, 6, "a character with a stamina of -2 will have a base tiredness of six"),
        (4, 1, "even if you have a stamina of 4, base fatigue is still 1, not 0"),
        (-3, 7, "a character with a base fatigue of seven (stamina of -3)"),
        (0, 4, "4 - stamina = base fatigue"),
    ],
)
def test_base_fatigue_is_four_minus_stamina_at_least_one(stamina, base, words):
    assert base_fatigue(stamina) == base, words


def test_fatigue_can_not_be_higher_than_twenty_or_lower_than_one():
    assert clamp_fatigue(21) == 20
    assert clamp_fatigue(0) == 1
    assert raised_fatigue(20) == 20
    assert base_fatigue(-30) == 20
    assert (FATIGUE_MIN, FATIGUE_MAX) == (1, 20)


def test_the_page_example_fatigue_four_d6_three_becomes_five():
    """'A character has a fatigue of four. With the D6 she rolls three, ... increased to five.'"""
    outcome = attempt(typed([3]), PHYSICAL, 4)
    assert outcome.fatigue_before == 4
    assert outcome.fatigue_rose is True
    assert outcome.fatigue_after == 5


def test_a_d6_equal_to_fatigue_does_not_raise_it():
    outcome = attempt(typed([4]), PHYSICAL, 4)
    assert outcome.fatigue_rose is False
    assert outcome.fatigue_after == 4


def test_fatigue_seven_rolls_six_fails_even_though_potential_would_reach_seven():
    """'a fatigue of 7 and rolls 6 (not counting potential) ... the action automatically fails'."""
    challenge = Challenge(consistency=0, potential=3, value=7, physical=True)
    outcome = attempt(typed([6]), challenge, 7)
    assert outcome.roll.result == 9
    assert outcome.roll.success is True
    assert outcome.auto_failed is True
    assert outcome.success is False


def test_the_roll_must_be_equal_to_or_higher_than_the_fatigue():
    challenge = Challenge(consistency=1, potential=0, value=3, physical=True)
    assert attempt(typed([2, 7]), challenge, 7).success is True
    assert attempt(typed([2, 6]), challenge, 7).auto_failed is True


def test_the_automatic_failure_reads_the_result_before_potential():
    assert automatic_failure(die_result=6, fatigue=7) is True
    assert automatic_failure(die_result=7, fatigue=7) is False


def test_above_six_every_physical_roll_raises_fatigue():
    """'When a character's fatigue is higher than six, they will gain one fatigue point every time'."""
    for d6 in range(1, 7):
        assert fatigue_rises(d6, 7) is True
        assert attempt(typed([d6]), PHYSICAL, 7).fatigue_after == 8


def test_base_seven_gains_fatigue_on_every_roll():
    """'A character with a base fatigue of seven (stamina of -3) will have one extra fatigue every time'."""
    fatigue = base_fatigue(-3)
    for d6 in (6, 6, 6):
        fatigue = attempt(typed([d6]), PHYSICAL, fatigue).fatigue_after
    assert fatigue == 10


def test_auto_failure_and_rise_both_happen_on_one_roll():
    outcome = attempt(typed([2]), PHYSICAL, 4)
    assert outcome.auto_failed is True
    assert outcome.fatigue_after == 5


def test_the_auto_failure_uses_the_fatigue_before_the_rise():
    # fatigue 4, d6 shows 3 with a d10 of 4: die result 4 meets fatigue 4; then fatigue rises to 5
    outcome = attempt(typed([3, 4]), Challenge(consistency=1, physical=True), 4)
    assert outcome.auto_failed is False
    assert outcome.fatigue_after == 5


def test_the_rise_reads_the_d6_not_the_die_result():
    # a high d10 does not save the fatigue: the d6 is what counts
    outcome = attempt(typed([2, 9]), Challenge(consistency=1, physical=True), 4)
    assert outcome.roll.die_result == 9
    assert outcome.fatigue_rose is True


def test_a_non_physical_roll_neither_fails_on_fatigue_nor_raises_it():
    """'All the physical dice challenges you make (any roll based on a physical attribute), can
    increase your fatigue' [our reading: the others cannot]."""
    outcome = attempt(typed([1]), Challenge(consistency=0, value=1, physical=False), 9)
    assert outcome.auto_failed is False
    assert outcome.success is True
    assert outcome.fatigue_after == 9
    assert outcome.rise_due is False


def test_no_rise_without_exertion():
    """'fatigue increases when they are performing physical activities without ... a breather'."""
    outcome = attempt(typed([1]), PHYSICAL, 4, exertion=False)
    assert outcome.fatigue_after == 4
    assert outcome.auto_failed is True


def test_a_rise_held_back_is_recorded():
    outcome = attempt(typed([1]), PHYSICAL, 4, may_raise=False)
    assert outcome.rise_due is True
    assert outcome.fatigue_rose is False
    assert outcome.rise_held_back is True
    assert outcome.fatigue_after == 4


def test_at_twenty_the_rise_is_due_but_the_track_ends():
    outcome = attempt(typed([1]), PHYSICAL, 20)
    assert outcome.fatigue_after == 20
    assert outcome.fatigue_rose is False


@pytest.mark.parametrize("bad", [0, 21, 4.0, True, "4"])
def test_fatigue_off_the_track_is_refused(bad):
    with pytest.raises(RulesError):
        check_fatigue(bad)


@given(st.integers(-100, 100))
def test_base_fatigue_is_never_below_one(stamina):
    assert 1 <= base_fatigue(stamina) <= 20


@given(
    st.integers(1, 20),
    st.lists(st.tuples(st.integers(-4, 4), st.booleans(), st.booleans()), max_size=40),
    st.integers(0, 2**32),
)
def test_fatigue_never_leaves_one_to_twenty(fatigue, challenges, seed):
    dice = RandomDice(seed)
    for consistency, physical, exertion in challenges:
        challenge = Challenge(consistency=consistency, physical=physical)
        fatigue = attempt(dice, challenge, fatigue, exertion=exertion).fatigue_after
        assert 1 <= fatigue <= 20


@given(
    st.integers(-4, 4), st.integers(-10, 10), st.integers(-5, 15), st.integers(1, 20), st.integers(0, 2**32)
)
def test_a_die_result_below_fatigue_never_succeeds_on_a_physical_roll(
    consistency, potential, value, fatigue, seed
):
    challenge = Challenge(consistency=consistency, potential=potential, value=value, physical=True)
    outcome = attempt(RandomDice(seed), challenge, fatigue)
    if outcome.roll.die_result < fatigue:
        assert outcome.success is False
        assert outcome.auto_failed is True
    else:
        assert outcome.success == (outcome.roll.result >= value)
