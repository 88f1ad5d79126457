"""Fatigue during combat (d6 seed, 'Fatigue during combat'), turn by turn."""

import pytest
from d6_helpers import typed

from combat.rules.errors import RulesError
from d6.rules.challenge import Challenge
from d6.rules.fight import (
    Fighter,
    end_turn,
    fight_roll,
    ranged_attack_into_cluster,
    start_fight,
    take_breather,
)
from d6.rules.initiative import roll_initiative

SWING = Challenge(consistency=1, potential=1, value=5, physical=True)
PARRY = Challenge(consistency=0, potential=1, physical=True)
WITS = Challenge(consistency=0, potential=0, value=3, physical=False)


def fight(**fatigue):
    """Anna acts first, then Bram; both base 1 (Stamina 3) unless a fatigue is given."""
    return start_fight(
        [
            Fighter.from_sheet("anna", stamina=3, fatigue=fatigue.get("anna")),
            Fighter.from_sheet("bram", stamina=3, fatigue=fatigue.get("bram")),
        ]
    )


def test_a_fighter_starts_at_base_fatigue_unless_the_sheet_says_otherwise():
    state = start_fight([Fighter.from_sheet("cara", stamina=-2), Fighter.from_sheet("dov", 0, fatigue=9)])
    assert state.fighter("cara").fatigue == 6
    assert state.fighter("cara").base_fatigue == 6
    assert state.fighter("dov").fatigue == 9


def test_fatigue_can_only_increase_by_one_every_turn():
    """'Your fatigue can only increase by one every turn.'"""
    state = fight(anna=4)
    state, first = fight_roll(state, typed([1, 9]), "anna", SWING)
    state, second = fight_roll(state, typed([2, 9]), "anna", SWING)
    assert first.attempt.fatigue_after == 5
    assert second.attempt.rise_due is True
    assert second.attempt.rise_held_back is True
    assert state.fighter("anna").fatigue == 5


def test_defensive_rolls_until_the_next_turn_share_the_one_rise():
    """'This includes any action you take during your turn, and any defensive roll you make until
    the start of your next turn.'"""
    state = fight(anna=4)
    state, _ = fight_roll(state, typed([3, 9]), "anna", SWING)  # her action: 4 -> 5
    state, _ = end_turn(state)  # Bram's turn
    state, parry = fight_roll(state, typed([2]), "anna", PARRY)
    assert parry.defending is True
    assert parry.turn_of == "bram"
    assert parry.attempt.rise_held_back is True
    assert state.fighter("anna").fatigue == 5
    state, _ = end_turn(state)  # Anna's next turn: a new window
    assert state.round == 2
    state, swing = fight_roll(state, typed([2, 9]), "anna", SWING)
    assert swing.attempt.fatigue_after == 6


def test_a_defensive_roll_can_be_the_turns_one_rise():
    state = fight(bram=4)
    state, _ = fight_roll(state, typed([6, 9]), "anna", SWING, target="bram")
    state, parry = fight_roll(state, typed([2]), "bram", PARRY)
    assert parry.attempt.fatigue_after == 5
    state, _ = end_turn(state)  # Bram's own turn opens his next window
    state, swing = fight_roll(state, typed([1, 9]), "bram", SWING)
    assert swing.attempt.fatigue_after == 6


def test_multiple_attackers_wear_down_a_stronger_opponent_once_per_turn():
    """'the more physical dice challenges you have to make, the greater the chance you're fatigue
    will increase. This opens the possibility for multiple attackers to wear down a much stronger
    opponent'."""
    state = start_fight([Fighter.from_sheet(name, stamina=3) for name in "abc"] + [Fighter("ox", 1, 3)])
    for attacker in "abc":
        state, _ = fight_roll(state, typed([6, 9]), attacker, SWING, target="ox")
        state, parry = fight_roll(state, typed([1]), "ox", PARRY)
        state, _ = end_turn(state)
    assert state.fighter("ox").fatigue == 4  # three parries in one window: one rise
    state, _ = end_turn(state)  # the ox's turn passes; round 2, a new window for the ox
    state, _ = fight_roll(state, typed([6, 9]), "a", SWING, target="ox")
    state, parry = fight_roll(state, typed([2]), "ox", PARRY)
    assert state.fighter("ox").fatigue == 5


