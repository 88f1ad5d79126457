"""Covenant on a phone's home screen: the web app manifest, the service worker, its offline page, favicon.ico.

Served from the site's root, so the worker's scope is the whole site. Static files are named through
`static()`, so with DEBUG off they are ServeStatic's hashed names (docs/looks.md, "Installing Covenant").
"""

import hashlib
import json
import re
from functools import cache

from django.contrib.staticfiles import finders
from django.http import HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.templatetags.static import PrefixNode, static
from django.urls import path, reverse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

# The top bar's colour (covenant.css's --bar) and the page's (--paper) in each theme; base.html's
# theme-color metas say the same (tests/campaign/test_web_app.py checks all three agree).
THEMES = {
    "light": {"theme_color": "#7a2e1d", "background_color": "#faf6ee"},
    "dark": {"theme_color": "#3a1a12", "background_color": "#171411"},
}


@require_safe
@cache_control(max_age=3600)
def manifest(request):
    """The web app manifest: what a phone needs to put Covenant on its home screen as an app."""
    icons = [
        {"src": static(f"icons/{name}.png"), "sizes": size, "type": "image/png", "purpose": purpose}
        for name, size, purpose in (
            ("icon-192", "192x192", "any"),
            ("icon-512", "512x512", "any"),
            ("maskable-512", "512x512", "maskable"),
        )
    ]
    icons.append({"src": static("favicon.svg"), "sizes": "any", "type": "image/svg+xml", "purpose": "any"})
    data = {
        "id": "/",
        "name": "Covenant",
        "short_name": "Covenant",
        "description": "Run tabletop RPG combat live, around the table.",
        "start_url": reverse("home"),
        "scope": "/",
        "display": "standalone",
        "lang": "en",
        # The light theme's; a phone in dark mode reads base.html's theme-color metas once a page is open.
        # The dark theme's in user_preferences, Chromium's proposal; a browser that knows it not ignores it.
        **THEMES["light"],
        "user_preferences": {"color_scheme_dark": THEMES["dark"]},
        "icons": icons,
    }
    response = JsonResponse(data, json_dumps_params={"indent": 1})
    response["Content-Type"] = "application/manifest+json"
    return response


def offline_page() -> str:
    """The offline page, the same for everyone (no session, no CSRF token), as the worker keeps it."""
    return render_to_string("offline.html")


@require_safe
def offline(request):
    """The page the worker shows in place of one the network could not bring."""
    return HttpResponse(offline_page())


@require_safe
def service_worker(request):
    """The service worker's script; its version follows the offline page, so a deploy that changes the
    page or a static file it names (a new hashed name) installs a new worker and drops the old cache."""
    page = offline_page()
    script = render_to_string(
        "sw.js",
        {
            "version": hashlib.sha256(page.encode()).hexdigest()[:12],
            "offline_url": reverse("offline"),
            "precache": json.dumps(files_loaded_by(page)),
            "static_prefix": json.dumps(PrefixNode.handle_simple("STATIC_URL")),
        },
    )
    response = HttpResponse(script, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"  # a browser asks for a new worker at each visit
    return response


def files_loaded_by(page: str) -> list[str]:
    """The site's files a page loads (stylesheets, scripts, icons, the manifest), as the page names them."""
    return sorted(set(re.findall(r'<(?:link|script)\b[^>]*?(?:src|href)="(/[^"]*)"', page)))


@cache
def _favicon() -> bytes:
    """favicon.ico's bytes, from the site's static/icons/ (scripts/icons.py renders it)."""
    with open(finders.find("icons/favicon.ico"), "rb") as icon:
        return icon.read()


@require_safe
@cache_control(max_age=86400)
def favicon(request):
    """/favicon.ico, which browsers and feed readers ask for whatever the page says."""
    return HttpResponse(_favicon(), content_type="image/x-icon")


urlpatterns = [
    path("manifest.webmanifest", manifest, name="manifest"),
    path("sw.js", service_worker, name="service_worker"),
    path("offline/", offline, name="offline"),
    path("favicon.ico", favicon, name="favicon"),
]
