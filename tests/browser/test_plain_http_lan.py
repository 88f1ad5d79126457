"""Issue 32, item 7 in the browser: served on plain HTTP at a LAN name (not a secure context), the
storyguide's panel says so in one line and links to the fix; a player's page does not; the page still goes
live, registers no service worker and, with no wake lock, says nothing of keeping the screen on; no
console error on either.

Chromium reaches this module's own Daphne as `covenant.lan` (`--host-resolver-rules`), which, unlike
127.0.0.1 or localhost, is no secure context for the browser or for the server."""

import os

import pytest
from django.db import connections
from playwright.sync_api import expect, sync_playwright

from .conftest import CHROMIUM_ARGS
from .encounter_page import load_demo_table
from .people import PHONE, Table, outside_the_event_loop
from .server import DaphneServer, database_url

pytestmark = pytest.mark.browser

LAN = "covenant.lan"


@pytest.fixture(scope="module")
def lan_daphne(django_db_setup, tmp_path_factory):
    """A Daphne of this module's own that answers to the LAN name too."""
    url = database_url(connections["default"].settings_dict)
    environment = {"ALLOWED_HOSTS": f"{LAN},127.0.0.1,localhost"}
    with DaphneServer(url, tmp_path_factory.mktemp("daphne") / "daphne.log", environment) as server:
        yield server


@pytest.fixture
def lan_table(lan_daphne, transactional_db):
    """People whose Chromium finds `covenant.lan` at this machine, the site served there on plain HTTP."""
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    playwright = sync_playwright().start()
    browser = playwright.chromium.launch(
        executable_path=os.environ.get("COVENANT_CHROMIUM", "/usr/bin/chromium"),
        headless=True,
        args=[*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {LAN} 127.0.0.1"],
    )
    people = Table(browser, f"http://{LAN}:{lan_daphne.port}")
    try:
        yield people
        errors = people.page_errors()
        assert errors == []
    finally:
        people.close()
        browser.close()
        playwright.stop()
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


def test_on_plain_http_the_storyguide_is_told_in_one_line_and_the_table_still_plays(lan_table):
    saga, encounter, combatants = outside_the_event_loop(load_demo_table)
    boris = combatants["Sir Boris"]
    guide = lan_table.person("storyguide", service_workers="allow")  # none, as the page is not secure
    guide.enter_as(saga.storyguide)
    page = guide.goto(f"/encounters/{encounter.pk}/")
    guide.wait_until_live()
    assert page.evaluate("window.isSecureContext") is False
    notice = page.get_by_test_id("plain-http")
    expect(notice).to_have_count(1)
    expect(notice).to_be_visible()
    expect(notice.locator("a[href='/https/']")).to_be_visible()
    assert page.evaluate("'serviceWorker' in navigator") is False  # no worker, no install: as the line says

    player = lan_table.person("player", viewport=PHONE)
    player.enter_as(boris.character.owner)
    phone = player.goto(f"/encounters/{encounter.pk}/arsmagica/play/")
    player.wait_until_live()
    expect(phone.get_by_test_id("plain-http")).to_have_count(0)
    expect(phone.get_by_test_id("keep-awake")).to_be_hidden()  # no wake lock here: the page says nothing
    guide.page.get_by_test_id("open-declarations").click()  # the socket carries the table as on HTTPS
    expect(phone.get_by_test_id("my-declarations")).to_be_visible()
