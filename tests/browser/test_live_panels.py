"""Every panel is live and no push eats input: the storyguide's NPC declarations and the saga page follow
what others do without a reload, and a push keeps what the storyguide is typing in the set-up form."""

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from campaign.models import Character
from combat.models import Combatant

from .encounter_page import declare, load_demo_table
from .people import PHONE, outside_the_event_loop, wait_until

pytestmark = pytest.mark.browser


def storyguide_opens_declarations(table, saga, encounter):
    """The storyguide on the live control panel, declarations opened there: (person, page, NPC panel)."""
    guide = table.person("storyguide")
    guide.enter_as(saga.storyguide)
    page = guide.goto(f"/encounters/{encounter.pk}/")
    guide.wait_until_live()
    page.get_by_test_id("open-declarations").click()
    return guide, page, page.get_by_test_id("my-declarations")


def test_the_npc_panel_follows_declarations_made_in_another_tab_and_by_a_player(table):
    saga, encounter, combatants = outside_the_event_loop(load_demo_table)
    boris, bandit = combatants["Sir Boris"], combatants["Bandit 1"]
    guide, page, panel = storyguide_opens_declarations(table, saga, encounter)
    expect(panel.get_by_test_id(f"declare-form-{bandit.pk}")).to_be_visible()
    guide.mark_page()

    # Half-way through another NPC's declaration here (typed, then looked elsewhere)...
    second = panel.get_by_test_id(f"declare-form-{combatants['Bandit 2'].pk}")
    second.get_by_label("Initiative modifier").fill("2")
    second.get_by_label(re.compile(r"Sir Boris \(")).check()
    page.get_by_test_id("event-log").click(position={"x": 5, "y": 5})

    # ...when another tab of the storyguide's declares for Bandit 1: this panel shows it, and keeps the rest.
    other_tab = guide.new_tab()
    guide.goto(f"/encounters/{encounter.pk}/", other_tab)
    declare(other_tab, bandit, action="Fight hand to hand", weapon="Sword", engage=boris)
    expect(panel.get_by_test_id(f"declared-mark-{bandit.pk}")).to_be_visible()
    expect(second.get_by_label("Initiative modifier")).to_have_value("2")
    expect(second.get_by_label(re.compile(r"Sir Boris \("))).to_be_checked()

    player = table.person("player", viewport=PHONE)
    player.enter_as(boris.character.owner)
    phone = player.goto(f"/encounters/{encounter.pk}/arsmagica/play/")
    declare(phone, boris, action="Fight hand to hand", weapon="Sword", engage=bandit)
    expect(panel.get_by_test_id(f"declared-mark-{boris.pk}")).to_be_visible()
    guide.assert_not_reloaded()


def test_a_closed_entry_loads_its_form_when_opened_and_keeps_it_through_a_push(table):
    """Issue 11: the storyguide's entry for a player's character comes closed, with no form; opening it
    fetches the form. When the player declares meanwhile, the pushed entry stays open, shows the mark, and
    fetches its form again, filled in with what the player declared."""
    saga, encounter, combatants = outside_the_event_loop(load_demo_table)
    boris, bandit = combatants["Sir Boris"], combatants["Bandit 1"]
    guide, page, panel = storyguide_opens_declarations(table, saga, encounter)
    entry = panel.get_by_test_id(f"declare-{boris.pk}")
    expect(entry.get_by_test_id(f"declare-loading-{boris.pk}")).to_be_attached()
    expect(panel.get_by_test_id(f"declare-form-{boris.pk}")).to_have_count(0)
    entry.locator("summary").click()
    expect(panel.get_by_test_id(f"declare-form-{boris.pk}")).to_be_visible()
    guide.mark_page()

    player = table.person("player", viewport=PHONE)
    player.enter_as(boris.character.owner)
    phone = player.goto(f"/encounters/{encounter.pk}/arsmagica/play/")
    declare(phone, boris, action="Fight hand to hand", weapon="Sword", engage=bandit)
    expect(panel.get_by_test_id(f"declared-mark-{boris.pk}")).to_be_visible()
    form = panel.get_by_test_id(f"declare-form-{boris.pk}")
    expect(form).to_be_visible()
    expect(form.get_by_label(re.compile(r"Bandit 1 \("))).to_be_checked()
    expect(form.get_by_test_id(f"declare-submit-{boris.pk}")).to_have_text("Change declaration")
    guide.assert_not_reloaded()


