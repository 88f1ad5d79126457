"""Exact odds of the dice challenge: fractions that sum to 1 and agree with the dice."""

import itertools
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from combat.rules.dice import RandomDice
from combat.rules.errors import RulesError
from d6.rules.challenge import Challenge, die_result, roll_challenge
from d6.rules.odds import chance_fatigue_rises, chance_to_meet, die_result_distribution


def _brute_force(consistency):
    counts = Counter()
    for d6 in range(1, 7):
        for d10s in itertools.product(range(1, 11), repeat=abs(consistency)):
            counts[die_result(consistency, d6, d10s)] += 1
    total = sum(counts.values())
    return {read: Fraction(count, total) for read, count in counts.items()}


@pytest.mark.parametrize("consistency", [-4, -3, -2, -1, 0, 1, 2, 3, 4])
def test_distribution_equals_counting_every_roll(consistency):
    assert die_result_distribution(consistency) == _brute_force(consistency)


@given(st.integers(-25, 25))
def test_all_outcomes_sum_to_one(consistency):
    distribution = die_result_distribution(consistency)
    assert sum(distribution.values()) == 1
    assert all(chance > 0 for chance in distribution.values())


@settings(max_examples=15, deadline=None)
@given(st.integers(-3, 3), st.integers(0, 2**32))
def test_distribution_matches_a_large_sample(consistency, seed):
    dice = RandomDice(seed)
    rolls = 20_000
    sample = Counter(
        roll_challenge(dice, Challenge(consistency=consistency, physical=False)).die_result
        for _ in range(rolls)
    )
    for read, chance in die_result_distribution(consistency).items():
        # five standard deviations of a binomial count: a false alarm is vanishingly rare
        spread = 5 * (rolls * float(chance) * (1 - float(chance))) ** 0.5 + 1
        assert abs(sample[read] - rolls * float(chance)) <= spread


def test_consistency_zero_is_a_plain_d6():
    assert die_result_distribution(0) == {face: Fraction(1, 6) for face in range(1, 7)}


def test_chance_to_meet_a_challenge_value():
    # C 1: the higher of a d6 and a d10; 10 needs the d10's ten: 1 in 10
    assert chance_to_meet(1, 0, 10, fatigue=None) == Fraction(1, 10)
    assert chance_to_meet(0, 2, 7) == Fraction(2, 6)
    assert chance_to_meet(0, 0, 1) == 1
    assert chance_to_meet(0, 0, 8) == 0


def test_chance_to_meet_on_a_physical_roll_counts_the_fatigue():
    # d6 alone, potential 3, value 5: 2+ meets it, but fatigue 4 needs the die at 4+
    assert chance_to_meet(0, 3, 5) == Fraction(5, 6)
    assert chance_to_meet(0, 3, 5, fatigue=4) == Fraction(3, 6)
    # fatigue 7 with the d6 alone: never, whatever the potential
    assert chance_to_meet(0, 10, 7, fatigue=7) == 0


@given(st.integers(-4, 4), st.integers(-5, 5), st.integers(-5, 15), st.integers(1, 20))
def test_fatigue_only_ever_lowers_the_chance(consistency, potential, value, fatigue):
    assert chance_to_meet(consistency, potential, value, fatigue=fatigue) <= chance_to_meet(
        consistency, potential, value
    )


@pytest.mark.parametrize(
    ("fatigue", "chance"),
    [(1, Fraction(0)), (4, Fraction(3, 6)), (6, Fraction(5, 6)), (7, Fraction(1)), (20, Fraction(1))],
)
def test_chance_the_fatigue_rises(fatigue, chance):
    assert chance_fatigue_rises(fatigue) == chance


def test_odds_refuse_nonsense():
    with pytest.raises(RulesError):
        die_result_distribution(1.5)
    with pytest.raises(RulesError):
        chance_to_meet(0, 0, 3, fatigue=0)
    with pytest.raises(RulesError):
        chance_fatigue_rises(21)