def test_a_failed_attack_needs_no_defence():
    """'If this is an attack, the opponent does not have to defend.'"""
    state = fight(anna=7)
    state, swing = fight_roll(state, typed([6, 6]), "anna", SWING, target="bram")
    assert swing.attempt.auto_failed is True
    assert swing.defence_needed is False
    state, hit = fight_roll(fight(), typed([6, 6]), "anna", SWING, target="bram")
    assert hit.defence_needed is True
    _, miss = fight_roll(fight(), typed([1, 2]), "anna", SWING, target="bram")
    assert miss.defence_needed is False


def test_an_attack_without_a_value_needs_a_defence_unless_it_auto_fails():
    open_swing = Challenge(consistency=0, potential=2, physical=True)
    _, record = fight_roll(fight(), typed([2]), "anna", open_swing, target="bram")
    assert record.defence_needed is True
    assert fight_roll(fight(), typed([2]), "anna", open_swing)[1].defence_needed is None


def test_only_the_first_challenge_of_a_ranged_attack_into_a_cluster_can_raise_fatigue():
    """'If you use a ranged attack against a target in a combat cluster ... only the first'."""
    shot = Challenge(consistency=1, potential=0, value=4, physical=True)
    state, records = ranged_attack_into_cluster(fight(anna=4), typed([5, 6], [1, 9]), "anna", [shot, shot])
    assert records[0].attempt.fatigue_rose is False
    assert records[1].attempt.rise_due is True
    assert records[1].attempt.fatigue_rose is False
    assert state.fighter("anna").fatigue == 4


def test_a_ranged_attack_into_a_cluster_raises_on_its_first_challenge():
    shot = Challenge(consistency=1, potential=0, value=4, physical=True)
    state, records = ranged_attack_into_cluster(
        fight(anna=4), typed([1, 6], [1, 9]), "anna", [shot, shot], target="bram"
    )
    assert [r.attempt.fatigue_after for r in records] == [5, 5]
    assert records[0].target == "bram"
    with pytest.raises(RulesError):
        ranged_attack_into_cluster(state, typed(), "anna", [])


def test_a_non_physical_roll_in_combat_never_raises_fatigue():
    state, record = fight_roll(fight(anna=5), typed([1]), "anna", WITS)
    assert record.attempt.fatigue_after == 5
    assert state.fighter("anna").rose_this_turn is False


def test_moving_without_a_physical_challenge_raises_nothing():
    """'Moving from one square to another doesn't increase a character's fatigue'."""
    state = fight(anna=4)
    moved, _ = end_turn(state)
    assert moved.fighter("anna").fatigue == 4
    climb = Challenge(consistency=0, value=2, physical=True)
    _, record = fight_roll(state, typed([2]), "anna", climb)  # a climb while moving: physical
    assert record.attempt.fatigue_after == 5


def test_taking_a_breather_returns_fatigue_to_base():
    """'By taking a breather (see List of combat actions) characters can lower their fatigue.'"""
    state = start_fight([Fighter("anna", base_fatigue=2, fatigue=9), Fighter("bram", 1, 1)])
    state, breather = take_breather(state, "anna")
    assert (breather.fatigue_before, breather.fatigue_after) == (9, 2)
    assert state.fighter("anna").fatigue == 2


def test_a_breather_is_the_whole_action():
    state, _ = take_breather(fight(anna=5), "anna")
    with pytest.raises(RulesError, match="breather"):
        fight_roll(state, typed([6]), "anna", SWING)
    with pytest.raises(RulesError, match="already took"):
        take_breather(state, "anna")
    acted, _ = fight_roll(fight(anna=5), typed([6, 6]), "anna", SWING)
    with pytest.raises(RulesError, match="already acted"):
        take_breather(acted, "anna")
    with pytest.raises(RulesError, match="own turn"):
        take_breather(fight(), "bram")


