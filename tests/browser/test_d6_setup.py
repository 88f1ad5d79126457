"""A d6 encounter set up in the browser, through the core's set-up views: the storyguide creates it from
the saga page, adds characters and takes one out, and each step lands on the d6 table. A saga page opened
before the d6 create address moved still creates an encounter from its form."""

import re
import time
from io import StringIO

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from campaign.models import Saga
from combat.services.setup import create_encounter

from .people import outside_the_event_loop

pytestmark = pytest.mark.browser

D6_TABLE = re.compile(r"/encounters/\d+/d6/$")


def demo_saga() -> Saga:
    """The d6 demo loaded: its saga, with Wren, Tobias and two watchmen."""
    call_command("load_demo_d6", stdout=StringIO())
    return Saga.objects.select_related("storyguide").get(name="The chase through Ashford")


def test_the_storyguide_sets_up_a_d6_encounter_and_each_step_lands_on_the_table(table, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # load_demo_d6's logins
    saga = outside_the_event_loop(demo_saga)
    wren, hale = (saga.characters.get(name=name) for name in ("Wren", "Watchman Hale"))
    guide = table.person("storyguide")
    guide.enter_as(saga.storyguide)
    page = guide.goto(f"/sagas/{saga.pk}/")
    page.locator("#new-encounter-name").fill("Lanterns at the bridge")
    page.get_by_test_id("new-encounter").click()
    expect(page).to_have_url(D6_TABLE)
    expect(page.locator("#encounter-name")).to_contain_text("Lanterns at the bridge")

    for character, side in ((wren, "side-players"), (hale, "side-opponents")):
        form = page.get_by_test_id("add-combatants-form")
        form.get_by_test_id(f"add-character-{character.pk}").check()
        form.get_by_test_id(side).check()
        with page.expect_navigation(url=D6_TABLE):  # the answer sends the page to the encounter's: this table
            page.get_by_test_id("add-combatants").click()
        guide.wait_until_live()  # htmx sends the next form once the scripts run
        expect(page.get_by_test_id("setup").locator(".remove-list")).to_contain_text(character.name)

    page.once("dialog", lambda dialog: dialog.accept())  # "Take Watchman Hale out?"
    with page.expect_navigation(url=D6_TABLE):
        page.get_by_test_id("setup").locator("li", has_text="Watchman Hale").get_by_role("button").click()
    expect(page.get_by_test_id("setup").locator(".remove-list")).not_to_contain_text("Watchman Hale")

    # A saga page opened before the move: its form still posts to the old d6 address.
    page = guide.goto(f"/sagas/{saga.pk}/")
    page.get_by_test_id("new-encounter-form").evaluate(
        "(form, old) => form.setAttribute('action', old)", f"/sagas/{saga.pk}/encounters/new-d6/"
    )
    page.locator("#new-encounter-name").fill("Smoke over the mill")
    page.get_by_test_id("new-encounter").click()
    expect(page).to_have_url(D6_TABLE)
    expect(page.locator("#encounter-name")).to_contain_text("Smoke over the mill")
    assert table.page_errors() == []


def test_a_box_ticked_before_the_pages_scripts_run_survives_the_first_push(table, settings):
    """The set-up form ticked while the page is still loading (its scripts not yet run): the replay that
    answers the socket's first resume redraws the set-up panel, and the tick is still there to be sent."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # load_demo_d6's logins
    saga = outside_the_event_loop(demo_saga)
    wren = saga.characters.get(name="Wren")
    encounter = outside_the_event_loop(
        lambda: create_encounter(saga.storyguide, saga.pk, "Lanterns at the bridge", saga.rule_system)
    )
    guide = table.person("storyguide")
    guide.enter_as(saga.storyguide)
    page = guide.page
    held = []  # the script's request, answered once the boxes are ticked
    script = re.compile(r"/static/js/keep_input")
    page.route(script, lambda route: held.append(route))
    page.goto(f"/encounters/{encounter.pk}/", wait_until="commit")
    form = page.get_by_test_id("add-combatants-form")
    form.get_by_test_id(f"add-character-{wren.pk}").check()
    form.get_by_test_id("side-players").check()
    wait = time.monotonic() + 10
    while not held and time.monotonic() < wait:
        page.wait_for_timeout(50)
    held[0].continue_()
    page.unroute(script)  # the next page's script comes at once
    guide.wait_until_live()
    expect(form.get_by_test_id(f"add-character-{wren.pk}")).to_be_checked()
    with page.expect_navigation(url=D6_TABLE):
        page.get_by_test_id("add-combatants").click()
    expect(page.get_by_test_id("setup").locator(".remove-list")).to_contain_text("Wren")
    assert table.page_errors() == []
