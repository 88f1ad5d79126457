"""How the d6 table's lines read, made in Python (d6/presenters.py): a fight challenge, a chase
exchange, the log's entries. Given these payloads, the table reads this."""

import re

from d6 import events, presenters
from d6.panels import Track
from d6.services.sheet import SheetScore
from d6.templatetags import d6_tags


def text(html) -> str:
    """The words a reader sees: tags dropped, spaces collapsed."""
    return " ".join(re.sub(r"<[^>]+>", "", str(html)).split())


ROLL = {
    "name": "Marta",
    "rolled": "Dexterity",
    "consistency": 2,
    "physical": True,
    "faces": [2, 7, 3],
    "die_result": 7,
    "result": 7,
    "value": 6,
    "success": True,
    "target_name": "Bandit 2",
    "defence_needed": True,
}


def test_dice_read_the_d6_first_then_the_d10s():
    html = presenters.faces_html([4, 9])
    assert 'd6 <span class="die d6">4</span>, d10 <span class="die d10">9</span>' in html
    assert text(html) == "d6 4, d10 9"  # each die named in words, not by a tooltip a phone never shows
    assert text(presenters.faces_html([4, 9, 10])) == "d6 4, d10s 9 10"
    assert presenters.dice_words([4, 9, 10]) == "d6 4, d10s 9, 10" and presenters.dice_words([2]) == "d6 2"


def test_an_attack_that_meets_its_value_reads_success_and_the_target_must_defend():
    line = presenters.roll_line(ROLL)
    assert 'class="roll-line ok"' in line
    assert text(line) == (
        "Marta attacks Bandit 2: Dexterity (Consistency 2, physical) d6 2, d10s 7 3 → "
        "die result 7 (the highest die) vs 6: success · Bandit 2 must defend"
    )


def test_a_die_result_below_fatigue_fails_outright_and_fatigue_rises():
    roll = {**ROLL, "success": False, "auto_failed": True, "fatigue_before": 4, "fatigue_rose": True}
    roll |= {"fatigue_after": 5, "target_name": "", "potential": 1, "result": 3}
    line = presenters.roll_line(roll)
    assert 'class="roll-line failed"' in line
    assert text(line) == (
        "Marta: Dexterity (Consistency 2, Potential 1, physical) d6 2, d10s 7 3 → die result 7 (the highest "
        "die), +1 = result 3 vs 6: fails outright (die result below fatigue 4) · fatigue 4 → 5"
    )


def test_a_defence_says_whether_the_attack_is_stopped():
    defence = {**ROLL, "target_name": "", "defends_against": True, "attacker_name": "Bandit 1"}
    assert "defends against Bandit 1" in text(presenters.roll_line(defence))
    assert text(presenters.roll_line(defence)).endswith("success · the attack is stopped")
    assert text(presenters.roll_line({**defence, "success": False})).endswith("failure · the attack lands")


def test_a_roll_without_a_value_shows_its_result_for_the_storyguide_to_judge():
    roll = {**ROLL, "value": None, "success": None, "target_name": "", "rise_held_back": True}
    assert text(presenters.roll_outcome(roll)) == "result 7"
    assert text(presenters.roll_line(roll)).endswith("but fatigue already rose this turn")


def test_a_margin_of_three_closes_a_square_and_minus_three_falls_behind():
    exchange = {"moved_ahead": [], "caught_by": None}
    assert (
        text(presenters.margin_effect({"name": "Bandit 1", "margin": 3}, exchange)) == "+3: closes a square"
    )
    assert (
        text(presenters.margin_effect({"name": "Bandit 1", "margin": -3}, exchange))
        == "-3: falls a square behind"
    )
    assert text(presenters.margin_effect({"name": "Bandit 1", "margin": 2}, exchange)) == "+2: nobody moves"


def test_a_chaser_who_passes_reads_moves_ahead_and_one_who_acts_reaches_the_target():
    passing = {"name": "Bandit 1", "runner": "7", "margin": 4}
    assert text(presenters.margin_effect(passing, {"moved_ahead": ["Bandit 1"]})) == "+4: moves ahead"
    acting = {"acts_against_target": True, "caught_by": "7"}
    assert text(presenters.margin_effect(passing, acting)) == "+4: reaches the target"


