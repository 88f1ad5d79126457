"""The words of the Ars Magica pages, made in Python (ArM3 p163-p177): buttons, roll breakdowns, log lines."""

from types import SimpleNamespace

from arsmagica import presenters
from arsmagica.odds import Chance
from arsmagica.rules.table import Refusal
from arsmagica.sheet import new_sheet
from arsmagica.templatetags.arsmagica_tags import correction_changes, disabled_by, roll, spell_name
from combat import systems

NAMES = {"1": "Sir Boris", "2": "Bandit 1", "3": "Bandit 2"}
# Sir Boris's sword against the first bandit (ArM3 p168): Attack 20 against Defense 16, Damage 11.
HIT = {
    "weapon": "Sword",
    "range": "reach",
    "difference": 4,
    "damage_total": 11,
    "soak": 3,
    "body_levels_lost": 2,
}


def test_the_close_button_counts_who_has_declared():
    assert presenters.close_declarations_label(2, 5) == "Close declarations, roll Initiative (2/5 declared)"


def test_the_close_button_says_how_many_cannot_act():
    """Of those who can act; the ones down (ArM3 p177) are not waited for, and the button says so."""
    label = presenters.close_declarations_label(0, 4, 2)
    assert label == "Close declarations, roll Initiative (0/4 declared; 2 cannot act)"


def test_the_end_button_names_this_round_and_the_next():
    assert presenters.end_round_label(1) == "End round 1, open round 2"


def test_a_refused_command_has_its_button_disabled():
    assert disabled_by(Refusal("Nobody has declared yet.")) == " disabled"
    assert disabled_by(None) == ""


def test_levels_are_counted_in_the_rulebooks_words():
    assert presenters.levels(1, "Body") == "1 Body level"
    assert presenters.lost(2, "Fatigue") == "2 Fatigue levels lost"
    assert (
        presenters.fatigue_lost({"levels_lost": 1, "fatigue_level": "winded"})
        == "1 Fatigue level lost, now winded"
    )
    assert (
        presenters.fatigue_loses({"levels_lost": 2, "fatigue_level": "weary"})
        == "loses 2 Fatigue levels, now weary"
    )


def test_a_hit_reads_its_damage_against_soak():
    assert presenters.weapon_at(HIT) == "Sword at reach"
    assert presenters.weapon_at({**HIT, "range": None}) == "Sword"
    assert presenters.damage_vs_soak(HIT) == "Damage 11 vs Soak 3"
    assert presenters.hit_outcome(HIT) == "Hit by 4: Damage 11 vs Soak 3 → 2 Body levels"
    assert (
        presenters.hit_outcome({**HIT, "body_levels_lost": 0})
        == "Hit by 4: Damage 11 vs Soak 3 → no lasting harm"
    )


def test_advantage_counts_on_next_rounds_attack_or_defense():
    assert presenters.advantage_side("advantage_defense") == "Defense"
    assert presenters.advantage_side("advantage_attack") == "Attack"
    assert presenters.advantage_carried({"attack": 3, "defense": 0}) == " Attack +3"
    assert presenters.advantage_carried({"attack": 3, "defense": 2}) == " Attack +3 Defense +2"
    assert presenters.advantage_words(3, 0) == "Attack +3 "
    assert presenters.advantage_words(0, 2) == "Defense +2"


def test_a_phase_names_the_levels_it_changed():
    change = {
        "combatant": "2",
        "body_level": ["unhurt", "light_wounds"],
        "fatigue_level": ["fresh", "winded"],
    }
    assert presenters.level_change(change) == "light wounds winded"
    only_fatigue = {**change, "body_level": ["unhurt", "unhurt"]}
    assert presenters.level_changes([only_fatigue], NAMES) == " Bandit 1:  winded."


def test_the_storyguide_reads_what_was_declared():
    summary = {"action_label": "Fight hand to hand", "weapon": "Sword", "engage": ["2", "3"]}
    assert (
        presenters.declaration_summary(summary, NAMES)
        == "Fight hand to hand with Sword, engaging Bandit 1, Bandit 2"
    )
    assert (
        presenters.declaration_summary({"action_label": "Cast a spell", "engage": []}, NAMES)
        == "Cast a spell"
    )


def test_an_engagement_says_who_prevailed():
    pair = {"a": "1", "b": "2", "range": "reach", "contested": True, "prevailed": "2"}
    assert presenters.engagement_line(pair, NAMES) == "Sir Boris ⚔ Bandit 1 at reach (Bandit 1 prevailed)"
    assert presenters.engagement_line({**pair, "contested": False}, NAMES) == "Sir Boris ⚔ Bandit 1 at reach"


def test_a_correction_lists_old_and_new_values():
    html = correction_changes({"fatigue_level": ["fresh", "winded"], "advantage_attack": [0, 3]})
    assert html == "fatigue fresh → <b>winded</b>, advantage attack  → <b>3</b>"


