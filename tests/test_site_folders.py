"""The whole site's templates/ and static/ at the top (README.md, "What lives where"): the base layout, the
account, error and offline pages, the service worker and the form widgets come from templates/; the
stylesheet, the theme, the icons and the live client from static/, at the URLs they had when they lived in
the apps (a page opened before the move still loads them); no app's file and no site's file share a name,
so neither hides the other (the site's templates/ overrides Django's own widgets on purpose)."""

import json
from pathlib import Path

from django.apps import apps
from django.conf import settings
from django.contrib.staticfiles import finders
from django.template.loader import get_template
from django.test import Client

SITE_TEMPLATES = [
    "base.html",
    "403.html",
    "403_csrf.html",
    "404.html",
    "500.html",
    "503_busy.html",
    "offline.html",
    "sw.js",
    "registration/login.html",
    "registration/signup.html",
    "django/forms/widgets/input.html",
    "django/forms/widgets/select.html",
]
# Each as served before the move (campaign/static/ and combat/static/ held them): /static/<name>.
SITE_STATIC = [
    "css/covenant.css",
    "favicon.svg",
    "icons/favicon.ico",
    "icons/icon-192.png",
    "icons/icon-512.png",
    "icons/maskable.svg",
    "icons/maskable-512.png",
    "icons/apple-touch-icon.png",
    "js/theme.js",
    "js/install.js",
    "js/commands.js",
    "js/offline.js",
    "js/live.js",
    "js/live_notice.js",
    "js/keep_input.js",
    "js/open_loads.js",
    "js/presence.js",
    "js/awake.js",
    "js/phone.js",
    "js/saga_live.js",
    "js/storyguide-keys.js",
]


def files_under(folder: Path) -> set[str]:
    """Every file's path below the folder, as Django names it (templates) or serves it (static)."""
    return {path.relative_to(folder).as_posix() for path in folder.rglob("*") if path.is_file()}


def test_the_sites_templates_come_from_the_top():
    site = Path(settings.BASE_DIR) / "templates"
    for name in SITE_TEMPLATES:
        assert get_template(name).origin.name == str(site / name)
    # Nothing else but the account pages (registration/, all of them).
    assert {name for name in files_under(site) if not name.startswith("registration/")} == {
        name for name in SITE_TEMPLATES if not name.startswith("registration/")
    }


def test_the_sites_static_files_keep_their_urls(settings, collected_static):
    site = Path(settings.BASE_DIR) / "static"
    assert files_under(site) == set(SITE_STATIC)
    settings.DEBUG = True  # make dev: straight from the folders
    for name in SITE_STATIC:
        assert finders.find(name) == str(site / name)
        response = Client().get(f"/static/{name}")
        assert response.status_code == 200, name
        assert int(response["Content-Length"]) == (site / name).stat().st_size, name
    # make run and production: collectstatic's hashed copy of each, under the same name.
    paths = json.loads((collected_static / "staticfiles.json").read_text())["paths"]
    for name in SITE_STATIC:
        assert (collected_static / paths[name]).read_bytes() == (site / name).read_bytes(), name


def test_no_app_file_shares_a_name_with_the_sites():
    base = Path(settings.BASE_DIR)
    site = {"templates": files_under(base / "templates"), "static": files_under(base / "static")}
    ours = [
        config
        for config in apps.get_app_configs()
        if Path(config.path).is_relative_to(base) and "site-packages" not in Path(config.path).parts
    ]
    assert len(ours) >= 5  # campaign, combat, arsmagica, d6, the coin duel (Django's forms app is overridden)
    for config in ours:
        for kind, names in site.items():
            shared = files_under(Path(config.path) / kind) & names
            assert not shared, (config.label, kind, shared)