def test_a_runner_whose_die_is_below_fatigue_drops_out_of_the_exchange():
    roll = {"name": "Bandit 2", "role": "chaser", "faces": [1, 4], "result": 4, "dropped_out": True}
    roll |= {"die_result": 1, "fatigue_before": 3, "fatigue_rose": True, "fatigue_after": 4}
    assert text(presenters.exchange_roll(roll, {})) == (
        "Bandit 2 (chaser) d6 1, d10 4 → result 4 · die result 1 below fatigue 3: drops out · fatigue 3 → 4"
    )


def test_the_moves_of_an_exchange_read_as_one_sentence():
    moves = [
        {"chaser": "2", "chaser_name": "Bandit 1", "mover": "2", "before": 3, "after": 2},
        {
            "chaser": "3",
            "chaser_name": "Bandit 2",
            "mover": "1",
            "mover_name": "Marta",
            "before": 2,
            "after": 3,
        },
        {"chaser": "4", "chaser_name": "Wren", "mover": "4", "before": 1, "after": 0},
    ]
    assert presenters.exchange_moves({"moves": moves, "acts_against_target": True}) == (
        "Bandit 1 closes in: 3 → 2 squares; Marta pulls away from Bandit 2: 2 → 3 squares; "
        "Wren reaches the target and acts against them instead of passing."
    )
    assert presenters.move_text({"chaser_name": "Wren", "after": -1}, {}) == (
        "Wren moves ahead of the target instead of acting against them"
    )


def test_a_caught_target_reads_caught_by_the_chaser_in_the_log():
    ended = {"outcome": "caught", "target_name": "Marta", "caught_by_name": "Bandit 1"}
    assert text(presenters.chase_ended_line(ended)) == "Caught! Marta is spent: Bandit 1 catches up."
    acted = {**ended, "acts_against_target": True}
    assert text(presenters.chase_ended_line(acted)) == (
        "Caught! Bandit 1 reaches Marta and acts against them instead of passing."
    )


def test_an_overtaken_or_escaped_target_reads_so_in_the_log():
    overtaken = {"outcome": "overtaken", "target_name": "Marta", "moved_ahead": ["Bandit 1", "Bandit 2"]}
    assert (
        text(presenters.chase_ended_line(overtaken))
        == "Overtaken! Bandit 1, Bandit 2 ran past Marta instead of acting."
    )
    assert (
        text(presenters.chase_ended_line({"outcome": "escaped", "target_name": "Marta"}))
        == "Escaped! Marta gets away."
    )


def test_a_chase_starts_with_each_chaser_so_many_squares_behind():
    started = {
        "chasers": [{"name": "Bandit 1", "distance": 1}, {"name": "Bandit 2", "distance": 3}],
        "target_name": "Marta",
        "terrain": {"name": "Market streets", "rolled": "Running"},
        "escape_distance": 6,
    }
    assert text(presenters.chase_started_line(started)) == (
        "A chase! Bandit 1 (1 square behind), Bandit 2 (3 squares behind) after Marta on Market streets: "
        "everyone rolls Running. 6 squares behind, a chaser loses sight."
    )


def test_initiative_lists_the_order_with_dice_and_who_acts_first():
    started = {
        "order": [
            {"name": "Marta", "faces": [5, 8], "result": 8},
            {"name": "Wren", "faces": [2], "result": 2},
        ]
    }
    started["first"] = "Marta"
    assert text(presenters.fight_started_line(started)) == (
        "The fight begins. Initiative (Dexterity): 1. Marta d6 5, d10 8 → result 8, 2. Wren d6 2 → result 2. "
        "Marta acts first."
    )


def test_a_breather_in_a_chase_reads_standing_still():
    breather = {"name": "Wren", "fatigue_before": 6, "fatigue_after": 2}
    assert text(presenters.breather_line(breather)) == "Wren takes a breather: fatigue 6 → 2 (base)."
    assert text(presenters.breather_line({**breather, "in_chase": 1})) == (
        "Wren stands still and gets their breath back: fatigue 6 → 2 (base)."
    )


