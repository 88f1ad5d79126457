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
    guide.wait_until_live()  # the socket's first frame redraws the controls: click the button it drew
    held = []  # the posts the server has not seen yet: answered when the test lets them through
    page.route("**/arsmagica/open-declarations/", lambda route: held.append(route))
    button = page.get_by_test_id("open-declarations")
    button.click()
    expect(button).to_be_disabled()
    button.click(force=True)  # a second click while the first is in flight
    page.wait_for_timeout(300)
    assert len(held) == 1, "the second click sent the command again"
    held[0].continue_()
    expect(page.get_by_test_id("phase-name")).to_have_text("Declarations")
    assert len(held) == 1


def test_a_page_form_sent_twice_by_a_double_click_is_sent_once(table):
    saga, _, _ = outside_the_event_loop(load_demo_table)
    guide = table.person("storyguide")
    guide.enter_as(saga.storyguide)
    page = guide.goto("/sagas/new/")
    page.get_by_label("Saga name").fill("The Tribunal of the Rhine")
    held = []  # the posts the server has not seen yet
    page.route(
        "**/sagas/new/",
        lambda route: held.append(route) if route.request.method == "POST" else route.continue_(),
    )
    button = page.get_by_role("button", name="Create the saga")
    button.dblclick(no_wait_after=True)
    page.wait_for_timeout(500)
    assert len(held) == 1, "the double click sent the form twice"
    held[0].continue_()
    expect(page.get_by_role("heading", name="The Tribunal of the Rhine")).to_be_visible()
