"""Issue 10, item 3: the connection is always visible. A chip says Live, Reconnecting… or Offline; a banner
comes up within 2 s of losing the socket; retries back off (the first within 0.5 s, then at most 1 s apart
for a while, never more than 5 s apart, jittered); a command made offline, or whose request fails on the way,
is never lost silently: a message says so right after the form that sent it.
"""

import re
import time

import pytest
from playwright.sync_api import Page, expect

from arsmagica.models import Declaration
from combat.consumers import ENCOUNTER_GONE

from .encounter_page import load_demo_table, phase_is
from .people import CUT_OFF, PHONE, outside_the_event_loop

pytestmark = pytest.mark.browser


@pytest.fixture(autouse=True)
def cut_off_on_purpose(table):
    """Each test here cuts the network or the socket: what the pages log for that is allowed."""
    table.allow(CUT_OFF)


# When the page starts each socket (an attempt) and when one closes, in the page's own clock.
ATTEMPTS = """
window.__covenantAttempts = []; window.__covenantCloses = [];
document.addEventListener("htmx:wsConnecting", () => { window.__covenantAttempts.push(performance.now()); });
document.addEventListener("htmx:wsClose", () => { window.__covenantCloses.push(performance.now()); });
"""
BANNER_MS = 2000


def chip_says(page: Page, state: str, text: str) -> None:
    chip = page.get_by_test_id("connection-chip")
    expect(chip).to_have_attribute("data-state", state)
    expect(chip).to_have_text(text)
    expect(chip).to_be_in_viewport()


def seat_boris(table, viewport=PHONE):
    saga, encounter, combatants = load_demo_table()
    boris = combatants["Sir Boris"]
    player = table.person("player1", viewport=viewport)
    player.enter_as(boris.character.owner)
    return saga, encounter, combatants, player


def storyguide_at(table, saga, encounter):
    """The saga's storyguide, logged in, on the encounter's control panel."""
    guide = table.person("storyguide")
    guide.enter_as(saga.storyguide)
    guide.goto(f"/encounters/{encounter.pk}/")
    return guide


def fill_declaration(page: Page, boris, bandit):
    form = page.get_by_test_id(f"declare-form-{boris.pk}")
    form.get_by_label("Action").select_option(label="Fight hand to hand")
    form.get_by_label("Weapon").select_option(label="Sword")
    form.get_by_label(re.compile(rf"{re.escape(bandit.character.name)} \(")).check()
    return form