def test_terrain_lines_name_each_terrain_with_its_roll_and_who_chooses():
    offered = {
        "target_name": "Marta",
        "chooser": "alice",
        "terrains": [{"name": "Rooftops", "rolled": "Climbing"}],
    }
    assert text(presenters.terrain_offered_line(offered)) == (
        "The storyguide offers Marta a terrain change: Rooftops (Climbing). Alice chooses."
    )
    chosen = {
        "target_name": "Marta",
        "before": {"name": "Streets"},
        "after": {"name": "Rooftops", "rolled": "Climbing"},
    }
    chosen |= {"from_exchange": 3, "dice_cleared": ["Wren"]}
    assert text(presenters.terrain_chosen_line(chosen)) == (
        "Marta takes the chase from Streets onto Rooftops: from exchange 3 everyone rolls Climbing. "
        "Dice already sent (Wren) are for the old ground: roll again."
    )


def test_a_turn_that_ends_with_a_lapsed_defence_and_a_new_round():
    ended = {"defence_lapsed": "Bandit 2", "ended_name": "Marta", "new_round": True, "next_round": 2}
    ended["next_name"] = "Wren"
    assert text(presenters.turn_ended_line(ended)) == (
        "Bandit 2 does not defend. End of Marta’s turn. Round 2 begins: Wren acts."
    )


def test_a_value_set_to_none_reads_none():
    assert text(presenters.value_set_line({"name": "Marta", "value": None})) == (
        "The storyguide sets the challenge value of Marta’s action: none."
    )
    assert text(presenters.value_set_line({"name": "Marta", "value": 8, "defence": True})) == (
        "The storyguide sets the challenge value of Marta’s defence: 8."
    )


def test_a_pass_choice_and_typed_dice_read_in_the_log():
    assert text(
        presenters.pass_choice_line({"name": "Wren", "target_name": "Marta", "move_ahead": True})
    ) == ("Wren, if the roll would pass Marta: moves ahead of them.")
    faces = {"name": "Wren", "rolled": "Running", "exchange": 2, "faces": [3, 9]}
    assert text(presenters.faces_in_line(faces)) == "Wren rolled Running for exchange 2: d6 3, d10 9"


def test_an_npcs_typed_dice_read_behind_the_screen_for_players():
    typed = {"combatant": "7", "name": "Bandit 1", "rolled": "Running", "exchange": 2, "faces": [3, 9]}
    shown = events.players_entry("d6_faces_in", typed, set(), "results")
    assert (
        text(presenters.faces_in_line(shown)) == "Bandit 1 rolled Running for exchange 2: (behind the screen)"
    )


def test_a_caught_target_reads_caught_by_the_chaser():
    caught = presenters.chase_outcome("caught", "Marta", "Bandit 1", acts_against_target=False)
    assert text(caught) == "Caught! Marta is spent and Bandit 1 catches up."
    acted = presenters.chase_outcome("caught", "Marta", "Bandit 1", acts_against_target=True)
    assert text(acted) == "Caught! Bandit 1 reaches Marta and acts against them instead of passing."


def test_an_overtaken_target_names_who_ran_past_and_an_escape_says_nobody_is_left():
    overtaken = presenters.chase_outcome(
        "overtaken", "Marta", "", acts_against_target=False, ahead=["Bandit 1"]
    )
    assert (
        text(overtaken)
        == "Overtaken! Bandit 1 ran past Marta instead of acting; no chaser is left behind them."
    )
    escaped = presenters.chase_outcome("escaped", "Marta", "", acts_against_target=False)
    assert text(escaped) == "Escaped! Marta gets away: no chaser is left in the chase."


def test_the_chase_heading_numbers_only_a_second_chase():
    assert (
        text(presenters.chase_heading(1, ["Bandit 1", "Bandit 2"], "Marta"))
        == "Chase: Bandit 1, Bandit 2 after Marta"
    )
    assert text(presenters.chase_heading(2, ["Bandit 1"], "Marta")) == "Chase 2: Bandit 1 after Marta"


def test_a_stretch_reads_the_exchanges_run_on_it():
    assert presenters.stretch_exchanges({"starts_at": 1, "until": 3, "count": 3}) == "exchanges 1–3"
    assert presenters.stretch_exchanges({"starts_at": 4, "until": 4, "count": 1}) == "exchange 4"
    assert presenters.stretch_exchanges({"starts_at": 5, "until": 4, "count": 0}) == "from exchange 5"


