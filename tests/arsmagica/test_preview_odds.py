"""The storyguide's phase preview: each roll's exact chance from the engine's `stress_odds`, and the
Fatigue phase's call for rolls from those who did other strenuous things (ArM3 p168)."""

import re
from fractions import Fraction

import pytest
from django.urls import reverse

from arsmagica.events import Kind
from arsmagica.odds import odds_context, percent
from arsmagica.rules import stress_odds
from arsmagica.sheet import sheet_of as ars_sheet
from combat.models import Event
from tests.personas import login

from .conftest import P168_FACES
from .test_services import resolve, through_movement

pytestmark = pytest.mark.django_db

FACES = {**P168_FACES, "anselm": {"fatigue": [2]}}  # Combat Fatigue 2 + 2 = 4: does not beat 6


def control_panel(client, table) -> str:
    return (
        login(client, table.storyguide)
        .get(reverse("encounter_page", args=[table.encounter.pk]))
        .content.decode()
    )


def post(client, name, table, data):
    return client.post(reverse(name, args=[table.encounter.pk]), data, HTTP_HX_REQUEST="true")


def at_melee(table, scripted_dice):
    through_movement(table, scripted_dice)
    resolve(table, "first_missile")


def at_fatigue(table, scripted_dice):
    through_movement(table, scripted_dice)
    scripted_dice(table, FACES)  # the phases to come: Anselm's Fatigue die too
    for phase in ("first_missile", "melee", "second_missile", "magic"):
        resolve(table, phase)


def boris_attack(table):
    attacks = table.refresh().pending["result"]["attacks"]
    return next(a for a in attacks if a["attacker"] == str(table.boris.pk))


@pytest.mark.parametrize(
    "value, text",
    [(Fraction(47, 100), "47%"), (Fraction(1, 100), "1%"), (Fraction(19, 1000), "1.9%"), (Fraction(0), "0%"),
     (Fraction(1, 10**6), "<0.1%"), (Fraction(1), "100%"), (Fraction(9999, 10000), ">99%")],
)  # fmt: skip
def test_chances_read_as_percents(value, text):
    assert percent(value) == text


def test_each_attack_in_the_melee_preview_shows_the_engines_exact_chance(client, table, scripted_dice):
    at_melee(table, scripted_dice)
    login(client, table.storyguide)
    post(client, "arsmagica:preview_phase", table, {"expected_version": table.v, "phase": "melee"})
    attack = boris_attack(table)
    modifier = sum(value for _, value in attack["attack_parts"]) - attack["attack_roll"]["value"]
    expected = stress_odds(modifier, attack["defense_total"], 1, must_beat=True)
    rows = odds_context(table.refresh().pending)["preview"]["attacks"]
    row = next(r for r in rows if r["attacker"] == str(table.boris.pk))
    assert (row["odds"].success, row["odds"].botch) == (expected.success, expected.botch)
    needed = attack["defense_total"] - modifier + 1
    page = control_panel(client, table)
    assert page.count('data-testid="odds"') == len(table.refresh().pending["result"]["attacks"])
    assert (
        f'needs {needed}+ on the stress die: <b data-testid="odds-success">{percent(expected.success)}</b>'
        in page
    )
    assert 'botch <b data-testid="odds-botch">1%</b> (1 botch die)' in page


def test_more_botch_dice_show_a_larger_chance_of_botching(client, table, scripted_dice):
    at_melee(table, scripted_dice)
    login(client, table.storyguide)
    post(client, "arsmagica:preview_phase", table, {"expected_version": table.v, "phase": "melee"})
    response = post(
        client,
        "arsmagica:preview_phase",
        table,
        {"expected_version": table.v, "phase": "melee", f"botch_dice-{table.boris.pk}": "3"},
    )
    assert response.status_code == 200
    attack = boris_attack(table)
    modifier = sum(value for _, value in attack["attack_parts"]) - attack["attack_roll"]["value"]
    three = stress_odds(modifier, attack["defense_total"], 3, must_beat=True)
    page = control_panel(client, table)
    assert f'botch <b data-testid="odds-botch">{percent(three.botch)}</b> (3 botch dice)' in page
    assert percent(three.botch) == "2.7%"  # 1/10 x (1 - (9/10)^3)
    no_botch = post(
        client,
        "arsmagica:preview_phase",
        table,
        {"expected_version": table.v, "phase": "melee", f"botch_dice-{table.boris.pk}": "0"},
    )
    assert no_botch.status_code == 200
    assert "cannot botch (no botch dice)" in control_panel(client, table)


def test_fatigue_rolls_show_their_chance_to_beat_the_ease_factor(client, table, scripted_dice):
    at_fatigue(table, scripted_dice)
    login(client, table.storyguide)
    post(
        client,
        "arsmagica:preview_phase",
        table,
        {"expected_version": table.v, "phase": "fatigue", f"ease_factors-{table.boris.pk}": "9"},
    )
    roll = next(
        r for r in table.refresh().pending["result"]["fatigue"] if r["combatant"] == str(table.boris.pk)
    )
    modifier = sum(value for _, value in roll["parts"])
    odds = stress_odds(modifier, 9, 1, must_beat=True)
    page = control_panel(client, table)
    assert (
        f"needs {9 - modifier + 1}+ on the stress die: "
        f'<b data-testid="odds-success">{percent(odds.success)}</b>' in page
    )


