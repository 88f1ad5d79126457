"""Exact odds of a stress roll plus a modifier against an ease factor, botch dice included."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arsmagica.rules import roll_total, stress_die, stress_odds
from combat.rules.dice import RandomDice


def test_ease_factor_6_with_no_modifier():
    odds = stress_odds(0, 6)
    # faces 6, 7, 8, 9 and every doubled 1 of 6 or more: 1/10 * (1 - 2/10 ... ) worked by hand
    # a first 1 then 3..9 or 0 (x2 >= 6): 8/100; then 1,1 and anything: 1/100
    assert odds.success == Fraction(4, 10) + Fraction(8, 100) + Fraction(1, 100)
    assert odds.botch == Fraction(1, 100)  # a first 0 (1/10) and a 0 on the one botch die (1/10)
    assert odds.success + odds.failure + odds.botch == 1


def test_an_easy_roll_fails_only_on_a_botch_or_a_plain_zero_below_it():
    odds = stress_odds(10, 6)
    assert odds.failure == 0  # a first 0 that does not botch still totals 10
    assert odds.success == 1 - Fraction(1, 100)


def test_no_botch_dice_means_no_botch():
    odds = stress_odds(0, 3, botch_dice=0)
    assert odds.botch == 0 and odds.botches == ()
    assert odds.success + odds.failure == 1


def test_each_number_of_botches_has_its_exact_chance():
    odds = stress_odds(0, 6, botch_dice=2)
    assert odds.botches == (Fraction(1, 10) * 2 * Fraction(9, 100), Fraction(1, 10) * Fraction(1, 100))
    assert odds.botch == sum(odds.botches)


def test_must_beat_needs_one_more_than_meeting():
    assert stress_odds(0, 6, must_beat=True) == stress_odds(0, 7)


def test_a_huge_ease_factor_is_reached_only_down_the_doubling_chain():
    odds = stress_odds(0, 1000)
    assert 0 < odds.success < Fraction(1, 10**5)
    assert odds.success + odds.failure + odds.botch == 1


@given(modifier=st.integers(-30, 30), ease_factor=st.integers(-10, 200), botch_dice=st.integers(0, 10))
def test_probabilities_of_all_outcomes_sum_to_1(modifier, ease_factor, botch_dice):
    odds = stress_odds(modifier, ease_factor, botch_dice)
    assert odds.success + odds.failure + odds.botch == 1
    assert all(0 <= chance <= 1 for chance in (odds.success, odds.failure, odds.botch))
    assert sum(odds.botches) == odds.botch


@settings(max_examples=15, deadline=None)
@given(modifier=st.integers(-5, 10), ease_factor=st.integers(0, 25), botch_dice=st.integers(0, 3))
def test_exact_odds_match_a_large_sample(modifier, ease_factor, botch_dice):
    dice = RandomDice(f"{modifier}/{ease_factor}/{botch_dice}")
    trials = 20_000
    successes = botches = 0
    for _ in range(trials):
        roll = stress_die(dice, botch_dice)
        if roll.botched:
            botches += 1
        elif roll_total(roll, modifier) >= ease_factor:
            successes += 1
    odds = stress_odds(modifier, ease_factor, botch_dice)
    for observed, expected in ((successes, odds.success), (botches, odds.botch)):
        p = float(expected)
        sigma = (p * (1 - p) / trials) ** 0.5
        assert abs(observed / trials - p) <= 5 * sigma + 1e-9


@pytest.mark.parametrize("botch_dice", [-1, 11])
def test_odds_take_0_to_10_botch_dice(botch_dice):
    with pytest.raises(ValueError):
        stress_odds(0, 6, botch_dice)


def test_odds_turn_into_plain_json_with_exact_fractions():
    assert stress_odds(0, 6).to_dict() == {
        "success": "49/100",
        "failure": "1/2",
        "botch": "1/100",
        "botches": ["1/100"],
    }
