"""The encounter page under the Content-Security-Policy: htmx and the live socket work, nothing is blocked."""

import pytest
from playwright.sync_api import expect

from .encounter_page import load_demo_table
from .test_own_panels import correct

pytestmark = pytest.mark.browser


def test_the_encounter_page_goes_live_with_no_policy_violation(table, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    saga, encounter, _ = load_demo_table()
    guide = table.person("storyguide")
    guide.enter_as(saga.storyguide)
    response = guide.page.goto(f"/encounters/{encounter.pk}/")
    assert response.ok
    assert "script-src 'self'" in response.headers["content-security-policy"]
    page = guide.page
    expect(page.get_by_test_id("open-declarations")).to_be_visible()
    guide.wait_until_live()
    page.get_by_test_id("open-declarations").click()
    expect(page.locator("#encounter-status")).to_have_attribute("data-status", "running")
    assert guide.page_errors == []


def test_an_inline_script_is_blocked_and_reported(table, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    saga, encounter, _ = load_demo_table()
    guide = table.person("storyguide")
    guide.enter_as(saga.storyguide)
    page = guide.goto(f"/encounters/{encounter.pk}/")
    page.evaluate(
        """() => { const s = document.createElement("script"); s.textContent = "window.__ran = 1";
                   document.body.appendChild(s); }"""
    )
    expect(page.locator("#encounter-status")).to_be_visible()
    assert page.evaluate("window.__ran") is None
    page.wait_for_timeout(200)
    assert any("Content Security Policy" in error for error in guide.page_errors)
    guide.page_errors.clear()  # seen: the fixture would otherwise fail the test for it


def test_a_correction_with_declarations_closed_swaps_in_only_what_the_page_has(table, settings):
    """A correction of a level before declarations open: its frame swaps in the bandit's card, and no
    entry of "Declare for NPCs" or "every NPC" button, which the closed panel does not show (htmx logged a
    missing target for each, #declare-N and #npcs-as-before-slot: a console error fails the test)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    saga, encounter, combatants = load_demo_table()
    guide = table.person("storyguide")
    guide.enter_as(saga.storyguide)
    page = guide.goto(f"/encounters/{encounter.pk}/")
    guide.wait_until_live()
    bandit = combatants["Bandit 1"]
    correct(guide, bandit, "winded", "Ran up the hill")
    expect(page.locator(f"#combatant-{bandit.pk}")).to_contain_text("Winded")
    page.wait_for_timeout(200)  # htmx logs a missing target as it swaps
    assert guide.page_errors == []