def test_a_chasers_distance_reads_squares_behind_reached_or_ahead():
    assert presenters.distance_text("running", 1) == "1 square behind"
    assert presenters.distance_text("running", 3) == "3 squares behind"
    assert presenters.distance_text("running", 0) == "reached the target"
    assert presenters.distance_text("ahead", -1) == "moved ahead of the target"
    assert presenters.out_text("dropped_out") == "dropped out (fatigue)"
    assert presenters.out_text("running") == ""


def test_a_lane_label_names_the_target_and_why_the_chaser_is_out():
    assert presenters.lane_label("Bandit 1", "dropped_out", 2, "Marta") == "Bandit 1: 2 behind · dropped out"
    assert presenters.lane_label("Bandit 1", "running", 0, "Marta") == "Bandit 1: reached Marta"
    assert presenters.lane_label("Bandit 1", "ahead", -1, "Marta") == "Bandit 1: moved ahead of Marta"
    assert presenters.grid_title([("Bandit 1", 1), ("Bandit 2", 2)], "Marta") == (
        "The chase grid: Bandit 1 1 square behind Marta; Bandit 2 2 squares behind Marta"
    )


def test_a_chaser_one_square_behind_acts_or_moves_ahead_and_dice_read_in_or_not():
    assert presenters.at_target_choice(False, "Marta") == "acts against Marta"
    assert presenters.at_target_choice(True, "Marta") == "moves ahead"
    assert presenters.dice_in([3, 4]) == "dice in"
    assert presenters.dice_in([]) == "no dice yet"


def test_a_terrains_swatch_is_drawn_without_a_style_attribute():
    square = presenters.swatch("terrain-0")
    assert square.startswith('<svg class="swatch terrain-0"')
    assert "style" not in square and "fill" not in square  # d6.css colours it, in either theme


# --- the chase panel's forms ----------------------------------------------------------------------


def test_a_player_is_told_which_dice_to_roll_and_type_for_the_next_exchange():
    assert text(presenters.faces_prompt(3, "Dexterity", 2)) == (
        "Exchange 3: roll Dexterity, one d6 and 2 d10s, and type them (the d6 first)"
    )
    assert "one d6 and 1 d10," in presenters.faces_prompt(1, "Stamina", 1)


def test_dice_sent_by_a_player_wait_for_the_storyguide_to_roll_the_exchange():
    assert text(presenters.sent_note([5, 8])) == (
        "Sent: d6 5, d10 8. The storyguide rolls the exchange when everyone’s dice are in."
    )


def test_the_exchange_button_names_the_next_exchange_and_the_terrains_roll():
    terrain = {"name": "Rooftops", "rolled": "Climbing"}
    assert presenters.roll_exchange_text(4, terrain) == "Roll exchange 4 (Climbing on Rooftops)"


def test_runners_whose_dice_are_not_sent_are_named_and_none_reads_nothing():
    assert presenters.not_sent_yet(["Marta", "Bandit 1"]) == " Not sent yet: Marta, Bandit 1."
    assert presenters.not_sent_yet([]) == ""


def test_a_terrain_reads_its_name_then_what_is_rolled_there():
    river = {"name": "The river", "rolled": "Swimming"}
    assert presenters.terrain_html(river) == '<b>The river</b> <span class="muted">(Swimming)</span>'
    assert presenters.terrain_choice(river) == 'The river <span class="small">(Swimming)</span>'


# --- the fight panel ------------------------------------------------------------------------------


def test_a_players_value_is_the_storyguides_the_attacks_result_or_none_set():
    assert presenters.value_note(defence=True, set_by_storyguide=True) == "set by the storyguide"
    assert presenters.value_note(defence=False, set_by_storyguide=True) == "set by the storyguide"
    assert presenters.value_note(defence=True, set_by_storyguide=False) == "the attack’s result"
    assert presenters.value_note(defence=False, set_by_storyguide=False) == (
        "none set: the storyguide judges your result; an attack’s result is what the defender must meet"
    )


