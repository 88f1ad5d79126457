"""A command refused because the server is too busy (config.admission's 503) says so beside its button,
keeps the button disabled for Retry-After, changes nothing, and applies once when sent again."""

import pytest
from playwright.sync_api import expect

from combat.answers import busy_message
from config.admission import refusal

from .encounter_page import load_demo_table
from .people import REFUSED, outside_the_event_loop

pytestmark = pytest.mark.browser


def test_a_command_refused_as_busy_says_so_beside_its_button_and_applies_once_sent_again(table):
    saga, encounter, _ = outside_the_event_loop(load_demo_table)
    guide = table.person("storyguide")
    guide.allow(REFUSED)  # Chromium's own line for the 503 the test answers on purpose
    guide.enter_as(saga.storyguide)
    page = guide.goto(f"/encounters/{encounter.pk}/")
    guide.wait_until_live()
    status, headers, body = refusal({"headers": [(b"hx-request", b"true")]}, 1)  # what the server answers
    refused = []

    def busy(route):
        refused.append(route.request.post_data)
        route.fulfill(status=status, headers={k.decode(): v.decode() for k, v in headers}, body=body)

    page.route("**/arsmagica/open-declarations/", busy)
    button = page.get_by_test_id("open-declarations")
    button.click()
    note = page.get_by_test_id("busy")
    expect(note).to_have_text(busy_message(1))
    expect(button).to_be_disabled()  # for the Retry-After second
    assert "Declarations" not in page.get_by_test_id("phase-name").all_text_contents()  # nothing applied
    expect(button).to_be_enabled(timeout=3000)
    expect(note).to_have_text("The table was busy: not sent. Send it again.")
    assert len(refused) == 1, "the page sent the refused command again by itself"
    page.unroute("**/arsmagica/open-declarations/")
    button.click()
    expect(page.get_by_test_id("phase-name")).to_have_text("Declarations")
    expect(note).to_have_count(0)
    assert len(refused) == 1
