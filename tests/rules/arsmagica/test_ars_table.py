"""May a command happen now? The round's steps in order (ArM3 p163), rest between rounds (ArM3 p177):
each `can_*` answers None or the reason a person reads."""

from __future__ import annotations

from dataclasses import replace

import pytest

from arsmagica.rules.table import (
    STEPS,
    Refusal,
    Table,
    can_change_combatants,
    can_close_declarations,
    can_confirm_phase,
    can_correct,
    can_declare,
    can_end_round,
    can_open_declarations,
    can_pass_time,
    can_preview_phase,
    can_undo,
    step_label,
)
from combat.rules.refusals import BAD_INPUT, WRONG_TIME

SETTING_UP = Table(status="preparing", sides=2)
DECLARING = Table(status="running", phase="declaring", round_number=1, sides=2, declared=3)
AT_MELEE = Table(status="running", phase="melee", round_number=1, sides=2, declared=3)
MELEE_ROLLED = replace(AT_MELEE, pending_phase="melee")
ROUND_OVER = Table(status="running", phase="round_over", round_number=1, sides=2, declared=3)
OVER = Table(status="ended", phase="fatigue", round_number=2, sides=2)


def test_the_first_round_opens_declarations_once_two_sides_face_each_other():
    assert can_open_declarations(SETTING_UP) is None
    lonely = can_open_declarations(Table(status="preparing", sides=1))
    assert lonely == "A fight needs combatants on at least two sides."
    assert lonely.kind == BAD_INPUT


def test_declarations_open_at_each_new_round_not_twice():
    refusal = can_open_declarations(DECLARING)
    assert refusal == "The fight has already begun; declarations open at each new round."
    assert isinstance(refusal, Refusal) and refusal.kind == WRONG_TIME


def test_everyone_declares_before_initiative_only():
    assert can_declare(DECLARING) is None
    assert can_declare(AT_MELEE) == "Declarations are closed."
    assert can_declare(SETTING_UP) == "Declarations are closed."


def test_declarations_close_once_someone_has_declared():
    assert can_close_declarations(DECLARING) is None
    nobody = can_close_declarations(Table(status="running", phase="declaring", round_number=1, sides=2))
    assert nobody == "Nobody has declared yet."
    assert nobody.kind == BAD_INPUT
    assert can_close_declarations(AT_MELEE) == "Declarations are not open."


def test_a_phase_is_rolled_when_the_round_reaches_it():
    assert can_preview_phase(AT_MELEE, "melee") is None
    assert can_preview_phase(MELEE_ROLLED, "melee") is None  # a second preview applies new options
    assert can_preview_phase(AT_MELEE, "magic") == "The round is at Melee, not Magic; nothing was done."
    assert can_preview_phase(DECLARING, "first_missile") == (
        "The round is at Declarations, not First Missile; nothing was done."
    )


def test_movement_is_not_previewed_it_runs_as_declarations_close():
    refusal = can_preview_phase(DECLARING, "movement")
    assert refusal == "There is no phase called 'movement'."
    assert refusal.kind == BAD_INPUT


def test_no_phase_is_rolled_outside_a_running_fight():
    assert can_preview_phase(SETTING_UP, "melee") == "The encounter is not running."
    assert can_confirm_phase(OVER, "fatigue") == "This encounter is over."


def test_a_phase_is_confirmed_only_after_its_preview():
    assert can_confirm_phase(MELEE_ROLLED, "melee") is None
    assert can_confirm_phase(AT_MELEE, "melee") == "Roll Melee first, to see its totals before confirming."
    assert can_confirm_phase(MELEE_ROLLED, "magic") == "The round is at Melee, not Magic; nothing was done."


def test_the_round_ends_after_its_fatigue_phase():
    assert can_end_round(ROUND_OVER) is None
    assert can_end_round(AT_MELEE) == "Resolve every phase of the round before ending it."


def test_corrections_last_as_long_as_the_encounter():
    for table in (SETTING_UP, DECLARING, MELEE_ROLLED, ROUND_OVER):
        assert can_correct(table) is None
    assert can_correct(OVER) == "This encounter is over."


def test_combatants_join_or_leave_while_declarations_are_open():
    for table in (SETTING_UP, DECLARING):
        assert can_change_combatants(table) is None
    assert can_change_combatants(AT_MELEE) == (
        "Combatants join or leave while declarations are open, not in the middle of a round."
    )


@pytest.mark.parametrize("table", [SETTING_UP, DECLARING, ROUND_OVER])
def test_time_passes_between_rounds_or_outside_the_fight(table):
    assert can_pass_time(table) is None


def test_time_does_not_pass_in_the_middle_of_a_round():
    assert can_pass_time(MELEE_ROLLED) == (
        "Finish the round first: time passes between rounds or outside the fight."
    )


def test_an_encounter_ended_with_declarations_open_takes_no_command():
    ended = replace(DECLARING, status="ended", pending_phase="first_missile", undoable="melee")
    checks = (
        can_open_declarations,
        can_declare,
        can_close_declarations,
        lambda table: can_preview_phase(table, "first_missile"),
        lambda table: can_confirm_phase(table, "first_missile"),
        can_end_round,
        can_undo,
        can_correct,
        can_change_combatants,
        can_pass_time,
    )
    for check in checks:
        refusal = check(ended)
        assert refusal == "This encounter is over." and refusal.kind == WRONG_TIME


def test_the_steps_read_as_the_rulebook_names_them():
    assert step_label("first_missile") == "First Missile"
    assert step_label("") == "Not started"
    assert list(STEPS)[1:] == [
        "declaring",
        "first_missile",
        "melee",
        "second_missile",
        "magic",
        "fatigue",
        "round_over",
    ]