def test_the_set_value_field_names_the_defence_or_the_action_and_a_player_who_rolls_it():
    assert presenters.set_value_label("Wren", defence=True) == "Challenge value of Wren’s defence"
    assert presenters.set_value_label("Marta", defence=False, player_rolls=True) == (
        "Challenge value for Marta’s action (their player rolls against it)"
    )
    assert presenters.set_value_label("Bandit 1", defence=False) == "Challenge value for Bandit 1’s action"


def test_the_first_challenge_is_the_action_and_later_ones_the_next_challenge():
    assert presenters.challenge_word(acted=False) == "action"
    assert presenters.challenge_word(acted=True) == "next challenge"


def test_queued_defenders_defend_against_the_same_shot():
    assert presenters.queued_defences(["Wren"]) == "Then: Wren defends against the same shot."
    assert presenters.queued_defences(["Wren", "Hale"]) == "Then: Wren, Hale defend against the same shot."
    assert presenters.queued_defences([]) == ""


def test_an_awaited_defence_names_the_defender_the_attacker_and_the_result():
    line = presenters.awaiting_defence("Wren", "Bandit 1", 7)
    assert line.startswith("<b>Wren</b>")
    assert text(line) == "Wren must defend against Bandit 1’s attack (result 7)."


def test_a_number_field_shows_the_value_set_or_the_placeholder_none():
    assert d6_tags.prefill(6) == 'value="6"'
    assert d6_tags.prefill(0) == 'value="0"'
    assert d6_tags.prefill(None) == 'placeholder="none"'


# --- fatigue tracks and scores --------------------------------------------------------------------


def test_fatigue_above_one_fails_die_results_below_it_and_above_six_every_physical_roll_raises_it():
    assert text(presenters.track_text(1, 6)) == "no roll fails on fatigue"
    assert presenters.track_text(4, 6) == '<span class="fails-text">die results below 4 fail outright</span>'
    rising = presenters.track_text(7, 6)
    assert text(rising) == "die results below 7 fail outright · every physical roll raises it"
    assert '<span class="rises-text">every physical roll raises it</span>' in rising


def test_a_track_marks_the_fail_zone_the_fatigue_now_the_base_and_where_fatigue_always_rises():
    track = Track.of(fatigue=8, base=3)
    cells = {cell.number: cell for cell in track.cells}
    assert cells[1].css_class == "cell fails"
    assert cells[3].css_class == "cell fails base"
    assert cells[7].css_class == "cell fails rises"
    assert cells[8].css_class == "cell now rises"
    assert cells[9].css_class == "cell rises"
    assert (cells[8].testid, cells[3].testid, cells[9].testid) == ("track-now", "track-base", "")
    assert text(track.text) == "die results below 8 fail outright · every physical roll raises it"


def test_a_track_numbers_only_its_ends_its_base_and_the_fatigue_now():
    track = Track.of(fatigue=5, base=2)
    assert [cell.shown for cell in track.cells if cell.shown] == ["1", "2", "5", "20"]


def test_a_score_reads_its_consistency_then_potential_and_physical():
    dexterity = SheetScore("attribute", "dexterity", 2, 1, True)
    swordplay = SheetScore("ability", "Swordplay", 3, 0, False)
    assert presenters.score_option(dexterity) == "Dexterity (Consistency 2, Potential 1, physical)"
    assert presenters.score_option(swordplay) == "Swordplay (Consistency 3)"
    assert presenters.scores_html([dexterity, swordplay]) == (
        '<span class="score">Dexterity <b>C2</b> P1 <span class="muted">phys</span></span> · '
        '<span class="score">Swordplay <b>C3</b></span>'
    )


def test_a_track_says_where_a_breather_brings_it_back():
    assert presenters.track_base(6, 2) == "a breather brings it back to 2"
    assert presenters.track_base(2, 2) == "at its base, 2: a breather lowers it no further"
    assert presenters.track_label(6, 2, 20) == "Fatigue 6 of 20; a breather brings it back to 2"
    track = Track.of(fatigue=6, base=2)
    assert track.label == "Fatigue 6 of 20; a breather brings it back to 2"
    assert track.base_text == "a breather brings it back to 2"
