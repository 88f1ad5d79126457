"""Issue 35, item 11: on phones of 360, 390 and 430 px, nothing fixed covers a control or the header's links.

On the encounter page of each system, for the storyguide and a player, each on a phone of that width, with
the new-result bar showing (a real push: the storyguide's next step): every visible link, button, input,
select and summary, brought to the middle of the screen where the page can scroll that far (the header's
links cannot: they are checked at the top), lies under no fixed or sticky element but its own; and no two
controls, nor a control and a name of the who-is-here row, lie on each other ("Keep screen on" sat on that
row). A socket's error message (a toast) shows too. Takes a screenshot of each page at each width, light
and dark, with the bar showing."""

import os
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from .encounter_page import load_demo_table
from .people import Person
from .test_d6_chase import load_demo_chase

pytestmark = pytest.mark.browser

WIDTHS = {360: 780, 390: 844, 430: 932}
SHOTS = Path(os.environ.get("COVENANT_LOOKS", "/tmp/covenant-looks"))

# What a finger can reach and what lies pinned over the page, as the page draws them now.
COVERED = """() => {
  // Drawn: not hidden, nor inside a closed <details> (whose content Chromium hides by content-visibility).
  const seen = (el) => el.checkVisibility({contentVisibilityAuto: true, visibilityProperty: true})
    && Array.from(el.getClientRects()).some((r) => r.width > 2 && r.height > 2);
  const name = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
    (el.dataset.testid ? '[' + el.dataset.testid + ']' : '') + ' "' + (el.textContent || el.value || '')
    .replace(/\\s+/g, ' ').trim().slice(0, 40) + '"';
  const over = (a, b) => a.left < b.right - 1 && b.left < a.right - 1
    && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const rects = (el) => Array.from(el.getClientRects()).filter((r) => r.width > 2 && r.height > 2);
  const related = (a, b) => a.contains(b) || b.contains(a);
  const controls = Array.from(document.querySelectorAll(
    'a[href], button, input:not([type=hidden]), select, textarea, summary')).filter(seen);
  const pinned = Array.from(document.querySelectorAll('body *')).filter((el) =>
    ['fixed', 'sticky'].includes(getComputedStyle(el).position) && seen(el));
  const found = [];
  // Each control in the middle of the screen, or as near as the page scrolls: under nothing pinned.
  for (const control of controls) {
    const box = control.getBoundingClientRect();
    const top = box.top + window.scrollY - (window.innerHeight - box.height) / 2;
    window.scrollTo({top: Math.max(0, top), behavior: 'instant'});
    for (const pin of pinned) {
      if (related(pin, control)) { continue; }
      const pinBox = pin.getBoundingClientRect();
      if (rects(control).some((r) => over(r, pinBox))) { found.push(name(control) + ' under ' + name(pin)); }
    }
  }
  window.scrollTo({top: 0, behavior: 'instant'});
  // No two controls, nor a control and a name of who is here, on each other.
  const blocks = controls.concat(Array.from(document.querySelectorAll('.presence-list li')).filter(seen));
  blocks.forEach((a, i) => blocks.slice(i + 1).forEach((b) => {
    if (!related(a, b) && rects(a).some((r) => rects(b).some((s) => over(r, s)))) {
      found.push(name(a) + ' on ' + name(b));
    }
  }));
  const bar = document.getElementById('latest-result');
  return {found, controls: controls.length, pinned: pinned.map(name), bar: Boolean(bar && !bar.hidden)};
}"""


def seat(table, width: int, user, path: str) -> Person:
    person = table.person(user.username, viewport={"width": width, "height": WIDTHS[width]})
    person.enter_as(user)
    person.goto(path)
    person.wait_until_live()
    expect(person.page.get_by_test_id("keep-awake")).to_be_visible()  # Chromium keeps screens on at 127.0.0.1
    return person


# A socket's error frame as live.js shows it (a toast, for 8 s), put up by hand: nothing sends one here.
TOAST = """() => { const item = document.createElement('div'); item.className = 'toast';
  item.setAttribute('role', 'alert'); item.textContent = 'Something went wrong.';
  document.getElementById('toasts').appendChild(item); }"""


def nothing_covered(page: Page, who: str) -> None:
    expect(page.get_by_test_id("latest-result")).to_be_visible()
    page.evaluate(TOAST)
    seen = page.evaluate(COVERED)
    assert seen["bar"], f"{who}: the new-result bar went before the check ended"
    assert seen["controls"] >= 6 and seen["pinned"], (who, seen)
    assert seen["found"] == [], f"{who}: {seen['found']}"


def shoot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    for theme in ("light", "dark"):
        page.emulate_media(color_scheme=theme)
        page.evaluate("(t) => document.documentElement.dataset.theme = t", theme)
        page.screenshot(path=str(SHOTS / f"{name}-{theme}.png"))


@pytest.mark.parametrize("width", list(WIDTHS))
def test_nothing_pinned_covers_a_control_on_an_ars_magica_encounter(table, settings, width):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    saga, encounter, combatants = load_demo_table()
    guide = seat(table, width, saga.storyguide, f"/encounters/{encounter.pk}/")
    player = seat(
        table, width, combatants["Sir Boris"].character.owner, f"/encounters/{encounter.pk}/arsmagica/play/"
    )
    guide.page.get_by_test_id("open-declarations").click()
    nothing_covered(player.page, "the player")
    nothing_covered(guide.page, "the storyguide")
    shoot(player.page, f"phone-{width}-ars-magica-player")
    shoot(guide.page, f"phone-{width}-ars-magica-storyguide")
    assert table.page_errors() == []


@pytest.mark.parametrize("width", list(WIDTHS))
def test_nothing_pinned_covers_a_control_on_a_d6_encounter(table, settings, width):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    saga, encounter, chase = load_demo_chase()
    wren = chase.runners.get(role="target").combatant
    guide = seat(table, width, saga.storyguide, f"/encounters/{encounter.pk}/d6/")
    player = seat(table, width, wren.character.owner, f"/encounters/{encounter.pk}/d6/")
    guide.page.get_by_test_id("roll-exchange").click()
    nothing_covered(player.page, "the player")
    nothing_covered(guide.page, "the storyguide")
    shoot(player.page, f"phone-{width}-d6-player")
    shoot(guide.page, f"phone-{width}-d6-storyguide")
    assert table.page_errors() == []
