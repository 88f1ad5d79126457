"""A command's button disables itself while its request is in flight: a second click sends nothing."""

import pytest
from playwright.sync_api import expect

from .encounter_page import load_demo_table
from .people import outside_the_event_loop

pytestmark = pytest.mark.browser


def test_the_start_button_is_disabled_until_the_server_answers(table):
    saga, encounter, _ = outside_the_event_loop(load_demo_table)
    guide = table.person("storyguide")
    guide.enter_as(saga.storyguide)
    page = guide.goto(f"/encounters/{encounter.pk}/")
    held = []  # the posts the server has not seen yet: answered when the test lets them through
    page.route("**/open/", lambda route: held.append(route))
    button = page.get_by_test_id("open-declarations")
    button.click()
    expect(button).to_be_disabled()
    button.click(force=True)  # a second click while the first is in flight
    page.wait_for_timeout(300)
    assert len(held) == 1, "the second click sent the command again"
    held[0].continue_()
    expect(page.get_by_test_id("phase-name")).to_have_text("Declarations")
    assert len(held) == 1
