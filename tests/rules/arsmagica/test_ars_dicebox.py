"""Dice per combatant and purpose: scripted, random, recorded and replayed."""

from __future__ import annotations

import pytest
from ars_helpers import attack, fighter

from arsmagica.rules import (
    PhaseOptions,
    RandomDiceBox,
    RecordingDiceBox,
    ScriptedDiceBox,
    declare,
    first_missile_phase,
    melee_phase,
    movement_phase,
    start_fight,
)
from combat.rules.dice import RandomDice
from combat.rules.errors import DiceExhausted, RulesError


def test_scripted_faces_come_first_then_the_fallback():
    box = ScriptedDiceBox({"a": {"combat": [7]}}, RandomDice(1))
    dice = box.dice_for("a", "combat")
    assert dice.face(10) == 7
    assert 0 <= dice.face(10) <= 9
    assert box.dice_for("a", "combat") is dice


def test_without_a_fallback_running_out_of_faces_is_an_error():
    with pytest.raises(DiceExhausted):
        ScriptedDiceBox({}).dice_for("a", "fatigue").face(10)


@pytest.mark.parametrize("box", [ScriptedDiceBox(), RandomDiceBox(1), RecordingDiceBox(RandomDiceBox(1))])
def test_unknown_purposes_are_refused(box):
    with pytest.raises(RulesError, match="purposes are initiative"):
        box.dice_for("a", "luck")


def _to_melee(box):
    state = declare(start_fight([fighter("a"), fighter("b")]), [attack("a", "b"), attack("b", "a")])
    state, _ = movement_phase(state, box)
    state, _ = first_missile_phase(state, box)
    return state


def test_a_previewed_phase_replays_on_the_same_faces_with_new_options():
    recorder = RecordingDiceBox(RandomDiceBox(2024))
    state = _to_melee(recorder)
    _, preview = melee_phase(state, recorder)
    faces = recorder.faces
    assert set(faces) == {"a", "b"} and "combat" in faces["a"]
    replay = recorder.replay()
    _, again = melee_phase(state, replay)
    assert again == preview
    _, changed = melee_phase(state, recorder.replay(), PhaseOptions(modifiers={"a": 3}))
    assert changed.attacks[0].attack_roll == preview.attacks[0].attack_roll


def test_random_dice_box_is_repeatable_by_seed():
    first = melee_phase(_to_melee(RandomDiceBox(7)), RandomDiceBox(8))[1]
    second = melee_phase(_to_melee(RandomDiceBox(7)), RandomDiceBox(8))[1]
    assert first == second


def test_a_recording_box_hands_out_one_stream_per_combatant_and_purpose():
    recorder = RecordingDiceBox(ScriptedDiceBox({"a": {"combat": [3, 4]}}))
    assert recorder.dice_for("a", "combat").face(10) == 3
    assert recorder.dice_for("a", "combat").face(10) == 4
    assert recorder.faces == {"a": {"combat": (3, 4)}}


def test_a_typed_in_face_must_be_on_the_die():
    with pytest.raises(RulesError, match="a d10 shows 0 to 9, not 10"):
        ScriptedDiceBox({"a": {"combat": [10]}}).dice_for("a", "combat").face(10)
