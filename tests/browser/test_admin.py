"""Issue 31, item 10: the host's view. A superuser opens /admin/, finds the encounter's events, and opens one:
it is there to read, with no Save and no Delete, because the log is the truth the replay is built from."""

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from combat.models import Event

from .encounter_page import load_demo_table
from .people import outside_the_event_loop

pytestmark = pytest.mark.browser


def test_the_host_reads_an_event_in_the_admin_and_cannot_change_or_delete_it(table):
    _, encounter, _ = load_demo_table()
    host = outside_the_event_loop(
        get_user_model().objects.create_superuser, "host", password="a-long-host-password"
    )
    first = Event.objects.filter(encounter=encounter).earliest("seq")

    person = table.person("host")
    person.enter_as(host)
    page = person.goto("/admin/")
    for model in ("Users", "Sagas", "Memberships", "Characters", "Encounters", "Events", "Saga records"):
        expect(page.locator("#content-main").get_by_role("link", name=model, exact=True)).to_be_visible()
    expect(page.locator(".model-event").get_by_role("link", name="Add")).to_have_count(0)

    page.locator("#content-main").get_by_role("link", name="Events", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Select event to view")
    expect(page.get_by_role("link", name="Add event")).to_have_count(0)
    actions = page.locator('select[name="action"]')
    if actions.count():  # no bulk delete among the list's actions
        expect(actions.locator('option[value="delete_selected"]')).to_have_count(0)

    page.goto(f"/admin/combat/event/{first.pk}/change/")
    expect(page.get_by_role("heading", level=1)).to_have_text("View event")
    expect(page.locator("#content-main")).to_contain_text("encounter_created")
    for button in ("Save", "Save and continue editing", "Save and add another"):
        expect(page.get_by_role("button", name=button, exact=True)).to_have_count(0)
    expect(page.get_by_role("link", name="Delete", exact=True)).to_have_count(0)
    expect(page.locator('input[type="text"], textarea, select')).to_have_count(0)  # nothing to type into
    expect(page.get_by_role("link", name="Close")).to_be_visible()
