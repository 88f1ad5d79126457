"""Keep screen on (static/js/awake.js): while an encounter runs, a page holds a screen wake lock.

Headless Chromium has the Screen Wake Lock API on 127.0.0.1 (a secure context) and grants it, so the page
takes real locks; an init script counts the page's requests and keeps each lock it got, to see whether it is
still held. Headless pages are always visible, so the tab being hidden is played by the same script: it makes
`document.visibilityState` answer what the test says and fires visibilitychange.
"""

import pytest
from playwright.sync_api import Page, expect

from combat.models import Encounter

from .people import DESKTOP, PHONE, wait_until_true
from .test_d6_chase import load_demo_chase

pytestmark = pytest.mark.browser

WAKE_PROBE = """
window.__wake = {requests: 0, locks: [], hidden: false};
if (navigator.wakeLock) {
  const request = navigator.wakeLock.request.bind(navigator.wakeLock);
  navigator.wakeLock.request = (type) => {
    window.__wake.requests += 1;
    return request(type).then((lock) => { window.__wake.locks.push(lock); return lock; });
  };
}
Object.defineProperty(Document.prototype, "visibilityState", {
  configurable: true, get() { return window.__wake.hidden ? "hidden" : "visible"; },
});
Object.defineProperty(Document.prototype, "hidden", {
  configurable: true, get() { return window.__wake.hidden; },
});
"""
NO_WAKE_LOCK = "delete Navigator.prototype.wakeLock;"
HELD = "window.__wake.locks.filter((lock) => !lock.released).length"


def requests(page: Page) -> int:
    return page.evaluate("window.__wake.requests")


def turn(page: Page, hidden: bool) -> None:
    """The tab goes to the background (hidden) or comes back to the front."""
    page.evaluate(
        f"window.__wake.hidden = {'true' if hidden else 'false'}; "
        "document.dispatchEvent(new Event('visibilitychange'))"
    )


def the_running_chase():
    """The demo's d6 chase, running: its saga, the encounter, and the player of its target, Wren."""
    saga, encounter, _chase = load_demo_chase()
    assert encounter.status == Encounter.Status.RUNNING
    return saga, encounter, encounter.combatants.get(character__name="Wren").character.owner


def open_live(table, encounter, user, script: str, viewport=PHONE):
    """`user` opens the encounter's page, `script` run before the page's own, and waits until it is live."""
    person = table.person(user.username, viewport=viewport)
    person.context.add_init_script(script)
    person.enter_as(user)
    page = person.goto(f"/encounters/{encounter.pk}/d6/")
    person.wait_until_live()
    return person, page


@pytest.fixture(autouse=True)
def quick_logins(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # load_demo_d6's logins


def test_a_running_encounter_keeps_the_screen_on_until_switched_off_or_ended(table):
    saga, encounter, wren = the_running_chase()
    player, page = open_live(table, encounter, wren, WAKE_PROBE)

    switch = page.get_by_test_id("keep-awake")
    expect(switch).to_be_visible()
    box = switch.get_by_role("checkbox", name="Keep screen on")
    expect(box).to_be_checked()
    assert switch.locator("label").bounding_box()["height"] >= 44  # a finger-sized target
    wait_until_true(page, f"{HELD} === 1")
    assert requests(page) == 1

    turn(page, hidden=True)  # the browser lets the lock go with the tab; the page asks again when it is back
    wait_until_true(page, f"{HELD} === 0")
    turn(page, hidden=False)
    wait_until_true(page, f"{HELD} === 1")
    assert requests(page) == 2

    box.uncheck()  # switched off: let go, and remembered in this browser
    wait_until_true(page, f"{HELD} === 0")
    assert page.evaluate("localStorage.getItem('covenant-awake')") == "off"
    page.reload()
    player.wait_until_live()
    expect(box).not_to_be_checked()
    turn(page, hidden=False)
    assert requests(page) == 0

    box.check()
    wait_until_true(page, f"{HELD} === 1")
    assert page.evaluate("localStorage.getItem('covenant-awake')") == "on"

    guide, panel = open_live(table, encounter, saga.storyguide, WAKE_PROBE, viewport=DESKTOP)
    panel.once("dialog", lambda dialog: dialog.accept())  # "End this encounter for everyone?"
    panel.get_by_test_id("end-encounter").click()
    expect(page.get_by_test_id("status-ended")).to_be_visible()
    wait_until_true(page, f"{HELD} === 0")  # the encounter is over: the phone may sleep again
    expect(switch).to_be_hidden()
    turn(page, hidden=False)
    assert requests(page) == 1


def test_the_storyguide_may_keep_the_screen_on_too(table):
    saga, encounter, _wren = the_running_chase()
    page = open_live(table, encounter, saga.storyguide, WAKE_PROBE, viewport=DESKTOP)[1]
    expect(page.get_by_role("checkbox", name="Keep screen on")).to_be_checked()
    wait_until_true(page, f"{HELD} === 1")


def test_without_a_wake_lock_the_page_says_nothing(table):
    _saga, encounter, wren = the_running_chase()
    page = open_live(table, encounter, wren, NO_WAKE_LOCK)[1]
    assert page.evaluate("'wakeLock' in navigator") is False
    expect(page.get_by_test_id("keep-awake")).to_be_hidden()
    expect(page.get_by_text("Keep screen on")).to_be_hidden()