def test_the_saga_page_shows_a_new_member_character_and_encounter_without_a_reload(table):
    saga, encounter, _ = outside_the_event_loop(load_demo_table)
    dora = get_user_model().objects.create_user("dora")
    guide = table.person("storyguide")
    guide.enter_as(saga.storyguide)
    page = guide.goto(f"/sagas/{saga.pk}/")
    invite_url = page.locator("#invite-url").input_value()
    guide.mark_page()

    player = table.person("player", viewport=PHONE)
    player.enter_as(dora)
    phone = player.goto(invite_url)
    phone.get_by_role("button", name="Join as player").click()
    expect(page.get_by_test_id("saga-members")).to_contain_text("dora")

    phone.goto(f"/sagas/{saga.pk}/characters/new/")
    phone.get_by_label("Name:", exact=True).first.fill("Dora the Bold")
    phone.get_by_role("button", name="Save sheet").click()
    expect(page.get_by_test_id("saga-characters")).to_contain_text("Dora the Bold")

    player.goto(f"/sagas/{saga.pk}/")
    player.mark_page()
    page.locator("#new-encounter-name").fill("Ambush at the ford")
    page.get_by_test_id("new-encounter").click()
    expect(phone.get_by_test_id("encounter-list")).to_contain_text("Ambush at the ford")

    fight = guide.new_tab()
    guide.goto(f"/encounters/{encounter.pk}/", fight)
    guide.wait_until_live(fight)
    fight.get_by_test_id("open-declarations").click()
    expect(phone.get_by_test_id(f"encounter-state-{encounter.pk}")).to_have_text("round 1, live")
    player.assert_not_reloaded()


# Tags each live region of the saga page as drawn with the page, and counts the saga frames that come.
DRAWN = """
window.__sagaFrames = 0;
document.addEventListener("DOMContentLoaded", () => {
  for (const id of ["characters", "saga-npcs", "encounter-list", "members"]) {
    const region = document.getElementById(id);
    if (region) { region.__drawn = true; }
  }
});
document.addEventListener("htmx:wsBeforeMessage", (e) => {
  if (/id="saga-stamp"/.test(e.detail.message)) { window.__sagaFrames += 1; }
});
"""
STILL_DRAWN = (
    '["characters", "saga-npcs", "encounter-list", "members"]'
    ".filter((id) => document.getElementById(id).__drawn)"
)


def test_the_saga_pages_first_frame_swaps_in_nothing_it_shows_already(table):
    """The frame the saga socket sends when it opens leaves the regions as drawn when nothing changed since
    (a link swapped between a tap's press and release loses the tap: the first evening's "New NPC"), and a
    change swaps its regions in."""
    saga, _, _ = outside_the_event_loop(load_demo_table)
    guide = table.person("storyguide")
    guide.enter_as(saga.storyguide)
    guide.context.add_init_script(DRAWN)
    page = guide.goto(f"/sagas/{saga.pk}/")
    wait_until(page, lambda: page.evaluate("window.__sagaFrames") >= 1, "the socket's first saga frame")
    assert page.evaluate(STILL_DRAWN) == ["characters", "saga-npcs", "encounter-list", "members"]

    other_tab = guide.new_tab()  # the storyguide starts an encounter in another tab: the list changes
    guide.goto(f"/sagas/{saga.pk}/", other_tab)
    other_tab.locator("#new-encounter-name").fill("Ambush at the ford")
    other_tab.get_by_test_id("new-encounter").click()
    expect(page.get_by_test_id("encounter-list")).to_contain_text("Ambush at the ford")
    assert "encounter-list" not in page.evaluate(STILL_DRAWN)
    page.get_by_test_id("saga-npcs").get_by_role("link", name="New NPC").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("New NPC")


