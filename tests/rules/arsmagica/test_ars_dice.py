"""Dice (ArM3 p168, p177, RULES.md): the simple die, the stress die and its doubling chain, botches."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arsmagica.rules import StressRoll, roll_total, simple_die, stress_die
from combat.rules.dice import RandomDice, RecordingDice, ScriptedDice
from combat.rules.errors import DiceExhausted, RulesError

STRESS = [
    # faces, botch dice, value, botches, what the rulebook says
    ([7], 1, 7, 0, "2 to 9 count as rolled"),
    ([2], 1, 2, 0, "2 to 9 count as rolled"),
    ([1, 5], 1, 10, 0, "a 1: roll again and double"),
    ([1, 1, 3], 1, 12, 0, "another 1 doubles again"),
    ([1, 1, 1, 2], 1, 16, 0, "x8 on the third 1"),
    ([1, 0], 1, 20, 0, "on rerolls a 0 counts as 10"),
    ([0, 4], 1, 0, 0, "a first 0 with no zero on the botch die is simply 0"),
    ([0, 0], 1, 0, 1, "a zero on a botch die is a botch"),
    ([0, 0, 0, 5], 3, 0, 2, "two zeros are a double botch"),
    ([0], 0, 0, 0, "no botch dice: the roll cannot botch"),
]


@pytest.mark.parametrize(("faces", "botch_dice", "value", "botches", "rule"), STRESS)
def test_stress_die_reads_its_faces_as_the_rulebook_says(faces, botch_dice, value, botches, rule):
    roll = stress_die(ScriptedDice(faces), botch_dice)
    assert (roll.value, roll.botches) == (value, botches), rule
    assert roll.all_faces == tuple(faces)
    assert roll.botched is (botches > 0)


def test_stress_die_keeps_chain_and_botch_faces_apart():
    roll = stress_die(ScriptedDice([0, 3, 0]), 2)
    assert roll == StressRoll(faces=(0,), botch_faces=(3, 0), value=0, botches=1)
    assert roll.to_dict() == {"faces": [0], "botch_faces": [3, 0], "value": 0, "botches": 1}


@pytest.mark.parametrize(("face", "value"), [(0, 10), (1, 1), (5, 5), (9, 9)])
def test_simple_die_counts_a_zero_as_ten(face, value):
    assert simple_die(ScriptedDice([face])).value == value


@pytest.mark.parametrize("botch_dice", [-1, 11, True, 1.5])
def test_botch_dice_are_0_to_10_per_roll(botch_dice):
    with pytest.raises(RulesError):
        stress_die(ScriptedDice([5]), botch_dice)


def test_a_roll_needs_all_its_faces():
    with pytest.raises(DiceExhausted):
        stress_die(ScriptedDice([1, 1]))


@pytest.mark.parametrize(
    ("faces", "modifiers", "total"),
    [
        ([7], 5, 12),
        ([0, 0], 5, 0),  # a botched roll's total is 0
        ([0, 0], -4, -4),  # or the modifiers if they are negative
        ([0, 3], 5, 5),  # a first 0 that does not botch counts 0
    ],
)
def test_botched_roll_totals_zero_or_the_negative_modifiers(faces, modifiers, total):
    assert roll_total(stress_die(ScriptedDice(faces)), modifiers) == total


@given(seed=st.integers(), botch_dice=st.integers(0, 10))
def test_every_face_is_in_range_and_the_value_follows_from_the_faces(seed, botch_dice):
    recorder = RecordingDice(RandomDice(seed))
    roll = stress_die(recorder, botch_dice)
    assert all(0 <= face <= 9 for face in recorder.faces)
    assert roll.all_faces == tuple(recorder.faces)
    assert len(roll.botch_faces) in (0, botch_dice)
    assert 0 <= roll.botches <= botch_dice
    if roll.faces[0] == 1:
        last = 10 if roll.faces[-1] == 0 else roll.faces[-1]
        assert roll.value == 2 ** (len(roll.faces) - 1) * last
    else:
        assert roll.value == roll.faces[0]


@given(faces=st.lists(st.integers(0, 9), min_size=12, max_size=12), botch_dice=st.integers(0, 10))
def test_the_same_faces_give_the_same_roll(faces, botch_dice):
    first = stress_die(ScriptedDice(faces + [2] * 10), botch_dice)
    again = stress_die(ScriptedDice(faces + [2] * 10), botch_dice)
    assert first == again
