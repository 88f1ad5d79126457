"""On a laptop, a command sent from the keyboard shows its result wherever the storyguide had scrolled to
(Add to the fight, Correct a result, the foot of the page): the preview, the new line in the log, or the
refusal, with the controls beside it. Meanwhile the players read that the storyguide is rolling, and what,
until Confirm."""

import re

import pytest
from django.db.models import F
from playwright.sync_api import expect

from combat.models import Encounter

from .encounter_page import phase_is
from .people import DESKTOP, PHONE, REFUSED, outside_the_event_loop
from .test_d6_players_act import demo_encounter
from .test_storyguide_flow import melee_declared

pytestmark = pytest.mark.browser


def to_the_foot(page) -> None:
    """Scroll to the bottom of the page, as after correcting a result or adding to the fight."""
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    page.wait_for_function("() => window.scrollY > 0")


def newest_line(page):
    return page.get_by_test_id("event-log").locator("li.event").last


def make_it_stale(encounter) -> None:
    """Another storyguide tab's command, whose frame this page never got: its next command is out of step."""
    outside_the_event_loop(lambda: Encounter.objects.filter(pk=encounter.pk).update(version=F("version") + 1))


def test_an_ars_magica_key_shows_its_result_and_the_players_see_the_roll(table, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    saga, encounter, combatants = melee_declared()
    boris = combatants["Sir Boris"]

    guide = table.person("storyguide", viewport=DESKTOP)
    guide.enter_as(saga.storyguide)
    player = table.person("player1", viewport=PHONE)
    player.enter_as(boris.character.owner)
    page = guide.goto(f"/encounters/{encounter.pk}/")
    player.goto(f"/encounters/{encounter.pk}/arsmagica/play/")
    for person in (guide, player):
        person.wait_until_live()
    phase_is(page, "melee")
    notice = player.page.get_by_test_id("rolling-notice")
    expect(notice).to_have_count(0)

    # Low on the page, R rolls Melee: the preview and its Confirm are on screen, beside the controls.
    page.get_by_test_id("correction").scroll_into_view_if_needed()
    to_the_foot(page)
    page.keyboard.press("r")
    expect(page.get_by_test_id("confirm-phase")).to_be_in_viewport()
    expect(page.get_by_test_id("phase-preview")).to_contain_text("check before confirming")
    expect(page.get_by_test_id("correction-form")).to_be_in_viewport()  # beside where the storyguide was

    # The players see the storyguide rolling, whose rolls, and no bandit's dice (results only), at once.
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("The storyguide is rolling Melee…")
    expect(notice).to_contain_text("Sir Boris attacks Bandit 1")
    bandit_roll = notice.get_by_test_id("rolling-roll").filter(has_text="Bandit 1 attacks Sir Boris")
    expect(bandit_roll).to_have_text("Bandit 1 attacks Sir Boris (behind the screen)")
    player.page.reload()
    player.wait_until_live()
    expect(player.page.get_by_test_id("rolling-notice")).to_contain_text("The storyguide is rolling Melee…")

    # C confirms it: the phase's newest line is on screen; the players' notice goes.
    to_the_foot(page)
    page.keyboard.press("c")
    phase_is(page, "fatigue")
    expect(newest_line(page)).to_be_in_viewport()
    expect(player.page.get_by_test_id("rolling-notice")).to_have_count(0)

    # U, a reason and Enter: Melee comes back to check, on screen; the players read it is being rolled again.
    to_the_foot(page)
    page.keyboard.press("u")
    expect(page.get_by_test_id("undo-reason")).to_be_focused()
    page.keyboard.type("Bandit 1 was meant to take advantage")
    page.keyboard.press("Enter")
    phase_is(page, "melee")
    expect(page.get_by_test_id("phase-preview")).to_be_in_viewport()  # down to its Confirm when it is tall
    expect(page.get_by_test_id("confirm-phase")).to_be_in_viewport()
    expect(player.page.get_by_test_id("rolling-notice")).to_contain_text("The storyguide is rolling Melee…")

    # N from the foot of the page, out of step with another tab: the refusal is on screen.
    make_it_stale(encounter)
    guide.allow(REFUSED)  # the 409 that refuses it
    page.evaluate("document.activeElement.blur()")  # out of the reason's field: a key is a key again
    to_the_foot(page)
    page.keyboard.press("n")
    refusal = page.locator("#preview-error")
    expect(refusal).to_contain_text(re.compile(r"\S"))
    expect(refusal).to_be_in_viewport()


def test_a_d6_command_from_the_keyboard_shows_its_line_in_the_log(table, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # load_demo_d6's logins
    saga, encounter, _ = demo_encounter("Keys at the foot of the page")
    guide = table.person("storyguide", viewport={"width": DESKTOP["width"], "height": 500})  # a small laptop
    guide.enter_as(saga.storyguide)
    page = guide.goto(f"/encounters/{encounter.pk}/d6/")
    guide.wait_until_live()

    to_the_foot(page)
    page.keyboard.press("s")
    expect(newest_line(page)).to_have_attribute("data-kind", "d6_fight_started")
    expect(newest_line(page)).to_be_in_viewport()
    to_the_foot(page)
    page.keyboard.press("r")
    expect(newest_line(page)).to_have_attribute("data-kind", "d6_roll")
    expect(newest_line(page)).to_be_in_viewport()
    controls = page.get_by_test_id("d6-controls").get_by_role("heading", name="Control")
    expect(controls).to_be_in_viewport()  # beside it
