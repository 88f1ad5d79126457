"""The d6 storyguide's keyboard shortcuts, listed on the control panel: S starts the fight, R rolls,
B takes a breather, E ends the turn; never while typing in a field."""

import pytest
from playwright.sync_api import expect

from .test_d6_players_act import demo_encounter

pytestmark = pytest.mark.browser


def controls_are_current(page):
    """The controls show the newest frame: a pushed panel comes in at once, though its own form's request
    is still on its way (keep_input.js), so a key pressed next sends the version the page shows."""
    version = page.get_by_test_id("encounter-status").get_attribute("data-version")
    end_turn_form = page.locator("form:has([data-testid=end-turn])")
    expect(end_turn_form.locator("input[name=expected_version]")).to_have_value(version)


def test_the_d6_storyguide_runs_a_turn_from_the_keyboard_but_not_while_typing(table, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # load_demo_d6's logins
    saga, encounter, _ = demo_encounter("Keys at the gate")
    guide = table.person("storyguide")
    guide.enter_as(saga.storyguide)
    page = guide.goto(f"/encounters/{encounter.pk}/d6/")
    guide.wait_until_live()
    shortcuts = page.get_by_test_id("shortcuts")
    expect(shortcuts).to_have_text("Keys (not while typing in a field): S start the fight · N next step")
    log = page.get_by_test_id("event-log")

    page.locator("h1").first.click()
    page.keyboard.press("s")
    expect(page.get_by_test_id("d6-turn")).to_be_visible()
    for words in ("R roll", "E end the turn", "B breather", "V set the value", "N next step"):
        expect(shortcuts).to_contain_text(words)  # the fight's keys, once there is a fight
    expect(shortcuts).not_to_contain_text("start the fight")
    expect(log.locator("li[data-kind=d6_fight_started]")).to_have_count(1)

    # A key typed into a field is only a key in that field.
    page.get_by_test_id("set-value").click()
    page.keyboard.type("rbe")
    page.wait_for_timeout(400)
    expect(log.locator("li[data-kind=d6_roll]")).to_have_count(0)
    expect(log.locator("li[data-kind=d6_turn_ended]")).to_have_count(0)

    page.locator("h1").first.click()
    page.keyboard.press("r")
    expect(log.locator("li[data-kind=d6_roll]")).to_have_count(1)
    controls_are_current(page)
    expect(page.get_by_test_id("end-turn")).to_be_enabled()
    page.keyboard.press("e")
    expect(log.locator("li[data-kind=d6_turn_ended]")).to_have_count(1)

    # B: the breather, on the turn of someone winded (Wren or Tobias, within the round); E passes the others.
    ended = 1
    for _ in range(4):
        controls_are_current(page)
        if page.get_by_test_id("breather").is_enabled():
            page.keyboard.press("b")
            expect(log.locator("li[data-kind=d6_breather]")).to_have_count(1)
            break
        expect(page.get_by_test_id("end-turn")).to_be_enabled()
        page.keyboard.press("e")
        ended += 1
        expect(log.locator("li[data-kind=d6_turn_ended]")).to_have_count(ended)
    else:
        raise AssertionError("no winded fighter's turn came up in a round")