def test_what_the_storyguide_types_in_the_set_up_form_survives_a_push(table):
    saga, encounter, _ = outside_the_event_loop(load_demo_table)
    wolf, bear = (
        outside_the_event_loop(Character.objects.create, saga=saga, name=name, is_npc=True)
        for name in ("Wolf", "Bear")
    )
    guide = table.person("storyguide")
    guide.enter_as(saga.storyguide)
    page = guide.goto(f"/encounters/{encounter.pk}/")
    guide.wait_until_live()
    form = page.get_by_test_id("add-combatants-form")
    form.get_by_label("Wolf").check()
    form.get_by_test_id("side-third").check()
    side = form.get_by_test_id("third-side-name")
    side.fill("Beasts of the wood")

    other_tab = guide.new_tab()
    guide.goto(f"/encounters/{encounter.pk}/", other_tab)
    guide.wait_until_live(other_tab)
    other_tab.get_by_test_id("add-combatants-form").get_by_label("Bear").check()
    other_tab.get_by_test_id("add-combatants-form").get_by_test_id("side-opponents").check()
    other_tab.get_by_test_id("add-combatants").click()
    expect(page.get_by_test_id("combatants")).to_contain_text("Bear")  # the push has come

    # Still typing: the set-up form waits, with what was typed, ticked, and the focus.
    expect(side).to_have_value("Beasts of the wood")
    expect(side).to_be_focused()
    expect(form.get_by_label("Wolf")).to_be_checked()
    side.press("End")
    side.type(" and hills")

    # Done typing: the pushed form comes in (Bear is in the fight now), keeping what was typed and ticked.
    page.get_by_test_id("event-log").click(position={"x": 5, "y": 5})
    expect(form.get_by_label("Bear")).to_have_count(0)
    expect(form.get_by_label("Wolf")).to_be_checked()
    expect(side).to_have_value("Beasts of the wood and hills")

    # A push while nothing has the focus swaps the form at once, still keeping the tick and the side.
    other_tab.once("dialog", lambda dialog: dialog.accept())  # "Take Bear out of the fight?"
    other_tab.get_by_test_id(f"remove-{Combatant.objects.get(character=bear).pk}").click()
    expect(page.get_by_test_id("combatants")).not_to_contain_text("Bear")
    expect(form.get_by_label("Bear")).to_have_count(1)
    expect(form.get_by_label("Wolf")).to_be_checked()
    expect(side).to_have_value("Beasts of the wood and hills")

    # Sent and accepted: the next push brings an empty form (Wolf is in the fight now).
    form.get_by_test_id("add-combatants").click()
    expect(page.get_by_test_id("combatants")).to_contain_text("Wolf")
    expect(form.get_by_label("Wolf")).to_have_count(0)
    expect(side).to_have_value("")
    assert Combatant.objects.get(character=wolf).side == "Beasts of the wood and hills"


def test_a_players_panel_shows_the_newest_phase_when_two_changes_cross(table):
    """A player's own declarations panel fetches itself again on every phase change. When a second change
    arrives while the first fetch is still on its way, the second's answer wins (hx-sync replace): before,
    the second fetch waited behind the first, whose swap then dropped it, and the panel kept showing open
    declarations after the storyguide had closed them."""
    from arsmagica import services
    from combat.models import Encounter

    saga, encounter, combatants = outside_the_event_loop(load_demo_table)
    boris = combatants["Sir Boris"]

    version = outside_the_event_loop(lambda: Encounter.objects.get(pk=encounter.pk).version)
    outside_the_event_loop(lambda: services.open_declarations(saga.storyguide, encounter.pk, version))
    bandit = combatants["Bandit 1"]
    attack = {"action": "attack", "weapon_id": bandit.character.weapons.first().pk, "engage": [boris.pk]}
    outside_the_event_loop(lambda: services.declare(saga.storyguide, encounter.pk, bandit.pk, attack))
    player = table.person("player", viewport=PHONE)
    player.enter_as(boris.character.owner)
    page = player.goto(f"/encounters/{encounter.pk}/arsmagica/play/")
    player.wait_until_live()
    panel = page.get_by_test_id("my-declarations")
    expect(panel.get_by_test_id(f"declare-form-{boris.pk}")).to_be_visible()

    held = []  # the first fetch, answered as the panel was then (declarations open), and held back

    def hold_the_first(route):
        if held:
            route.continue_()
        else:
            held.append((route, route.fetch()))

    guide = table.person("storyguide")
    guide.enter_as(saga.storyguide)
    control = guide.goto(f"/encounters/{encounter.pk}/")
    guide.wait_until_live()
    page.route(re.compile(r"/declarations/$"), hold_the_first)
    page.evaluate("document.body.dispatchEvent(new CustomEvent('covenant:phase', {bubbles: true}))")
    wait_until(page, lambda: held, "the first fetch held")  # once the server has answered it (route.fetch)
    assert len(held) == 1
    control.once("dialog", lambda dialog: dialog.accept())  # "Sir Boris … have not declared … anyway?"
    control.get_by_test_id("close-declarations").click()  # its frame changes the phase: a second fetch
    status = page.get_by_test_id("encounter-status")
    expect(status).not_to_have_attribute("data-phase", "declaring")
    route, answer = held[0]
    route.fulfill(response=answer)  # the first answer comes last
    expect(panel).to_contain_text("Declarations are closed for round 1")
    expect(panel.get_by_test_id(f"declare-form-{boris.pk}")).to_have_count(0)