def test_rest_and_sleep_read_as_the_chart_says():
    assert presenters.after_meal(True) == ", after a good meal"
    assert presenters.after_meal(False) == ", without a good meal (eight hours of rest)"
    assert presenters.resting_how(True) == "staying active"
    assert presenters.still("winded") == "Winded, still"
    assert presenters.still("fresh") == "Fresh"
    stamina = {"value": 5, "stamina": 2, "total": 6, "ease_factor": 9, "success": False}
    assert presenters.stamina_outcome(stamina) == " + Stamina 2 with penalties = 6 vs ease factor 9: no help"
    assert presenters.stamina_outcome({**stamina, "total": 7}) == " + Stamina 2 = 7 vs ease factor 9: no help"
    assert presenters.simple_die_note(0) == " (as 10)" and presenters.simple_die_note(6) == ""


def test_a_stress_roll_says_its_faces_in_words_each_face_boxed():
    html = roll({"faces": [1, 1, 3], "value": 12, "botches": 0})
    assert html == (
        '<span class="roll" data-testid="roll">stress die '
        '<span class="die die-again">1</span>, <span class="die die-again">1</span>'
        ' (each 1 doubles and rolls again): <span class="die">3</span>'
        ' ×4 = <span class="die-value">12</span></span>'
    )
    botched = roll({"faces": [0], "botch_faces": [0, 0, 4], "value": 0, "botches": 2})
    assert '<span class="roll botched" data-testid="roll">stress die <span class="die">0</span>, ' in botched
    zero = '<span class="die die-botch">0</span>'
    assert f"3 botch dice ({zero} {zero} " in botched
    assert '):</span> two 0s, <strong class="botch" data-testid="botch">a double botch</strong>' in botched
    assert roll(None) == "" and roll({}) == ""  # a roll players do not see


def test_the_odds_say_what_to_aim_for_and_the_risk():
    chance = Chance(needed=9, success=1, botch=0, botch_dice=0)
    assert chance.aim == "needs 9+ on the stress die" and chance.risk == "cannot botch (no botch dice)"
    sure = Chance(needed=0, success=1, botch=0, botch_dice=3)
    assert sure.aim == "succeeds on any stress die that does not botch"
    assert sure.risk == 'botch <b data-testid="odds-botch">0%</b> (3 botch dice)'


def test_the_preview_and_its_options_by_phase():
    assert (
        presenters.nothing_happens("fatigue")
        == "Nothing happens in this phase unless you call for a roll below."
    )
    assert presenters.nothing_happens("melee") == "Nothing happens in this phase."
    assert (
        presenters.options_summary("fatigue")
        == "Options per combatant: botch dice, modifiers, who else rolls"
    )
    assert presenters.options_summary("magic") == "Options per combatant: botch dice and modifiers"


def test_a_spell_without_a_name_is_a_spell():
    assert spell_name("Pilum of Fire") == "<i>Pilum of Fire</i>"
    assert spell_name("") == "a spell"


def test_sheets_and_cards_in_words():
    bow = SimpleNamespace(missile=True, paces=60, twice=True)
    assert presenters.missile_words(bow) == "60 paces, twice"
    assert presenters.missile_words(SimpleNamespace(missile=False)) == "—"
    boris = SimpleNamespace(
        is_npc=False,
        sheet=new_sheet(soak=5, dodge_defense=3, combat_fatigue=3, quickness=2, encumbrance=-1),
    )
    assert presenters.card_classes(boris) == "card body-unhurt fatigue-fresh"
    assert presenters.sheet_line(boris) == "Soak 5 · Dodge 3 · Combat Fatigue 3 · Qik 2 · Enc -1"
    assert presenters.stamina_default(True) == "typed" and presenters.stamina_default(False) == "none"


def test_the_declarations_panel_says_why_there_is_nothing_to_fill_in():
    words = presenters.my_declarations_words(SimpleNamespace(status="running", round_number=2), False)
    assert words == {
        "heading": "Your declarations",
        "nobody": "None of your characters is in this fight.",
        "closed": "Declarations are closed for round 2; watch the round below.",
    }
    waiting = presenters.my_declarations_words(
        SimpleNamespace(status="running", round_number=2), False, ("Sir Boris",)
    )
    assert waiting["heading"] == "Declare for Sir Boris"  # the top of the panel names the choice waiting
    assert (
        presenters.my_declarations_words(SimpleNamespace(status="ended"), True)["closed"]
        == "The encounter is over."
    )
    running = SimpleNamespace(status="running")
    assert presenters.time_applies_to(running) == "Applies to everyone in this fight, between rounds."


def test_a_phase_that_passed_by_itself_reaches_players_as_it_is():
    """A phase nobody acts in passes with no dice and no options (ArM3 p163): nothing to screen, no error."""
    quiet = {"phase": "first_missile", "deaths": [], "levels": [], "quiet": True}
    event = SimpleNamespace(kind="phase_resolved", payload=quiet)
    assert systems.get("arsmagica").log.players_payload(event, {"1"}, {"1"}, "results") == quiet
