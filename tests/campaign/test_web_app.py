"""Issue 32, item 1: the manifest, the service worker's script, the offline page and /favicon.ico.

The browser's side (Chromium finds the site installable, the worker runs, an offline reload shows the
offline page) is tests/browser/test_installable.py.
"""

import json
import re
import struct
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

from campaign.web_app import THEMES
from tests.deploy.test_static_files import collected, production  # noqa: F401 (fixtures)
from tests.personas import client_for

CSS = Path(finders.find("css/covenant.css")).read_text()
HASHED = re.compile(r"const HASHED = /(.+)/;")


def png_size(data: bytes) -> tuple[int, int]:
    """A PNG's width and height, from its IHDR chunk."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def static_bytes(url: str) -> bytes:
    """The bytes of the app's static file at this /static/ URL (DEBUG's unhashed name)."""
    return Path(finders.find(url.removeprefix("/static/"))).read_bytes()


def test_the_manifest_names_an_app_a_phone_can_install():
    response = Client().get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["name"] == manifest["short_name"] == "Covenant"
    assert (manifest["start_url"], manifest["scope"], manifest["display"]) == ("/", "/", "standalone")
    assert manifest["theme_color"] == THEMES["light"]["theme_color"]
    assert manifest["background_color"] == THEMES["light"]["background_color"]
    assert manifest["user_preferences"]["color_scheme_dark"] == THEMES["dark"]
    sizes = {}
    for icon in manifest["icons"]:
        if icon["type"] == "image/png":
            sizes[icon["purpose"], icon["sizes"]] = png_size(static_bytes(icon["src"]))
    assert sizes == {
        ("any", "192x192"): (192, 192),
        ("any", "512x512"): (512, 512),
        ("maskable", "512x512"): (512, 512),
    }


def test_the_theme_colours_are_the_top_bar_and_the_page_of_each_theme():
    light, dark = CSS.split("@media screen {", 1)
    for theme, block in (("light", light), ("dark", dark.split("}", 1)[0])):
        assert f"--bar: {THEMES[theme]['theme_color']};" in block
        assert f"--paper: {THEMES[theme]['background_color']};" in block


def test_every_page_names_the_manifest_the_touch_icon_and_both_theme_colours():
    page = Client().get("/accounts/login/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert png_size(static_bytes("/static/icons/apple-touch-icon.png")) == (180, 180)
    assert '<link rel="apple-touch-icon" href="/static/icons/apple-touch-icon.png">' in page
    light, dark = THEMES["light"]["theme_color"], THEMES["dark"]["theme_color"]
    for scheme, colour in (("light", light), ("dark", dark)):
        assert (
            f'<meta name="theme-color" content="{colour}" media="(prefers-color-scheme: {scheme})" '
            f'data-light="{light}" data-dark="{dark}">'
        ) in page
    assert 'src="/static/js/install.js" data-worker="/sw.js"' in page


def test_favicon_ico_answers_with_the_icon():
    response = Client().get("/favicon.ico")
    assert response.status_code == 200
    assert response["Content-Type"] == "image/x-icon"
    assert response.content[:4] == b"\x00\x00\x01\x00"  # an icon resource
    assert "max-age=86400" in response["Cache-Control"]


def test_the_service_worker_is_served_from_the_root_as_javascript_under_the_policy():
    response = Client().get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/javascript; charset=utf-8"
    assert response["Cache-Control"] == "no-cache"
    assert "connect-src 'self'" in response["Content-Security-Policy"]  # its own fetches are same-origin
    script = response.content.decode()
    precache = json.loads(re.search(r"const PRECACHE = (\[.*\]);", script).group(1))
    assert {"/manifest.webmanifest", "/static/css/covenant.css", "/static/js/offline.js"} <= set(precache)
    assert 'const OFFLINE_URL = "/offline/";' in script
    assert Client().post("/sw.js").status_code == 405


def test_the_service_worker_never_answers_a_command_or_an_htmx_request():
    script = Client().get("/sw.js").content.decode()
    fetch_handler = script.split('self.addEventListener("fetch"', 1)[1]
    first_line = fetch_handler.split("\n")[2]
    assert first_line.strip() == (
        'if (request.method !== "GET" || request.headers.has("HX-Request")) { return; }'
    )


def test_in_production_the_worker_keeps_the_hashed_names_the_offline_page_loads(production):  # noqa: F811
    script = Client().get("/sw.js", secure=True).content.decode()
    precache = json.loads(re.search(r"const PRECACHE = (\[.*\]);", script).group(1))
    hashed = f"/static/{production['css/covenant.css']}"
    assert hashed in precache and "/static/css/covenant.css" not in precache
    pattern = re.compile(HASHED.search(script).group(1).replace("\\/", "/"))
    assert pattern.search(hashed) and not pattern.search("/static/css/covenant.css")
    assert all(pattern.search(url) for url in precache if url.startswith("/static/"))
    offline = Client().get("/offline/", secure=True).content.decode()
    assert f'href="{hashed}"' in offline


@pytest.mark.django_db
def test_the_offline_page_is_the_same_for_everyone(storyguide):
    mine = client_for(storyguide).get("/offline/")
    anyone = Client().get("/offline/")
    assert mine.status_code == 200
    assert mine.content == anyone.content
    page = mine.content.decode()
    assert "sg" not in page and "csrfmiddlewaretoken" not in page and "Log out" not in page
    assert "What works offline" in page and 'data-every="5"' in page
