"""A player's own panels follow a correction that changes who can act: the storyguide makes Sir Boris
Unconscious after his player has declared, and the phone drops the declaration and the form (he cannot act,
ArM3 p177) without a reload; corrected back on his feet, he gets his form again. Long-term fatigue recorded
while declarations are open does the same, and declarations can still close."""

import re

import pytest
from playwright.sync_api import expect

from .encounter_page import declare, load_demo_table
from .people import PHONE, outside_the_event_loop

pytestmark = pytest.mark.browser


def correct(guide, combatant, fatigue: str, reason: str) -> None:
    """The storyguide sends the correction form on their page; their status shows its frame."""
    page = guide.page
    version = page.get_by_test_id("encounter-status").get_attribute("data-version")
    form = page.get_by_test_id("correction-form")
    form.get_by_label("Combatant").select_option(str(combatant.pk))
    form.get_by_label("Fatigue level").select_option(fatigue)
    form.get_by_label("Reason").fill(reason)
    form.get_by_test_id("correct-submit").click()
    expect(page.get_by_test_id("encounter-status")).not_to_have_attribute("data-version", version)


def boris_has_declared(table):
    """The demo table with declarations open on the storyguide's page, and Sir Boris's attack declared on
    his player's phone (marked, to tell a reload)."""
    saga, encounter, combatants = outside_the_event_loop(load_demo_table)
    boris, bandit = combatants["Sir Boris"], combatants["Bandit 1"]
    guide = table.person("storyguide")
    guide.enter_as(saga.storyguide)
    guide.goto(f"/encounters/{encounter.pk}/")
    guide.wait_until_live()
    guide.page.get_by_test_id("open-declarations").click()

    player = table.person("player", viewport=PHONE)
    player.enter_as(boris.character.owner)
    phone = player.goto(f"/encounters/{encounter.pk}/arsmagica/play/")
    player.wait_until_live()
    declare(phone, boris, action="Fight hand to hand", weapon="Sword", engage=bandit)
    player.mark_page()
    return guide, player, boris


def test_a_correction_that_changes_who_can_act_reaches_the_players_own_declarations(table):
    guide, player, boris = boris_has_declared(table)
    phone = player.page
    panel = phone.get_by_test_id("my-declarations")

    correct(guide, boris, "unconscious", "A club to the head")
    expect(phone.get_by_test_id(f"declared-{boris.pk}")).to_have_class("unable")  # the shared frame
    expect(panel.get_by_test_id(f"declared-mark-{boris.pk}")).to_have_count(0)
    expect(panel.get_by_test_id(f"declare-form-{boris.pk}")).to_have_count(0)
    expect(panel.get_by_test_id(f"cannot-act-{boris.pk}")).to_contain_text("unconscious")
    expect(phone).not_to_have_title(re.compile("Declare for Sir Boris"))  # nothing is wanted of him now

    correct(guide, boris, "fresh", "Only stunned")
    expect(panel.get_by_test_id(f"declare-form-{boris.pk}")).to_be_visible()
    expect(phone).to_have_title(re.compile("^▶ Declare for Sir Boris"))
    expect(panel.get_by_test_id(f"cannot-act-{boris.pk}")).to_have_count(0)
    player.assert_not_reloaded()


def test_exertion_while_declaring_withdraws_a_declaration_that_can_no_longer_be_carried_out(table):
    guide, player, boris = boris_has_declared(table)
    page, phone = guide.page, player.page
    version = page.get_by_test_id("encounter-status").get_attribute("data-version")
    panel = page.get_by_test_id("time-panel")
    panel.locator("summary").first.click()
    form = panel.get_by_test_id("exertion-form")
    form.get_by_test_id("exertion-character").select_option(str(boris.character.pk))
    form.get_by_test_id("exertion-levels").fill("5")
    form.get_by_test_id("exertion-what").fill("a forced march")
    form.get_by_test_id("exertion").click()
    expect(page.get_by_test_id("encounter-status")).not_to_have_attribute("data-version", version)

    expect(phone.get_by_test_id(f"declared-{boris.pk}")).to_have_class("unable")
    mine = phone.get_by_test_id("my-declarations")
    expect(mine.get_by_test_id(f"cannot-act-{boris.pk}")).to_contain_text("unconscious")
    expect(page.get_by_test_id(f"declared-{boris.pk}")).to_have_class("unable")
    player.assert_not_reloaded()
