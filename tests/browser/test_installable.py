"""Issue 32, item 1: Covenant installs on a phone's home screen, and an offline reload shows its own page.

Chromium itself judges the manifest (CDP's Page.getAppManifest and Page.getInstallabilityErrors); the
service worker must be active, and with the network gone a reload must show the offline page, in the site's
look and with no console error, and bring the page back by itself when the network returns. The offline page
is saved at 390x844 in both themes to COVENANT_BROWSER_ARTIFACTS (/tmp/covenant-browser-failures)/offline/.
"""

import json
import os
import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import ARTIFACTS, CHROMIUM_ARGS
from .encounter_page import load_demo_table
from .people import PHONE, Person, Table, wait_until_true
from .test_refusals import production_daphne  # noqa: F401 (a fixture: Daphne with DEBUG off)

pytestmark = pytest.mark.browser

# The worker took this page over (clients.claim) and is active: it answers the page's requests from now on.
WORKER_ACTIVE = "navigator.serviceWorker.controller?.state === 'activated'"
CACHED_URLS = """async () => {
  const urls = [];
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) { urls.push(new URL(request.url).pathname); }
  }
  return urls;
}"""


def visitor_with_worker(table) -> tuple[Person, Page, list[str]]:
    """A phone on the front page, its service worker active and controlling the page; console errors kept."""
    visitor = table.person("visitor", viewport=PHONE, service_workers="allow")
    errors: list[str] = []
    visitor.page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page = visitor.goto("/")
    wait_until_true(page, WORKER_ACTIVE)
    return visitor, page, errors


def test_chromium_finds_the_site_installable_with_no_manifest_error(chromium, daphne, tmp_path):
    # A profile of its own: Chromium installs nothing from an incognito context, which new_context() makes.
    context = chromium.browser_type.launch_persistent_context(
        tmp_path / "profile",
        executable_path=os.environ.get("COVENANT_CHROMIUM", "/usr/bin/chromium"),
        headless=True,
        args=CHROMIUM_ARGS,
        base_url=daphne.url,
        viewport=PHONE,
    )
    try:
        page = context.pages[0] if context.pages else context.new_page()
        errors: list[str] = []
        page.on("console", lambda message: message.type == "error" and errors.append(message.text))
        assert page.goto("/").ok
        wait_until_true(page, WORKER_ACTIVE)
        cdp = context.new_cdp_session(page)
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["url"].endswith("/manifest.webmanifest")
        assert manifest["errors"] == []
        data = json.loads(manifest["data"])
        assert (data["display"], data["start_url"], data["short_name"]) == ("standalone", "/", "Covenant")
        assert {(icon["sizes"], icon["purpose"]) for icon in data["icons"]} >= {
            ("192x192", "any"),
            ("512x512", "any"),
            ("512x512", "maskable"),
        }
        assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
        for icon in data["icons"]:
            assert page.request.get(icon["src"]).ok, icon["src"]
        assert errors == []
    finally:
        context.close()


def test_an_offline_reload_shows_the_offline_page_which_comes_back_by_itself(table):
    visitor, page, errors = visitor_with_worker(table)
    visitor.context.set_offline(True)
    page.reload()
    expect(page.get_by_role("heading", name="You are offline")).to_be_visible()
    assert page.url == f"{visitor.base_url}/"  # the page asked for keeps its address, to come back to
    expect(page.get_by_role("heading", name="What works offline")).to_be_visible()
    paper = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert paper == "rgb(250, 246, 238)", "the stylesheet came from the worker's cache"  # --paper, light
    ARTIFACTS.joinpath("offline").mkdir(parents=True, exist_ok=True)
    for theme in ("light", "dark"):
        page.emulate_media(color_scheme=theme)
        page.screenshot(path=ARTIFACTS / "offline" / f"phone-{theme}-offline.png", full_page=True)
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(23, 20, 17)"  # dark
    visitor.context.set_offline(False)
    expect(page.get_by_role("heading", name="Covenant", exact=True)).to_be_visible(timeout=15_000)
    expect(page.get_by_role("heading", name="You are offline")).to_have_count(0)
    assert errors == []


def test_the_worker_keeps_no_page_command_or_htmx_answer(table):
    visitor, page, errors = visitor_with_worker(table)
    page.evaluate(
        """async () => {
          await fetch("/", {headers: {"HX-Request": "true"}});
          const login = new FormData();  // a wrong password with the page's CSRF token: a 200
          login.append("username", "nobody");
          login.append("password", "not-the-password");
          const token = JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"];
          await fetch("/accounts/login/", {method: "POST", body: login, headers: {"X-CSRFToken": token}});
          await fetch("/favicon.ico");
        }"""
    )
    visitor.goto("/sagas/")  # a redirect, through the worker, to the login page
    assert "/accounts/login/?next=/sagas/" in page.url
    cached = page.evaluate(CACHED_URLS)
    assert "/offline/" in cached and "/static/css/covenant.css" in cached
    assert not [
        url
        for url in cached
        if url not in ("/offline/", "/manifest.webmanifest") and not url.startswith("/static/")
    ], cached


def test_with_hashed_names_the_worker_keeps_each_static_file_it_fetched(chromium, production_daphne):  # noqa: F811
    """As deployed (DEBUG off, collectstatic's hashed names): a hashed file is kept once fetched and comes
    from the cache, so it is there offline; the offline page is drawn with its hashed stylesheet."""
    table = Table(chromium, production_daphne.url)
    try:
        visitor, page, errors = visitor_with_worker(table)
        manifest = page.request.get("/manifest.webmanifest").json()
        large = next(item["src"] for item in manifest["icons"] if item["sizes"] == "512x512")
        assert re.search(r"\.[0-9a-f]{12}\.png$", large), large  # a hashed name, not yet kept
        assert large not in page.evaluate(CACHED_URLS)
        assert page.evaluate(f"fetch('{large}').then((response) => response.ok)")
        for _ in range(50):  # the worker stores it as it answers (waitUntil), a moment later
            if large in page.evaluate(CACHED_URLS):
                break
            page.wait_for_timeout(100)
        assert large in page.evaluate(CACHED_URLS)
        visitor.context.set_offline(True)
        assert page.evaluate(f"fetch('{large}').then((response) => response.status)") == 200
        page.reload()
        expect(page.get_by_role("heading", name="You are offline")).to_be_visible()
        stylesheet = page.evaluate("document.querySelector('link[rel=stylesheet]').getAttribute('href')")
        assert re.search(r"/covenant\.[0-9a-f]{12}\.css$", stylesheet), stylesheet
        assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(250, 246, 238)"
        assert errors == [] and table.page_errors() == []
    finally:
        table.close()


def test_an_export_is_still_a_download_with_the_worker_in_charge(table, settings):
    """The worker answers every navigation, a download's too: it must still come as a file, not a page."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # load_demo's logins
    saga, _, _ = load_demo_table()
    guide = table.person("storyguide", viewport=PHONE, service_workers="allow")
    guide.enter_as(saga.storyguide)
    page = guide.goto(f"/sagas/{saga.pk}/history/")
    wait_until_true(page, WORKER_ACTIVE)
    with page.expect_download() as download:
        page.get_by_test_id("archive-json").click()
    assert download.value.suggested_filename.endswith("-archive.json")
    assert page.url.endswith(f"/sagas/{saga.pk}/history/")
