"""A round's six phases in order (ArM3 p163), the state between them, and records as JSON."""

from __future__ import annotations

import json

import pytest
from ars_helpers import BOW, SWORD, attack, fighter
from hypothesis import given, settings
from hypothesis import strategies as st

from arsmagica.rules import (
    PHASE_FUNCTIONS,
    Action,
    BodyLevel,
    Declaration,
    FatigueLevel,
    Phase,
    PhaseOptions,
    RandomDiceBox,
    RecordingDiceBox,
    ScriptedDiceBox,
    Spell,
    SpellKind,
    declare,
    end_round,
    fatigue_phase,
    melee_phase,
    movement_phase,
    resolve_round,
    start_fight,
)
from combat.rules.errors import RulesError

COMBATANTS = [fighter("a", SWORD, BOW), fighter("b"), fighter("c", stamina=3)]
DECLARATIONS = [
    attack("a", "b"),
    attack("b", "a"),
    Declaration("c", Action.CAST, spell=Spell(SpellKind.SPONTANEOUS, 8, "Pilum of Fire")),
]


def test_phases_run_only_in_their_order():
    state = declare(start_fight(COMBATANTS), DECLARATIONS)
    box = RandomDiceBox(1)
    with pytest.raises(RulesError, match="at the movement phase, so the melee phase cannot run now"):
        melee_phase(state, box)
    state, _ = movement_phase(state, box)
    with pytest.raises(RulesError, match="movement phase cannot run now"):
        movement_phase(state, box)
    with pytest.raises(RulesError):
        end_round(state)


def test_each_phase_moves_the_state_to_the_next_phase():
    state = declare(start_fight(COMBATANTS), DECLARATIONS)
    box = RandomDiceBox(5)
    seen = []
    for phase_function in PHASE_FUNCTIONS:
        seen.append(state.phase)
        state, result = phase_function(state, box)
        assert result.phase is seen[-1]
    assert seen == [
        Phase.MOVEMENT,
        Phase.FIRST_MISSILE,
        Phase.MELEE,
        Phase.SECOND_MISSILE,
        Phase.MAGIC,
        Phase.FATIGUE,
    ]
    assert state.phase is Phase.END
    next_round = end_round(state)
    assert next_round.number == 2 and next_round.phase is Phase.MOVEMENT
    assert next_round.declarations == () and next_round.combat_dice == ()


def test_a_combatant_with_no_declaration_does_nothing_that_round():
    _, result = resolve_round(start_fight(COMBATANTS), [], RandomDiceBox(3))
    assert all(not phase.attacks and not phase.fatigue and not phase.initiative for phase in result.phases)


def test_options_naming_someone_not_in_the_fight_are_refused():
    state = declare(start_fight(COMBATANTS), DECLARATIONS)
    for options in (PhaseOptions(modifiers={"zed": 1}), PhaseOptions(on_success={("a", "zed"): None})):
        with pytest.raises(RulesError, match="name no combatant in this fight: zed"):
            movement_phase(state, RandomDiceBox(1), options)


def test_every_record_turns_into_plain_json():
    state, result = resolve_round(start_fight(COMBATANTS), DECLARATIONS, RandomDiceBox(11))
    text = json.dumps(result.to_dict())
    assert json.loads(text)["phases"][0]["phase"] == "movement"
    json.dumps(state.to_dict())
    assert result.phase(Phase.MELEE).phase is Phase.MELEE
    with pytest.raises(KeyError):
        result.__class__(1, ()).phase(Phase.MELEE)


def test_the_same_dice_give_the_same_round():
    recorder = RecordingDiceBox(RandomDiceBox(99))
    first_state, first = resolve_round(start_fight(COMBATANTS), DECLARATIONS, recorder)
    again_state, again = resolve_round(start_fight(COMBATANTS), DECLARATIONS, recorder.replay())
    assert (first_state, first) == (again_state, again)


def test_a_fatigue_phase_can_be_rerun_with_another_ease_factor_on_the_same_faces():
    state = declare(start_fight(COMBATANTS[:2]), DECLARATIONS[:2])
    box = ScriptedDiceBox({"a": {"fatigue": [5]}, "b": {"fatigue": [5]}}, fallback=None)
    random_box = RandomDiceBox(4)
    for phase_function in PHASE_FUNCTIONS[:-1]:
        state, _ = phase_function(state, random_box)
    _, easy = fatigue_phase(state, box)
    _, hard = fatigue_phase(
        state,
        ScriptedDiceBox({"a": {"fatigue": [5]}, "b": {"fatigue": [5]}}),
        PhaseOptions(default_ease_factor=4),
    )
    assert [roll.roll for roll in easy.fatigue] == [roll.roll for roll in hard.fatigue]
    assert {roll.ease_factor for roll in hard.fatigue} == {4}


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), rounds=st.integers(1, 6))
def test_levels_never_move_past_their_ends_over_many_rounds(seed, rounds):
    heavy = [
        fighter("a", soak=-10),
        fighter("b", soak=-10, body=BodyLevel.HEAVY_WOUNDS),
        fighter("c", fatigue=FatigueLevel.DAZED),
    ]
    state = start_fight(heavy)
    box = RandomDiceBox(seed)
    for _ in range(rounds):
        declarations = [
            attack(
                c.id, *[o.id for o in state.combatants if o.id != c.id and o.body_level is not BodyLevel.DEAD]
            )
            for c in state.combatants
            if c.can_act
            and any(o.id != c.id and o.body_level is not BodyLevel.DEAD for o in state.combatants)
        ]
        before = {c.id: (len(c.fatigue.lost), c.body_levels_lost) for c in state.combatants}
        state, _ = resolve_round(state, declarations, box)
        for combatant in state.combatants:
            assert 0 <= len(combatant.fatigue.lost) <= 5
            assert 0 <= combatant.body_levels_lost <= combatant.sheet.body_track.dead_index
            fatigue_before, body_before = before[combatant.id]
            assert len(combatant.fatigue.lost) >= fatigue_before
            assert combatant.body_levels_lost >= body_before


def test_asking_the_state_for_someone_not_in_the_fight_is_a_clear_error():
    with pytest.raises(RulesError, match="no combatant with id 'zed'"):
        start_fight(COMBATANTS).combatant("zed")
