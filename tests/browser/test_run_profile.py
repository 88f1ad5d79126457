"""Issue 35, item 1: `make run` is a server a group can trust. Its Daphne here runs what `make run` runs:
DEBUG off (unset, config.settings' default), no SECRET_KEY (so the install's key file, made on the first
start), the collected static files; plain HTTP at 127.0.0.1. A page that is not there, or not the person's,
is Covenant's own 404 and a failure its own 500: no URL pattern list, no traceback, in the site's frame and
theme, with a way back. The key file is made once, readable by its owner alone, and the next start reuses it:
a player logged in before a restart still is after it."""

import os
import re
import stat
import urllib.error
import urllib.request

import pytest
from django.contrib.auth import get_user_model
from django.db import connections
from playwright.sync_api import expect

from .encounter_page import load_demo_table
from .people import PHONE
from .run_profile_urls import FAILURE
from .server import DaphneServer, database_url

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 800}
# What Django's debug pages show, and what a traceback looks like: none of it may reach a browser.
DEBUG_WORDS = ("Django tried these URL patterns", "URLconf", "Traceback", "RuntimeError", FAILURE, "DEBUG =")
# What Chromium logs for a page answered 403, 404 or 500 itself: the status each test asks for.
ERROR_STATUS = re.compile(r"Failed to load resource: the server responded with a status of (403|404|500)")


@pytest.fixture(scope="module")
def key_file(tmp_path_factory):
    return tmp_path_factory.mktemp("install") / "secret_key"


@pytest.fixture(scope="module")
def run_daphne(django_db_setup, collected_static, key_file, tmp_path_factory):
    """A Daphne as `make run` starts it, on the test database."""
    environment = {
        "DEBUG": "false",
        "SECRET_KEY": "",  # unset, as in a shell that never heard of it: the install's key file
        "SECRET_KEY_FILE": str(key_file),
        "STATIC_ROOT": str(collected_static),
        "DJANGO_SETTINGS_MODULE": "tests.browser.run_profile",
    }
    url = database_url(connections["default"].settings_dict)
    log = tmp_path_factory.mktemp("daphne-run") / "daphne.log"
    with DaphneServer(url, log, environment) as server:
        yield server


@pytest.fixture
def visit(run_daphne, key_file, chromium, transactional_db, settings):
    """visit(user or None, path, viewport, colour scheme) -> (status, page): one browser context each, logged
    in with a session this process makes with the server's own key. Console errors fail the test, but the
    one Chromium logs for the error status of the page itself."""
    settings.SECRET_KEY = key_file.read_text().strip()
    contexts, errors = [], []

    def open_page(user, path, viewport=DESKTOP, scheme="light"):
        context = chromium.new_context(base_url=run_daphne.url, viewport=viewport, color_scheme=scheme)
        contexts.append(context)
        if user is not None:
            from django.test import Client

            client = Client()
            client.force_login(user)
            cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
            name = settings.SESSION_COOKIE_NAME
            context.add_cookies([{"name": name, "value": cookie, "url": run_daphne.url}])
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on(
            "console",
            lambda message: (
                message.type == "error"
                and not ERROR_STATUS.search(message.text)
                and errors.append(message.text)
            ),
        )
        response = page.goto(path)
        return response.status, page

    yield open_page
    for context in contexts:
        context.close()
    assert errors == [], errors


def the_sites_own_page(page, heading: str, way_back: str, href: str) -> None:
    """Covenant's frame (its header, its stylesheet), the heading, a link back, and nothing of Django's."""
    expect(page.get_by_role("heading", level=1)).to_have_text(heading)
    expect(page.locator("header.topbar")).to_be_visible()
    back = page.get_by_role("main").get_by_role("link", name=way_back)
    expect(back).to_be_visible()
    assert back.get_attribute("href") == href
    assert page.evaluate("getComputedStyle(document.body).fontFamily") != ""
    stylesheet = page.locator("link[rel=stylesheet]").get_attribute("href")
    assert re.fullmatch(r"/static/css/covenant\.[0-9a-f]{12}\.css", stylesheet), stylesheet  # collected
    html = page.content()
    for words in DEBUG_WORDS:
        assert words not in html, f"{words!r} shown to the browser"