def test_the_chip_and_banner_follow_the_socket_and_the_retries_back_off(table, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    _saga, encounter, _combatants, player = seat_boris(table)
    player.context.add_init_script(ATTEMPTS)
    line = player.wire_live_socket()
    player.goto(f"/encounters/{encounter.pk}/arsmagica/play/")
    player.wait_until_live()
    player.mark_page()
    page = player.page
    chip_says(page, "connected", "Live")
    expect(page.get_by_test_id("reconnecting")).to_be_hidden()

    # The backoff itself, sampled: htmx's extension asks it for each of its own retries.
    sample = "([n, k]) => Array.from({length: k}, () => htmx.config.wsReconnectDelay(n))"
    samples = {n: page.evaluate(sample, [n, 50]) for n in range(0, 25)}
    assert max(samples[0]) <= 500, "the first retry comes within 0.5 s"
    assert all(delay <= 1000 for n in range(1, 15) for delay in samples[n]), "then at most 1 s apart a while"
    assert all(0 < delay <= 5000 for delays in samples.values() for delay in delays), "never over 5 s apart"
    assert max(samples[24]) > 2500, "after a long outage the retries are spread out, up to the 5 s cap"
    assert len(set(samples[5])) > 40, "jittered: the pages of a table do not knock all at once"

    line.cut()
    started = time.monotonic()
    expect(page.get_by_test_id("reconnecting")).to_be_visible(timeout=BANNER_MS)
    assert time.monotonic() - started <= BANNER_MS / 1000
    expect(page.get_by_test_id("reconnecting")).to_contain_text("reconnecting")
    chip_says(page, "reconnecting", "Reconnecting…")
    page.wait_for_timeout(3000)  # a few refused attempts
    closes, attempts = page.evaluate("[window.__covenantCloses, window.__covenantAttempts]")
    dropped = closes[0]
    retries = [moment for moment in attempts if moment > dropped]
    assert len(retries) >= 3, f"only {len(retries)} attempts in 3 s"
    assert retries[0] - dropped <= 550, f"first retry {retries[0] - dropped:.0f} ms after the drop"
    gaps = [later - earlier for earlier, later in zip(retries, retries[1:], strict=False)]
    assert max(gaps) <= 1150, f"retries {gaps} ms apart"

    line.restore()
    player.wait_until_live(replays=2, timeout=3000)
    chip_says(page, "connected", "Live")
    expect(page.get_by_test_id("reconnecting")).to_be_hidden()
    player.assert_not_reloaded()


def test_a_declaration_made_offline_is_refused_next_to_its_form_and_goes_once_back_online(table, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    saga, encounter, combatants, player = seat_boris(table)
    boris, bandit = combatants["Sir Boris"], combatants["Bandit 1"]
    guide = storyguide_at(table, saga, encounter)
    player.goto(f"/encounters/{encounter.pk}/arsmagica/play/")
    for person in (guide, player):
        person.wait_until_live()
    player.mark_page()
    guide.page.get_by_test_id("open-declarations").click()
    phase_is(player.page, "declaring")
    page = player.page
    form = fill_declaration(page, boris, bandit)

    player.context.set_offline(True)
    expect(page.get_by_test_id("reconnecting")).to_be_visible(timeout=BANNER_MS)
    expect(page.get_by_test_id("reconnecting")).to_contain_text("offline")
    chip_says(page, "offline", "Offline")

    form.get_by_test_id(f"declare-submit-{boris.pk}").click()
    note = form.locator("xpath=following-sibling::*[1]")
    expect(note).to_have_attribute("data-testid", "not-sent")
    expect(note).to_have_text("Not sent: you are offline. Send it again once the connection is back.")
    expect(note).to_be_in_viewport()
    expect(form.get_by_test_id(f"declare-submit-{boris.pk}")).to_be_enabled()  # ready to send again
    page.wait_for_timeout(500)
    assert not Declaration.objects.filter(combatant=boris).exists()

    player.context.set_offline(False)
    chip_says(page, "connected", "Live")
    expect(page.get_by_test_id("reconnecting")).to_be_hidden()
    expect(note).to_have_text("The connection is back: send it again if it is still wanted.")
    form.get_by_test_id(f"declare-submit-{boris.pk}").click()
    expect(page.get_by_test_id(f"declared-mark-{boris.pk}")).to_be_visible()
    expect(guide.page.get_by_test_id(f"declared-{boris.pk}")).to_have_class("done")
    expect(page.get_by_test_id("not-sent")).to_have_count(0)
    assert Declaration.objects.filter(combatant=boris).count() == 1
    player.assert_not_reloaded()


def test_a_command_whose_request_fails_on_the_way_says_so_next_to_its_form(table, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    saga, encounter, combatants, player = seat_boris(table)
    boris, bandit = combatants["Sir Boris"], combatants["Bandit 1"]
    guide = storyguide_at(table, saga, encounter)
    player.goto(f"/encounters/{encounter.pk}/arsmagica/play/")
    for person in (guide, player):
        person.wait_until_live()
    guide.page.get_by_test_id("open-declarations").click()
    phase_is(player.page, "declaring")
    page = player.page
    form = fill_declaration(page, boris, bandit)

    def lost_on_the_way(route):  # the wifi goes as the declaration leaves: the socket has not noticed yet
        if route.request.method == "POST":
            route.abort("internetdisconnected")
        else:
            route.continue_()

    page.route(re.compile(r"/encounters/"), lost_on_the_way)
    form.get_by_test_id(f"declare-submit-{boris.pk}").click()
    note = form.locator("xpath=following-sibling::*[1]")
    expect(note).to_have_attribute("data-testid", "not-sent")
    expect(note).to_have_text(
        "Not sent: the server could not be reached. Send it again once the connection is back."
    )
    expect(form.get_by_test_id(f"declare-submit-{boris.pk}")).to_be_enabled()
    assert not Declaration.objects.filter(combatant=boris).exists()

    page.unroute(re.compile(r"/encounters/"))
    form.get_by_test_id(f"declare-submit-{boris.pk}").click()
    expect(page.get_by_test_id(f"declared-mark-{boris.pk}")).to_be_visible()
    expect(page.get_by_test_id("not-sent")).to_have_count(0)


def test_a_players_declarations_lost_on_their_way_come_at_the_next_phase(table, settings):
    """The player's declarations panel is fetched once the page is up; when that fetch is lost (the server
    restarting as the page loads), the panel comes with the next change of phase, not only on a reload."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    saga, encounter, combatants, player = seat_boris(table)
    boris = combatants["Sir Boris"]
    guide = storyguide_at(table, saga, encounter)
    lost = re.compile(r"/declarations/$")
    player.page.route(lost, lambda route: route.abort("connectionreset"))
    page = player.goto(f"/encounters/{encounter.pk}/arsmagica/play/")
    for person in (guide, player):
        person.wait_until_live()
    expect(page.locator("#my-declarations")).to_have_text("Loading your declarations…")
    page.unroute(lost)
    guide.page.get_by_test_id("open-declarations").click()
    phase_is(page, "declaring")
    expect(page.get_by_test_id(f"declare-form-{boris.pk}")).to_be_visible()


def test_a_players_declarations_lost_on_their_way_come_once_the_page_is_live_again(table, settings):
    """Declarations are open, so no change of phase is coming until the player declares: a panel whose
    fetch was lost (the server going as the page loaded) comes once the socket is live again."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    saga, encounter, combatants, player = seat_boris(table)
    boris = combatants["Sir Boris"]
    guide = storyguide_at(table, saga, encounter)
    guide.wait_until_live()
    guide.page.get_by_test_id("open-declarations").click()
    phase_is(guide.page, "declaring")
    lost = re.compile(r"/declarations/$")
    player.page.route(lost, lambda route: route.abort("connectionreset"))
    page = player.goto(f"/encounters/{encounter.pk}/arsmagica/play/")
    player.wait_until_live()
    expect(page.locator("#my-declarations")).to_have_text("Loading your declarations…")
    page.unroute(lost)
    player.context.set_offline(True)
    expect(page.get_by_test_id("reconnecting")).to_be_visible(timeout=BANNER_MS)
    player.context.set_offline(False)
    expect(page.get_by_test_id(f"declare-form-{boris.pk}")).to_be_visible()


def box(page: Page, selector: str) -> dict:
    return page.locator(selector).first.bounding_box()


def test_the_banner_covers_neither_the_top_bar_nor_the_round_and_phase(table):
    saga, encounter, combatants, player = seat_boris(table)
    page = player.goto(f"/encounters/{encounter.pk}/arsmagica/play/")
    player.wait_until_live()
    player.context.set_offline(True)
    banner = page.get_by_test_id("reconnecting")
    expect(banner).to_be_visible(timeout=BANNER_MS)
    page.wait_for_timeout(200)  # the page has moved down by the banner's height
    below = box(page, "#live-sign")["y"] + box(page, "#live-sign")["height"]
    assert box(page, ".topbar")["y"] >= below - 1  # the page starts under the banner

    page.mouse.wheel(0, 900)
    page.wait_for_timeout(300)
    assert box(page, ".topbar")["y"] < 0  # scrolled: the sticky round and phase are at the top ...
    expect(page.locator(".live-top")).to_be_in_viewport()
    assert box(page, ".live-top")["y"] >= below - 1  # ... under the banner, not behind it

    player.context.set_offline(False)
    expect(banner).to_be_hidden()
    page.mouse.wheel(0, -2000)
    page.wait_for_timeout(300)
    assert box(page, ".topbar")["y"] == 0  # the room goes with the banner


def test_a_page_whose_encounter_was_deleted_says_so_when_it_reconnects(table, settings):
    """The 4403 after a resume says why: the error frame the server sent last, not "log in again"."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    _saga, encounter, _combatants, player = seat_boris(table)
    line = player.wire_live_socket()
    player.goto(f"/encounters/{encounter.pk}/arsmagica/play/")
    player.wait_until_live()
    page = player.page
    line.cut()
    chip_says(page, "reconnecting", "Reconnecting…")
    outside_the_event_loop(type(encounter).objects.filter(pk=encounter.pk).delete)  # deleted meanwhile
    line.restore()
    chip_says(page, "offline", "Offline")
    expect(page.get_by_test_id("reconnecting")).to_have_text(ENCOUNTER_GONE)
    expect(page.get_by_test_id("toast")).to_have_count(0)  # said once, in the banner
