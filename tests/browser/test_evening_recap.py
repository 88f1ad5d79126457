"""Issue 31, item 9: the day after, a player opens the evening's recap from the saga page on their phone and
reads what happened tonight in sentences, the players' version, with no storyguide-only line."""

import os
import re

import pytest
from playwright.sync_api import expect

from arsmagica import services

from .people import PHONE, outside_the_event_loop
from .test_storyguide_flow import melee_declared

pytestmark = pytest.mark.browser


def test_a_player_reads_the_evenings_recap_on_their_phone(table, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # load_demo's logins
    saga, encounter, combatants = melee_declared()
    guide = saga.storyguide
    for step in (services.preview_phase, services.confirm_phase):
        encounter.refresh_from_db()
        outside_the_event_loop(step, guide, encounter.pk, encounter.version, "melee")
    encounter.refresh_from_db()
    idle = combatants["Bandit 3"]  # engaged by nobody: unhurt, whatever the dice did
    outside_the_event_loop(
        services.correct, guide, encounter.pk, encounter.version, idle.pk, {"body_level": "hurt"}, "A fall"
    )
    encounter.refresh_from_db()
    outside_the_event_loop(services.end_encounter, guide, encounter.pk, encounter.version)

    player = table.person("player", PHONE)
    player.enter_as(combatants["Sir Boris"].character.owner)
    page = player.goto(f"/sagas/{saga.pk}/")
    page.get_by_test_id("evening-link").click()
    recap = page.get_by_test_id("evening-recap")
    expect(recap.get_by_role("heading", level=1)).to_contain_text(f"{saga.name}: the evening of")
    expect(page.get_by_test_id("evening-version")).to_contain_text("The players’ version")
    sentences = page.get_by_test_id("evening-sentences")
    fought = "and Sir Boris (Players) fought Bandit 1, Bandit 2 and Bandit 3 (Opponents), over 1 round."
    expect(sentences).to_contain_text(fought)
    expect(sentences).to_contain_text(re.compile(r"Attacks landed: .*Sir Boris \d of 1"))
    expect(sentences).to_contain_text("Best roll: ")
    expect(sentences).to_contain_text("The storyguide corrected Bandit 3 in round 1 (“A fall”).")
    standing = page.get_by_test_id("evening-standing")
    expect(standing).to_contain_text("Bandit 3 (Opponents): Fatigue level Fresh, Body level Hurt")
    expect(recap).not_to_contain_text("preview")
    expect(page.get_by_test_id("evening-md")).to_be_visible()
    wide = page.evaluate("document.documentElement.scrollWidth > document.documentElement.clientWidth")
    assert not wide, "the recap scrolls sideways on a phone"
    shot = os.environ.get("COVENANT_EVENING_SCREENSHOT")
    if shot:
        page.screenshot(path=shot, full_page=True)
