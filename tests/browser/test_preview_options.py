"""Issue 35, item 13: the preview's options, before the storyguide confirms a phase, have a visible label
beside every field, and open by themselves when they hold something other than the default.

Melee rolled: the options (botch dice, a modifier for each combatant) are folded, nothing in them changed.
Opened, every field of the preview has a label whose words are drawn on the screen, and its accessible
name has them too (axe-core finds no violation in the preview, in either theme, at phone and laptop size).
A modifier given and recomputed: the options come back open, even folded just before. Melee confirmed, the
Fatigue phase's options are open (they ask who else rolls), and a botch die changed keeps them open."""

import os
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

from .encounter_page import phase_is
from .people import PHONE, Person
from .test_d6_chase import load_demo_chase
from .test_storyguide_flow import melee_declared

pytestmark = pytest.mark.browser

AXE = Axe()
SHOTS = Path(os.environ.get("COVENANT_LOOKS", "/tmp/covenant-looks"))
# Each field of the preview's form a person can change: the words of its label drawn on the screen (what a
# screen reader alone hears left out), and its accessible name's start (axe checks the rest).
LABELS = """() => Array.from(document.querySelectorAll(
    '#phase-preview input:not([type=hidden]), #phase-preview select, #phase-preview textarea'))
  .filter((field) => field.checkVisibility({contentVisibilityAuto: true}))
  .map((field) => {
    const label = field.labels && field.labels[0];
    let shown = '';
    if (label && label.checkVisibility()) {
      const copy = label.cloneNode(true);
      copy.querySelectorAll('.visually-hidden, input, select, textarea').forEach((el) => el.remove());
      shown = copy.textContent.replace(/\\s+/g, ' ').trim();
    }
    return [field.name, shown];
  })"""


def open_options(page: Page) -> bool:
    return page.get_by_test_id("preview-options").get_attribute("open") is not None


def every_field_has_a_visible_label(page: Page) -> None:
    fields = page.evaluate(LABELS)
    assert len(fields) >= 4, fields
    assert [name for name, shown in fields if not shown] == [], fields


def no_axe_violation(page: Page, where: str) -> None:
    """axe-core, on the preview alone, light then dark: no violation at all."""
    page.evaluate(AXE.axe_script)
    for theme in ("light", "dark"):
        page.emulate_media(color_scheme=theme)
        page.evaluate("(t) => document.documentElement.dataset.theme = t", theme)
        found = page.evaluate(
            "axe.run('#phase-preview', {resultTypes: ['violations']}).then((r) => r.violations"
            ".map((v) => v.id + ' (' + v.impact + '): ' + v.nodes.map((n) => n.target).join(', ')))"
        )
        assert found == [], (where, theme, found)
        SHOTS.mkdir(parents=True, exist_ok=True)
        shot = SHOTS / f"preview-options-{where}-{theme}.png"
        page.get_by_test_id("phase-preview").screenshot(path=str(shot))
    page.evaluate("delete document.documentElement.dataset.theme")


@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_the_preview_options_are_labelled_and_open_when_they_hold_a_change(table, settings, size):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # load_demo's logins
    saga, encounter, combatants = melee_declared()
    boris, bandit1 = combatants["Sir Boris"], combatants["Bandit 1"]
    guide: Person = table.person("storyguide", viewport=PHONE if size == "phone" else None)
    guide.enter_as(saga.storyguide)
    page = guide.goto(f"/encounters/{encounter.pk}/")
    guide.wait_until_live()
    phase_is(page, "melee")

    # Rolled: nothing changed, the options folded; opened, each field labelled on the screen.
    page.get_by_test_id("preview-phase").click()
    expect(page.get_by_test_id("phase-preview")).to_contain_text("check before confirming")
    assert not open_options(page)
    page.get_by_test_id("preview-options").locator("summary").click()
    expect(page.get_by_test_id(f"modifier-{boris.pk}")).to_be_visible()
    every_field_has_a_visible_label(page)
    expect(page.get_by_label("Modifier for Sir Boris")).to_have_attribute("name", f"modifiers-{boris.pk}")
    expect(page.get_by_label("Botch dice for Bandit 1")).to_have_attribute("name", f"botch_dice-{bandit1.pk}")
    no_axe_violation(page, f"melee-{size}")

    # A modifier given, the options folded, then recomputed: they come back open, the +3 in them.
    page.get_by_test_id(f"modifier-{boris.pk}").fill("3")
    page.get_by_test_id("preview-options").locator("summary").click()
    assert not open_options(page)
    drawn = page.get_by_test_id("preview-form").locator('[name="expected_version"]').input_value()
    page.get_by_test_id("recompute-phase").click()
    expect(page.get_by_test_id("preview-form").locator('[name="expected_version"]')).not_to_have_value(drawn)
    expect(page.get_by_test_id("preview-options")).to_have_attribute("open", "")
    expect(page.get_by_test_id(f"modifier-{boris.pk}")).to_be_visible()
    expect(page.get_by_test_id(f"modifier-{boris.pk}")).to_have_value("3")

    # Confirmed: the Fatigue phase's options are open (who else rolls), every field labelled.
    page.get_by_test_id("confirm-phase").click()
    phase_is(page, "fatigue")
    page.get_by_test_id("preview-phase").click()
    expect(page.get_by_test_id("phase-preview")).to_contain_text("check before confirming")
    assert open_options(page)
    every_field_has_a_visible_label(page)
    no_axe_violation(page, f"fatigue-{size}")
    assert table.page_errors() == []


def test_the_d6_offer_of_a_terrain_is_labelled_and_open_while_an_offer_stands(table, settings):
    """The d6 system has no preview: the storyguide's one folded choice before a step is the offer of a
    terrain change to the chase's target. Its fields have labels on the screen, axe finds nothing in it, and
    once an offer stands it is drawn open."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    saga, encounter, _ = load_demo_chase()
    guide: Person = table.person("storyguide", viewport=PHONE)
    guide.enter_as(saga.storyguide)
    page = guide.goto(f"/encounters/{encounter.pk}/d6/")
    guide.wait_until_live()
    offer = page.get_by_test_id("offer")
    assert offer.get_attribute("open") is None
    offer.locator("summary").click()
    fields = page.evaluate(LABELS.replace("#phase-preview", "[data-testid=offer-form]"))
    assert len(fields) >= 3 and [name for name, shown in fields if not shown] == [], fields
    expect(page.get_by_label("Its name")).to_have_attribute("name", "new_name")
    expect(page.get_by_label("Rolled there")).to_have_attribute("name", "new_rolled")
    page.evaluate(AXE.axe_script)
    found = page.evaluate(
        "axe.run('[data-testid=offer]', {resultTypes: ['violations']})"
        ".then((r) => r.violations.map((v) => v.id))"
    )
    assert found == []
    page.get_by_test_id("offer-form").locator("input[name=offer][value='Rooftops']").check()
    page.get_by_test_id("offer-submit").click()
    expect(page.get_by_test_id("event-log")).to_contain_text("Rooftops")
    page = guide.goto(f"/encounters/{encounter.pk}/d6/")
    expect(page.get_by_test_id("offer")).to_have_attribute("open", "")
    assert table.page_errors() == []