def test_players_never_see_the_preview_or_its_odds(client, table, scripted_dice):
    at_melee(table, scripted_dice)
    login(client, table.storyguide)
    post(client, "arsmagica:preview_phase", table, {"expected_version": table.v, "phase": "melee"})
    page = (
        login(client, table.alice).get(reverse("arsmagica:play", args=[table.encounter.pk])).content.decode()
    )
    assert 'data-testid="odds"' not in page and "check before confirming" not in page


# --- the storyguide calls for fatigue rolls ---------------------------------------------------------


def test_the_fatigue_preview_offers_a_roll_to_whoever_did_not_fight_hand_to_hand(
    client, table, scripted_dice
):
    at_fatigue(table, scripted_dice)
    login(client, table.storyguide)
    post(client, "arsmagica:preview_phase", table, {"expected_version": table.v, "phase": "fatigue"})
    page = control_panel(client, table)
    assert f'data-testid="extra-roller-{table.anselm.pk}"' in page
    for fought in (table.boris, *table.bandits):
        assert f'data-testid="extra-roller-{fought.pk}"' not in page
    assert "fought hand to hand" in page


def test_a_called_fatigue_roll_is_previewed_confirmed_and_costs_a_short_term_level(
    client, table, scripted_dice
):
    at_fatigue(table, scripted_dice)
    login(client, table.storyguide)
    anselm = str(table.anselm.pk)
    response = post(
        client,
        "arsmagica:preview_phase",
        table,
        {"expected_version": table.v, "phase": "fatigue", "extra_fatigue_rollers": [anselm]},
    )
    assert response.status_code == 200
    pending = table.refresh().pending
    assert pending["options"]["extra_fatigue_rollers"] == [anselm]
    roll = next(r for r in pending["result"]["fatigue"] if r["combatant"] == anselm)
    assert (roll["total"], roll["levels_lost"]) == (4, 1)
    page = control_panel(client, table)
    assert re.search(rf'value="{anselm}" checked\s+data-testid="extra-roller-{anselm}"', page)
    response = post(
        client,
        "arsmagica:confirm_phase",
        table,
        {"expected_version": table.v, "phase": "fatigue", "extra_fatigue_rollers": [anselm]},
    )
    assert response.status_code == 200
    logged = Event.objects.filter(
        encounter=table.encounter, kind=Kind.FATIGUE_ROLL, payload__combatant=anselm
    )
    assert logged.count() == 1
    table.anselm_character.refresh_from_db()
    assert ars_sheet(table.anselm_character).fatigue_level == "winded"
    assert ars_sheet(table.anselm_character).fatigue_state["lost"] == ["short_term"]


def test_unticking_a_called_roll_before_confirming_leaves_them_alone(client, table, scripted_dice):
    at_fatigue(table, scripted_dice)
    login(client, table.storyguide)
    anselm = str(table.anselm.pk)
    post(
        client,
        "arsmagica:preview_phase",
        table,
        {"expected_version": table.v, "phase": "fatigue", "extra_fatigue_rollers": [anselm]},
    )
    post(client, "arsmagica:confirm_phase", table, {"expected_version": table.v, "phase": "fatigue"})
    assert not Event.objects.filter(kind=Kind.FATIGUE_ROLL, payload__combatant=anselm).exists()
    table.anselm_character.refresh_from_db()
    assert ars_sheet(table.anselm_character).fatigue_level == "fresh"
    assert table.refresh().phase == "round_over"


def test_a_player_cannot_call_for_fatigue_rolls(client, table, scripted_dice):
    at_fatigue(table, scripted_dice)
    response = post(
        login(client, table.alice),
        "arsmagica:preview_phase",
        table,
        {"expected_version": table.v, "phase": "fatigue", "extra_fatigue_rollers": [str(table.anselm.pk)]},
    )
    assert response.status_code == 422
    assert table.refresh().pending == {}


def test_a_correction_during_a_preview_leaves_it_and_its_form_takes_the_new_version(
    client, table, scripted_dice
):
    """A correction changes nothing the storyguide's preview of a rolled phase shows (its rolls, chances and
    options are the pending preview's): its frame leaves the panel, which is not worked out for it, and the
    panel's form takes each frame's version (`data-live-version`); a reload draws the same preview."""
    from unittest.mock import patch

    from arsmagica import odds, services
    from combat.audience import STORYGUIDE
    from combat.live import render_frame

    at_melee(table, scripted_dice)
    login(client, table.storyguide)
    post(client, "arsmagica:preview_phase", table, {"expected_version": table.v, "phase": "melee"})
    before = control_panel(client, table)
    changes = {"body_level": "light_wounds"}
    services.correct(table.storyguide, table.encounter.pk, table.v, table.bandits[0].pk, changes, "A graze")
    encounter = table.refresh()
    corrected = encounter.events.order_by("-seq").first()
    with patch.object(odds, "chance", side_effect=AssertionError("the preview worked out")):
        frame = render_frame(encounter, [corrected], STORYGUIDE, corrected.seq, corrected.seq)
    assert 'id="phase-preview"' not in frame and f'id="combatant-{table.bandits[0].pk}"' in frame
    after = control_panel(client, table)
    assert 'data-live-version\n    data-testid="preview-form"' in after

    def preview(page):
        panel = page[page.index('<section id="phase-preview"') :].split("</section>")[0]
        return re.sub(r'name="(expected_version|csrfmiddlewaretoken)" value="\w+"', "", panel)

    assert preview(after) == preview(before)