def test_another_sagas_encounter_and_an_unknown_address_are_the_sites_not_found_page(visit):
    saga, encounter, _ = load_demo_table()
    outsider = get_user_model().objects.create_user("outsider", password="not-in-that-saga-1220")

    status, page = visit(outsider, f"/encounters/{encounter.pk}/", viewport=PHONE)
    assert status == 404
    the_sites_own_page(page, "Not found", "My sagas", "/sagas/")
    expect(page.locator("header.topbar")).to_contain_text("outsider")  # still logged in, told plainly

    status, page = visit(None, "/no/such/page/", scheme="dark")
    assert status == 404
    the_sites_own_page(page, "Not found", "My sagas", "/sagas/")
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"


def test_a_storyguides_page_opened_by_a_player_is_the_sites_not_allowed_page(visit):
    saga, _, _ = load_demo_table()
    player = get_user_model().objects.get(username="player1")
    status, page = visit(player, f"/sagas/{saga.pk}/npcs/new/", viewport=PHONE, scheme="dark")
    assert status == 403
    the_sites_own_page(page, "Not allowed", "My sagas", "/sagas/")
    expect(page.locator("main")).to_contain_text("Only the storyguide can do that.")


@pytest.mark.causes_server_traceback(f"RuntimeError: {FAILURE}")  # the check of tests/browser/conftest.py
def test_a_failure_is_the_sites_server_error_page_and_the_traceback_stays_in_the_log(visit, run_daphne):
    log_start = run_daphne.log_size()
    for viewport, scheme in ((PHONE, "light"), (DESKTOP, "dark")):
        status, page = visit(None, "/test-only/fails/", viewport=viewport, scheme=scheme)
        assert status == 500
        the_sites_own_page(page, "Something went wrong", "Front page", "/")
        assert page.evaluate("document.documentElement.dataset.theme") == scheme
    assert f"RuntimeError: {FAILURE}" in run_daphne.log_tail(since=log_start)  # the host still learns why


def test_plain_http_on_purpose_no_redirect_no_hsts_no_secure_only_cookies(run_daphne):
    with urllib.request.urlopen(f"{run_daphne.url}/accounts/login/") as response:
        assert response.status == 200 and response.url.startswith("http://")  # not sent to https
        assert response.headers["Strict-Transport-Security"] is None
        cookies = response.headers.get_all("Set-Cookie")
    assert cookies and not any("secure" in cookie.lower() for cookie in cookies)
    with pytest.raises(urllib.error.HTTPError) as refused:  # a host it was not given
        urllib.request.urlopen(urllib.request.Request(run_daphne.url, headers={"Host": "elsewhere.example"}))
    assert refused.value.code == 400


def test_the_key_file_is_made_once_its_owners_alone_and_reused_after_a_restart(visit, run_daphne, key_file):
    assert stat.S_IMODE(os.stat(key_file).st_mode) == 0o600
    key, made = key_file.read_text(), key_file.stat().st_mtime_ns
    assert len(key.strip()) >= 50
    saga, encounter, combatants = load_demo_table()
    boris = combatants["Sir Boris"].character.owner
    status, page = visit(boris, f"/encounters/{encounter.pk}/")
    assert status == 200

    page.goto("about:blank")  # no live socket trying to reconnect while the server is away
    run_daphne.restart()
    assert key_file.read_text() == key and key_file.stat().st_mtime_ns == made  # the same file, untouched
    assert page.goto(f"{run_daphne.url}/encounters/{encounter.pk}/").status == 200
    expect(page.locator("header.topbar")).to_contain_text(boris.username)  # the session outlived the restart
    expect(page.get_by_role("heading", level=1)).not_to_have_text("Not found")