def test_after_a_breather_a_defence_can_still_raise_fatigue_once():
    state = start_fight([Fighter("anna", base_fatigue=3, fatigue=5), Fighter("bram", 1, 1)])
    state, _ = take_breather(state, "anna")
    state, _ = end_turn(state)
    state, parry = fight_roll(state, typed([1]), "anna", PARRY)
    assert parry.attempt.fatigue_after == 4
    state, again = fight_roll(state, typed([1]), "anna", PARRY)
    assert again.attempt.fatigue_after == 4


def test_turns_follow_the_order_and_rounds_count():
    state = fight()
    state, first = end_turn(state)
    assert (first.ended, first.next, first.new_round, state.round) == ("anna", "bram", False, 1)
    state, second = end_turn(state)
    assert (second.ended, second.next, second.new_round, state.round) == ("bram", "anna", True, 2)


def test_only_the_fighter_whose_turn_it_is_attacks():
    with pytest.raises(RulesError, match="whose turn"):
        fight_roll(fight(), typed([6]), "bram", SWING, target="anna")
    with pytest.raises(RulesError, match="themself"):
        fight_roll(fight(), typed([6]), "anna", SWING, target="anna")
    with pytest.raises(RulesError, match="no fighter"):
        fight_roll(fight(), typed([6]), "anna", SWING, target="zed")


def test_a_fight_needs_distinct_fighters_on_the_track():
    with pytest.raises(RulesError):
        start_fight([])
    with pytest.raises(RulesError):
        start_fight([Fighter("a", 1, 1), Fighter("a", 1, 1)])
    with pytest.raises(RulesError):
        start_fight([Fighter("a", 1, 21)])


def test_initiative_is_a_dexterity_challenge_highest_first():
    order = roll_initiative(typed([2, 7], [5], [4, 1, 1]), [("anna", 1), ("bram", 0), ("cara", -2)])
    assert [(r.who, r.roll.result) for r in order] == [("anna", 7), ("bram", 5), ("cara", 0)]
    assert order[0].roll.faces == (2, 7)


def test_initiative_ties_go_to_die_result_then_dexterity_then_the_list():
    tied = roll_initiative(typed([4], [4, 2], [4, 3]), [("anna", 0), ("bram", 1), ("cara", 1)])
    assert [r.who for r in tied] == ["bram", "cara", "anna"]
    per_fighter = roll_initiative(
        typed(), [("anna", 0), ("bram", 0)], fighter_dice={"anna": typed([3]), "bram": typed([3])}
    )
    assert [r.who for r in per_fighter] == ["anna", "bram"]
    with pytest.raises(RulesError):
        roll_initiative(typed([1], [1]), [("anna", 0), ("anna", 0)])


def test_initiative_has_no_challenge_value_and_keeps_its_faces():
    order = roll_initiative(typed([1, 10]), [("anna", 1)])
    assert order[0].roll.success is None
    assert order[0].roll.faces == (1, 10)


def test_a_ranged_attack_into_a_cluster_may_attack_several_fighters_one_challenge_each():
    """[ours] One challenge per target in the cluster; still only the first can raise fatigue."""
    state = start_fight(
        [
            Fighter.from_sheet(who, stamina=3, fatigue=4 if who == "anna" else None)
            for who in ("anna", "bram", "cole")
        ]
    )
    shot = Challenge(consistency=0, potential=0, value=4, physical=True)
    state, records = ranged_attack_into_cluster(
        state, typed(), "anna", [shot, shot], targets=["bram", "cole"], fighter_dice=[typed([5]), typed([1])]
    )
    assert [r.target for r in records] == ["bram", "cole"]
    assert [r.attempt.roll.d6 for r in records] == [5, 1]
    assert [r.defence_needed for r in records] == [True, False]  # the second auto-fails: 1 < fatigue 4
    assert records[1].attempt.rise_held_back is True
    assert state.fighter("anna").fatigue == 4
    with pytest.raises(RulesError, match="2 targets"):
        ranged_attack_into_cluster(state, typed([5], [5]), "anna", [shot, shot], targets=["bram"])
    with pytest.raises(RulesError, match="2 dice"):
        ranged_attack_into_cluster(
            state, typed(), "anna", [shot, shot], targets=["bram", "cole"], fighter_dice=[]
        )
