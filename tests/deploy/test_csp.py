"""The Content-Security-Policy: every page sends it, no template needs inline code or styles, and
htmx is configured to work within it."""

import json
import re
import subprocess
from html import unescape
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from combat.models import Encounter

BASE_DIR = Path(__file__).resolve().parents[2]
POLICY = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self'",
    "connect-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'none'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}
INLINE = {
    "an inline <script>": re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.IGNORECASE),
    "an on* handler": re.compile(r"\son[a-z]+\s*=", re.IGNORECASE),
    "an hx-on attribute": re.compile(r"\shx-on", re.IGNORECASE),
    "a style attribute": re.compile(r"\sstyle\s*=", re.IGNORECASE),
    "a <style> element": re.compile(r"<style\b", re.IGNORECASE),
    "a javascript: URL": re.compile(r"javascript:", re.IGNORECASE),
}
CSP_SAFE_HTMX = {"includeIndicatorStyles": False, "allowEval": False, "allowScriptTags": False}


def templates() -> list[Path]:
    listed = subprocess.run(["git", "ls-files", "*.html"], cwd=BASE_DIR, capture_output=True, text=True)
    return [BASE_DIR / name for name in listed.stdout.split()]


def policy(response) -> dict[str, str]:
    """The Content-Security-Policy header as {directive: sources} (django-csp does not keep their order)."""
    directives = [part.strip().split(" ", 1) for part in response["Content-Security-Policy"].split(";")]
    return {name: sources for name, sources in directives}


def first_htmx_config(html: str) -> dict:
    """The htmx-config that htmx reads: the first in the page."""
    match = re.search(r"""<meta name="htmx-config" content=(?:'([^']*)'|"([^"]*)")""", html)
    assert match, "no htmx-config meta tag"
    return json.loads(unescape(match.group(1) or match.group(2)))


def test_the_templates_are_checked_at_all():
    assert len(templates()) > 40


@pytest.mark.parametrize("what", list(INLINE))
def test_no_template_has_inline_code_or_styles(what):
    offenders = [
        f"{path.relative_to(BASE_DIR)}:{number}"
        for path in templates()
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if INLINE[what].search(line)
    ]
    assert offenders == [], f"{what} in {offenders}"


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["home", "login", "signup"])
def test_pages_send_the_policy(client, name):
    response = client.get(reverse(name))
    assert response.status_code == 200
    assert policy(response) == POLICY
    config = first_htmx_config(response.content.decode())
    assert {key: config[key] for key in CSP_SAFE_HTMX} == CSP_SAFE_HTMX
    assert {"code": "4..", "swap": True, "error": False} in config["responseHandling"]


@pytest.mark.django_db
def test_the_encounter_page_sends_the_policy_and_a_csp_safe_htmx_config(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    call_command("load_demo", stdout=StringIO())
    encounter = Encounter.objects.get(saga__name="Sir Boris and the bandits")
    client = Client()
    client.force_login(get_user_model().objects.get(username="storyguide"))
    response = client.get(reverse("encounter_page", args=[encounter.pk]))
    assert response.status_code == 200
    assert policy(response) == POLICY
    config = first_htmx_config(response.content.decode())
    assert {key: config[key] for key in CSP_SAFE_HTMX} == CSP_SAFE_HTMX
    assert "responseHandling" in config
