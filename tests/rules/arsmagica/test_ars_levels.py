"""Fatigue levels and Body levels (ArM3 p177): penalties, acting, and never past the ends."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arsmagica.rules import (
    BodyLevel,
    BodyTrack,
    Exertion,
    FatigueLevel,
    FatigueState,
    can_act,
    fatigue_penalty,
    lose_fatigue_levels,
    wound_penalty,
)
from combat.rules.errors import RulesError


@pytest.mark.parametrize(
    ("level", "penalty"),
    [
        (FatigueLevel.FRESH, 0),
        (FatigueLevel.WINDED, 0),
        (FatigueLevel.WEARY, -1),
        (FatigueLevel.TIRED, -3),
        (FatigueLevel.DAZED, -5),
    ],
)
def test_fatigue_penalty_for_weary_is_minus_1_tired_minus_3_dazed_minus_5(level, penalty):
    assert fatigue_penalty(level) == penalty


@pytest.mark.parametrize(
    ("level", "penalty"),
    [
        (BodyLevel.UNHURT, 0),
        (BodyLevel.HURT, 0),
        (BodyLevel.LIGHT_WOUNDS, -1),
        (BodyLevel.MEDIUM_WOUNDS, -3),
        (BodyLevel.HEAVY_WOUNDS, -5),
    ],
)
def test_wound_penalty_hurt_0_light_minus_1_medium_minus_3_heavy_minus_5(level, penalty):
    assert wound_penalty(level) == penalty


@pytest.mark.parametrize(
    ("fatigue", "body", "acts"),
    [
        (FatigueLevel.DAZED, BodyLevel.HEAVY_WOUNDS, True),
        (FatigueLevel.UNCONSCIOUS, BodyLevel.UNHURT, False),
        (FatigueLevel.FRESH, BodyLevel.INCAPACITATED, False),
        (FatigueLevel.FRESH, BodyLevel.DEAD, False),
    ],
)
def test_unconscious_and_incapacitated_characters_cannot_act(fatigue, body, acts):
    assert can_act(fatigue, body) is acts


def test_a_failed_fatigue_test_costs_one_level_a_botch_two():
    assert lose_fatigue_levels(FatigueState(), 1).level is FatigueLevel.WINDED
    assert lose_fatigue_levels(FatigueState(), 2).level is FatigueLevel.WEARY


def test_each_lost_fatigue_level_remembers_its_exertion():
    state = lose_fatigue_levels(FatigueState(), 1, Exertion.LONG_TERM)
    state = lose_fatigue_levels(state, 1)
    assert state.lost == (Exertion.LONG_TERM, Exertion.SHORT_TERM)


def test_losing_no_level_changes_nothing():
    state = FatigueState.at(FatigueLevel.TIRED)
    assert lose_fatigue_levels(state, 0) is state


def test_creatures_may_have_repeated_body_levels():
    track = BodyTrack(hurt=3)
    assert track.levels == (
        BodyLevel.UNHURT,
        BodyLevel.HURT,
        BodyLevel.HURT,
        BodyLevel.HURT,
        BodyLevel.LIGHT_WOUNDS,
        BodyLevel.MEDIUM_WOUNDS,
        BodyLevel.HEAVY_WOUNDS,
        BodyLevel.INCAPACITATED,
        BodyLevel.DEAD,
    )
    assert track.level_at(track.lose(0, 3)) is BodyLevel.HURT
    assert track.level_at(track.lose(0, 4)) is BodyLevel.LIGHT_WOUNDS
    assert track.to_dict() == {"hurt": 3, "light_wounds": 1, "medium_wounds": 1, "heavy_wounds": 1}


def test_a_level_lost_past_incapacitated_is_death():
    track = BodyTrack()
    incapacitated = track.levels_lost_at(BodyLevel.INCAPACITATED)
    assert track.level_at(track.lose(incapacitated, 1)) is BodyLevel.DEAD


def test_a_creature_without_a_level_cannot_start_on_it():
    with pytest.raises(RulesError, match="no hurt level"):
        BodyTrack(hurt=0).levels_lost_at(BodyLevel.HURT)


@pytest.mark.parametrize("count", [-1, 21, True])
def test_body_track_counts_are_0_to_20(count):
    with pytest.raises(RulesError):
        BodyTrack(hurt=count)


@given(
    start=st.integers(0, 5),
    losses=st.lists(st.integers(-3, 8), max_size=10),
    exertion=st.sampled_from(Exertion),
)
def test_fatigue_levels_never_move_past_unconscious_or_above_fresh(start, losses, exertion):
    state = FatigueState.at(list(FatigueLevel)[start])
    for count in losses:
        before = len(state.lost)
        state = lose_fatigue_levels(state, count, exertion)
        assert 0 <= len(state.lost) <= 5
        assert len(state.lost) >= before


@given(
    counts=st.tuples(*[st.integers(0, 4)] * 4),
    losses=st.lists(st.integers(-3, 12), max_size=10),
)
def test_body_levels_never_move_past_dead_or_above_unhurt(counts, losses):
    track = BodyTrack(*counts)
    lost = 0
    for count in losses:
        after = track.lose(lost, count)
        assert lost <= after <= track.dead_index
        lost = after
    assert track.level_at(lost) in track.levels
    assert track.level_at(-5) is BodyLevel.UNHURT
    assert track.level_at(99) is BodyLevel.DEAD
