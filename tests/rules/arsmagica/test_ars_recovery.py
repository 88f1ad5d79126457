"""Recovery from fatigue over in-game time (ArM3 p177)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arsmagica.rules import (
    Exertion,
    FatigueLevel,
    FatigueState,
    lose_fatigue_levels,
    night_of_sleep,
    recover,
    stamina_roll,
)
from arsmagica.rules.recovery import recovery_minutes
from combat.rules.dice import ScriptedDice
from combat.rules.errors import RulesError


@pytest.mark.parametrize(
    ("level", "minutes", "to_level"),
    [
        (FatigueLevel.WINDED, 2, FatigueLevel.FRESH),
        (FatigueLevel.WEARY, 10, FatigueLevel.WINDED),
        (FatigueLevel.TIRED, 30, FatigueLevel.WEARY),
        (FatigueLevel.DAZED, 60, FatigueLevel.TIRED),
        (FatigueLevel.UNCONSCIOUS, 120, FatigueLevel.DAZED),
    ],
)
def test_recovery_chart_time_to_the_next_lower_level(level, minutes, to_level):
    assert recover(FatigueState.at(level), minutes - 1).fatigue.level is level
    recovered = recover(FatigueState.at(level), minutes)
    assert recovered.fatigue.level is to_level
    assert recovered.steps[0].after_seconds == minutes * 60


def test_recovery_goes_one_level_at_a_time_from_the_most_exhausted():
    recovered = recover(FatigueState.at(FatigueLevel.TIRED), 30 + 10 + 2)
    assert [step.from_level for step in recovered.steps] == [
        FatigueLevel.TIRED,
        FatigueLevel.WEARY,
        FatigueLevel.WINDED,
    ]
    assert recovered.fatigue.level is FatigueLevel.FRESH


def test_recovery_time_is_doubled_if_the_character_remains_active():
    assert recover(FatigueState.at(FatigueLevel.WEARY), 10, active=True).fatigue.level is FatigueLevel.WEARY
    assert recover(FatigueState.at(FatigueLevel.WEARY), 20, active=True).fatigue.level is FatigueLevel.WINDED


def test_a_successful_stamina_roll_against_9_halves_recovery_time():
    roll = stamina_roll(ScriptedDice([7]), stamina=2)
    assert roll.success and roll.total == 9 and roll.ease_factor == 9
    assert recover(FatigueState.at(FatigueLevel.TIRED), 15, stamina=roll).fatigue.level is FatigueLevel.WEARY


def test_a_failed_stamina_roll_changes_nothing():
    roll = stamina_roll(ScriptedDice([7]), stamina=2, penalty=-1)
    assert not roll.success
    assert recover(FatigueState.at(FatigueLevel.TIRED), 15, stamina=roll).fatigue.level is FatigueLevel.TIRED


def test_stamina_roll_is_a_simple_die_where_a_zero_counts_ten():
    assert stamina_roll(ScriptedDice([0]), stamina=0).success


def test_rest_carries_over_between_periods():
    state = recover(FatigueState.at(FatigueLevel.TIRED), 20).fatigue
    assert state.recovery_seconds == 20 * 60
    assert recover(state, 10).fatigue.level is FatigueLevel.WEARY


def test_long_term_levels_do_not_recover_with_rest():
    state = lose_fatigue_levels(FatigueState(), 2, Exertion.LONG_TERM)
    recovered = recover(state, 600)
    assert recovered.fatigue.level is FatigueLevel.WEARY
    assert recovered.blocked_by_long_term and recovered.steps == ()


def test_short_term_levels_above_long_term_ones_recover_then_rest_stops():
    state = lose_fatigue_levels(FatigueState(), 1, Exertion.LONG_TERM)
    state = lose_fatigue_levels(state, 1, Exertion.SHORT_TERM)
    recovered = recover(state, 600)
    assert recovered.fatigue.level is FatigueLevel.WINDED
    assert recovered.blocked_by_long_term


def test_a_good_meal_and_a_good_nights_sleep_recover_long_term_levels():
    state = lose_fatigue_levels(FatigueState(), 3, Exertion.LONG_TERM)
    slept = night_of_sleep(state)
    assert slept.fatigue.level is FatigueLevel.FRESH
    assert len(slept.steps) == 3


def test_sleep_without_a_meal_recovers_only_short_term_levels():
    state = lose_fatigue_levels(FatigueState(), 1, Exertion.LONG_TERM)
    state = lose_fatigue_levels(state, 4, Exertion.SHORT_TERM)
    slept = night_of_sleep(state, good_meal=False)
    assert slept.fatigue.level is FatigueLevel.WINDED and slept.blocked_by_long_term


def test_a_fresh_character_has_nothing_to_recover():
    assert recover(FatigueState(), 60).steps == ()
    with pytest.raises(RulesError):
        recovery_minutes(FatigueLevel.FRESH)


@pytest.mark.parametrize("minutes", [-1, 1.5, True])
def test_recovery_takes_whole_minutes(minutes):
    with pytest.raises(RulesError):
        recover(FatigueState(), minutes)


@given(
    level=st.sampled_from(list(FatigueLevel)),
    periods=st.lists(st.tuples(st.integers(0, 300), st.booleans()), max_size=6),
)
def test_recovery_never_moves_past_fresh_nor_adds_fatigue(level, periods):
    state = FatigueState.at(level)
    for minutes, active in periods:
        after = recover(state, minutes, active=active).fatigue
        assert len(after.lost) <= len(state.lost)
        state = after
