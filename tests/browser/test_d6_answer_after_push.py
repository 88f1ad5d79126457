"""A command's frame often reaches the page before its own HTTP answer does. The player's controls come in
with that frame at once (keep_input.js), so the next click carries the version the page shows; and a
refusal that comes back after a push has redrawn its form is shown in the redrawn form, with what the
player had chosen put back."""

import re

import pytest
from playwright.sync_api import expect

from combat.models import Encounter
from d6 import services as d6_services
from d6.models import Fight, Fighter

from .people import REFUSED, outside_the_event_loop, wait_until
from .test_d6_players_act import demo_encounter, no_errors

pytestmark = pytest.mark.browser


def _to_a_player_turn(encounter_id: int, guide) -> int:
    """The fight started and turns ended until a player character acts: that fighter's combatant id."""
    version = Encounter.objects.get(pk=encounter_id).version
    d6_services.start_fight(guide, encounter_id, version)
    for _ in range(4):
        fight = Fight.objects.get(encounter_id=encounter_id)
        current = Fighter.objects.select_related("combatant__character").get(fight=fight, position=fight.turn)
        if not current.combatant.character.is_npc:
            return current.combatant_id
        d6_services.end_turn(guide, encounter_id, Encounter.objects.get(pk=encounter_id).version)
    raise AssertionError("no player character's turn in a round")


def _player_on_their_turn(table, name: str):
    """The storyguide's page and the acting player's, on a player character's turn."""
    saga, encounter, combatants = demo_encounter(name)
    acting = outside_the_event_loop(_to_a_player_turn, encounter.pk, saga.storyguide)
    character = next(row.character for row in combatants.values() if row.pk == acting)
    guide = table.person("storyguide")
    guide.enter_as(saga.storyguide)
    player = table.person(character.owner.username)
    player.enter_as(character.owner)
    for person in (guide, player):
        person.goto(f"/encounters/{encounter.pk}/d6/")
        person.wait_until_live()
    return guide, acting, character.name, player, player.page


def test_a_player_ends_their_turn_while_the_breather_s_answer_is_still_on_its_way(table, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # load_demo_d6's logins
    _, acting, name, player, page = _player_on_their_turn(table, "Breather, then on")
    panel = page.get_by_test_id(f"your-turn-{acting}")
    answers = []  # the breather, applied by the server; its answer kept back until the test lets it through
    page.route(re.compile(r"/d6/breather/$"), lambda route: answers.append((route, route.fetch())))
    panel.get_by_test_id("player-breather").click()
    expect(page.get_by_test_id("turn-breather")).to_be_visible()  # the frame is in
    wait_until(page, lambda: answers, "the breather applied")

    panel.get_by_test_id("player-end-turn").click()  # before the breather's answer is back
    expect(page.get_by_test_id("turn-current")).not_to_have_text(name)  # accepted: the turn moved on
    route, answer = answers[0]
    route.fulfill(response=answer)
    no_errors(player)


def test_a_refusal_after_a_push_shows_in_the_redrawn_form_with_the_choices_back(table, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # load_demo_d6's logins
    table.allow(REFUSED)  # the roll is refused on purpose
    guide, acting, _, player, page = _player_on_their_turn(table, "Roll, refused")
    panel = page.get_by_test_id(f"your-turn-{acting}")
    form = panel.get_by_test_id("player-roll-form")
    form.get_by_test_id("player-roll-score").select_option(index=2)
    chosen = form.get_by_test_id("player-roll-score").input_value()
    form.get_by_test_id("player-roll-target").select_option(label="Watchman Hale")
    target = form.get_by_test_id("player-roll-target").input_value()

    rolls, roll_url = [], re.compile(r"/d6/roll/$")  # the roll, kept back before the server sees it
    page.route(roll_url, lambda route: rolls.append(route))
    form.get_by_test_id("player-roll-submit").click()
    wait_until(page, lambda: rolls, "the roll sent")
    # Meanwhile the storyguide sets the challenge value: a push redraws the player's controls.
    status = page.get_by_test_id("encounter-status")
    drawn_at = status.get_attribute("data-version")
    guide.page.get_by_test_id("set-value").fill("9")
    guide.page.get_by_test_id("set-value-submit").click()
    expect(status).not_to_have_attribute("data-version", drawn_at)
    expect(form.locator("input[name=expected_version]")).to_have_value(status.get_attribute("data-version"))
    expect(form.get_by_test_id("player-roll-score")).not_to_have_value(chosen)  # redrawn: set aside
    expect(form.get_by_test_id("player-roll-submit")).to_be_disabled()  # and waiting for the answer
    rolls[0].continue_()  # drawn at the old version: refused
    page.unroute(roll_url)

    error = panel.get_by_test_id("yours-error")
    expect(error).to_contain_text("The encounter has moved on")
    expect(form.get_by_test_id("player-roll-score")).to_have_value(chosen)
    expect(form.get_by_test_id("player-roll-target")).to_have_value(target)
    expect(form.get_by_test_id("player-roll-submit")).to_be_enabled()

    form.get_by_test_id("player-roll-submit").click()  # sent again from the redrawn form: it goes through
    expect(page.get_by_test_id("d6-turn").get_by_test_id("last-roll")).to_be_visible()
