"""Issue 3, "live, and right after any hiccup": pages that stay open while the server restarts reconnect
by themselves, show the "reconnecting" sign meanwhile, and afterwards show what a fresh page load shows.
Issue 10: the sign is up within 2 s of the server going, and the pages are live again within 2 s of the
server accepting connections again (the client retries at most 1 s apart for the first ten seconds or so).
"""

import time

import pytest
from playwright.sync_api import expect

from arsmagica.models import Phase

from .encounter_page import RECONNECT_MS, declare, event_seqs, live_text, load_demo_table, phase_is
from .people import CUT_OFF, PHONE

pytestmark = pytest.mark.browser

DOWN_MS = 8000  # long enough for htmx's own backoff (doubling up to 64 s) to wait well past the restart


def test_open_pages_reconnect_after_the_server_restarts_and_keep_playing(table, daphne, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # load_demo's four logins
    saga, encounter, combatants = load_demo_table()
    boris, bandit = combatants["Sir Boris"], combatants["Bandit 1"]

    table.allow(CUT_OFF)  # the pages' sockets and requests fail while the server is down
    guide = table.person("storyguide")
    guide.enter_as(saga.storyguide)
    player = table.person("player1", viewport=PHONE)
    player.enter_as(boris.character.owner)
    guide.goto(f"/encounters/{encounter.pk}/")
    player.goto(f"/encounters/{encounter.pk}/arsmagica/play/")
    for person in (guide, player):
        person.wait_until_live()
        person.mark_page()

    daphne.stop()
    for person in (guide, player):
        expect(person.page.get_by_test_id("reconnecting")).to_be_visible(timeout=2000)
        expect(person.page.get_by_test_id("connection-chip")).to_have_text("Reconnecting…")
    guide.page.wait_for_timeout(DOWN_MS)  # a deploy that takes a few seconds: a dozen refused attempts
    daphne.start()  # returns once the new server answers on the port
    accepting = time.monotonic()
    for person in (guide, player):
        person.wait_until_live(replays=2, timeout=RECONNECT_MS)
    live_again = time.monotonic() - accepting
    assert live_again <= 2.0, f"live again {live_again:.2f} s after the server accepted connections"
    for person in (guide, player):
        expect(person.page.get_by_test_id("reconnecting")).to_be_hidden()
        expect(person.page.get_by_test_id("connection-chip")).to_have_text("Live")

    # The restarted server pushes to both pages as before.
    guide.page.get_by_test_id("open-declarations").click()
    for person in (guide, player):
        phase_is(person.page, "declaring")
    declare(player.page, boris, action="Fight hand to hand", weapon="Sword", engage=bandit)
    expect(guide.page.get_by_test_id(f"declared-{boris.pk}")).to_have_class("done")

    fresh = player.new_tab()
    player.goto(f"/encounters/{encounter.pk}/arsmagica/play/", page=fresh)
    player.wait_until_live(page=fresh)
    expect(fresh.get_by_test_id(f"declared-mark-{boris.pk}")).to_be_visible()
    assert event_seqs(player.page) == event_seqs(fresh)
    assert live_text(player.page) == live_text(fresh)
    for person in (guide, player):
        person.assert_not_reloaded()
    encounter.refresh_from_db()
    assert encounter.phase == Phase.DECLARING
    assert encounter.declarations.filter(combatant=boris, round_number=1).exists()