def test_a_pushed_region_comes_in_at_once_though_its_own_command_is_not_yet_answered(table):
    """The storyguide confirms a phase and its frame comes before the answer: the preview panel comes in at
    once, so its controls carry the new version, and the next phase's roll goes out before the confirm's
    answer is back. Before, the panel was held until that answer: a "Confirm" for the phase already
    confirmed stayed on screen, and a click on anything in it sent the old version (a 409)."""
    from arsmagica import services
    from combat.models import Encounter

    saga, encounter, combatants = outside_the_event_loop(load_demo_table)
    storyguide = saga.storyguide

    def version():
        return Encounter.objects.get(pk=encounter.pk).version

    boris, bandit = combatants["Sir Boris"], combatants["Bandit 1"]
    attack = {"action": "attack", "weapon_id": bandit.character.weapons.first().pk, "engage": [boris.pk]}
    outside_the_event_loop(lambda: services.open_declarations(storyguide, encounter.pk, version()))
    outside_the_event_loop(lambda: services.declare(storyguide, encounter.pk, bandit.pk, attack))
    outside_the_event_loop(lambda: services.close_declarations(storyguide, encounter.pk, version()))
    outside_the_event_loop(lambda: services.preview_phase(storyguide, encounter.pk, version(), "melee"))
    guide = table.person("storyguide")
    guide.enter_as(storyguide)
    page = guide.goto(f"/encounters/{encounter.pk}/")
    guide.wait_until_live()
    preview = page.get_by_test_id("phase-preview")
    expect(preview).to_contain_text("check before confirming")

    confirmed, rolling = [], []
    page.route(re.compile(r"/confirm-phase/$"), lambda route: confirmed.append((route, route.fetch())))
    page.route(re.compile(r"/preview-phase/$"), lambda route: rolling.append(route))  # the next roll: held
    page.get_by_test_id("confirm-phase").click()
    status = page.get_by_test_id("encounter-status")
    expect(status).not_to_have_attribute("data-phase", "melee")  # the frame is in
    expect(preview).not_to_contain_text("check before confirming")  # and the panel with it
    wait_until(page, lambda: confirmed, "the confirm sent")
    page.get_by_test_id("preview-phase").click()  # the next phase's roll, before the confirm's answer
    wait_until(page, lambda: rolling, "the roll sent")
    route, answer = confirmed[0]
    route.fulfill(response=answer)
    rolling[0].continue_()
    expect(preview).to_contain_text("check before confirming")  # the next phase's roll
    expect(preview).not_to_contain_text("Melee")


def test_a_correction_of_an_advantage_leaves_the_controls_which_post_its_version(table):
    """A correction of an advantage alone changes nothing the storyguide's "Control" shows (its step, its
    refusals, the close button's count): its frame leaves the panel in place, and the panel's forms take the
    frame's version (`data-live-version`), so closing declarations after it is done, not refused as stale."""
    saga, encounter, combatants = outside_the_event_loop(load_demo_table)
    guide, page, panel = storyguide_opens_declarations(table, saga, encounter)
    boris, bandit = combatants["Sir Boris"], combatants["Bandit 1"]
    declare(page, bandit, action="Fight hand to hand", weapon="Sword", engage=boris)
    expect(panel.get_by_test_id(f"declared-mark-{bandit.pk}")).to_be_visible()
    controls = page.get_by_test_id("sg-controls")
    expect(controls.get_by_test_id("close-declarations")).to_be_enabled()
    guide.mark_page()
    page.evaluate("document.getElementById('sg-controls').dataset.drawn = 'before'")
    status = page.get_by_test_id("encounter-status")
    version = int(status.get_attribute("data-version"))
    form = page.get_by_test_id("correction-form")
    form.get_by_label("Combatant").select_option(str(bandit.pk))
    form.get_by_label("Advantage attack").fill("2")
    form.get_by_label("Reason").fill("Knocked aside")
    form.get_by_test_id("correct-submit").click()
    expect(page.get_by_test_id(f"combatant-{bandit.pk}")).to_contain_text("Attack +2")
    expect(status).to_have_attribute("data-version", str(version + 1))
    expect(controls).to_have_attribute("data-drawn", "before")  # not swapped by the frame
    close = controls.locator("form", has=page.get_by_test_id("close-declarations"))
    expect(close.locator("input[name=expected_version]")).to_have_value(str(version + 1))
    page.once("dialog", lambda dialog: dialog.accept())  # "… have not declared … anyway?"
    controls.get_by_test_id("close-declarations").click()
    expect(status).not_to_have_attribute("data-phase", "declaring")
    expect(page.locator("#control-error")).to_be_empty()
    guide.assert_not_reloaded()
