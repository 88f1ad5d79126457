"""A click before the page's scripts have loaded (the page still reloading after the last Add) is not lost:
with scripts off, as they are in that moment, "Add to the fight" posts the form and the page comes back
with the new combatant; an empty Add comes back with the reason at the top."""

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import expect

from campaign.models import Character

from .encounter_page import load_demo_table
from .people import TIMEOUT_MS, outside_the_event_loop

pytestmark = pytest.mark.browser


def test_add_to_the_fight_works_before_the_scripts_have_loaded(table):
    saga, encounter, _ = load_demo_table()
    outside_the_event_loop(Character.objects.create, saga=saga, name="Wolf", is_npc=True)
    context = table.browser.new_context(base_url=table.base_url, java_script_enabled=False)
    context.set_default_timeout(TIMEOUT_MS)
    try:
        client = Client()
        client.force_login(saga.storyguide)
        cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
        context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": table.base_url}])
        page = context.new_page()
        page.goto(f"/encounters/{encounter.pk}/")
        form = page.get_by_test_id("add-combatants-form")

        form.get_by_test_id("side-opponents").check()
        form.get_by_test_id("add-combatants").click()
        expect(page.locator(".messages")).to_contain_text("Pick at least one")

        form = page.get_by_test_id("add-combatants-form")
        form.get_by_label("Wolf").check()
        form.get_by_test_id("side-opponents").check()
        form.get_by_test_id("add-combatants").click()
        expect(page.get_by_test_id("combatants")).to_contain_text("Wolf")
        expect(page.get_by_test_id("setup")).to_contain_text("Every character of the saga is in this fight.")
        expect(page.locator(".messages")).to_have_count(0)
    finally:
        context.close()
