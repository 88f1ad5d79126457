"""A page served over plain HTTP to another machine is not a secure context (no service worker, install or
wake lock): the storyguide's encounter page says so in one line and links to how to serve HTTPS."""

import pytest
from django.test import Client, RequestFactory

from campaign.secure_context import secure_context
from tests.arsmagica.conftest import Table
from tests.d6.conftest import D6Table

LAN = "192.168.1.20:8000"
NOTICE = 'data-testid="plain-http"'


@pytest.fixture(autouse=True)
def lan_host(settings):
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "192.168.1.20", "covenant.example"]


@pytest.mark.parametrize(
    ("host", "secure", "expected"),
    [
        (LAN, False, False),
        ("covenant.example", False, False),
        (LAN, True, True),
        ("localhost:8000", False, True),
        ("127.0.0.1:8000", False, True),
        ("[::1]:8000", False, True),
    ],
)
def test_a_secure_context_is_https_or_the_machine_itself(host, secure, expected):
    request = RequestFactory().get("/", HTTP_HOST=host, secure=secure)
    assert secure_context(request) is expected


@pytest.mark.parametrize(
    ("proxy_header", "expected"), [(("HTTP_X_FORWARDED_PROTO", "https"), True), (None, False)]
)
def test_behind_a_tls_proxy_the_forwarded_scheme_counts_only_where_the_settings_trust_it(
    settings, proxy_header, expected
):
    settings.SECURE_PROXY_SSL_HEADER = proxy_header
    request = RequestFactory().get("/", HTTP_HOST="covenant.example", HTTP_X_FORWARDED_PROTO="https")
    assert secure_context(request) is expected


def page(user, path: str, host: str, secure: bool = False) -> str:
    """The page at `path` as `user`'s browser gets it from `host`."""
    client = Client()
    client.force_login(user)
    response = client.get(path, HTTP_HOST=host, secure=secure)
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.django_db
def test_the_storyguides_control_panel_says_plain_http_on_the_lan_and_links_to_the_fix():
    table = Table()
    path = f"/encounters/{table.encounter.pk}/"
    shown = page(table.storyguide, path, LAN)
    assert shown.count(NOTICE) == 1 and 'href="/https/"' in shown
    assert NOTICE not in page(table.storyguide, path, "localhost:8000")
    assert NOTICE not in page(table.storyguide, path, "127.0.0.1:8000")
    assert NOTICE not in page(table.storyguide, path, LAN, secure=True)
    assert NOTICE not in page(table.alice, f"/encounters/{table.encounter.pk}/arsmagica/play/", LAN)


@pytest.mark.django_db
def test_the_d6_table_says_it_to_the_storyguide_only():
    table = D6Table()
    path = f"/encounters/{table.encounter.pk}/d6/"
    assert NOTICE in page(table.storyguide, path, LAN)
    assert NOTICE not in page(table.storyguide, path, LAN, secure=True)
    assert NOTICE not in page(table.alice, path, LAN)


@pytest.mark.django_db
def test_the_https_page_gives_the_commands_and_what_a_phone_shows_first():
    table = Table()
    plain = page(table.storyguide, "/https/", LAN)
    assert 'data-testid="https-plain"' in plain
    assert "make cert HOST_IP=192.168.1.20" in plain and "Your connection is not private" in plain
    assert 'data-testid="https-secure"' in page(table.storyguide, "/https/", LAN, secure=True)


@pytest.mark.parametrize(
    ("host", "secure", "sent"), [(LAN, False, False), (LAN, True, True), ("127.0.0.1:8000", False, True)]
)
def test_the_opener_policy_is_sent_only_where_a_browser_heeds_it(host, secure, sent):
    """On plain HTTP at a LAN address Chromium ignores Cross-Origin-Opener-Policy with a console error."""
    response = Client().get("/", HTTP_HOST=host, secure=secure)
    assert ("Cross-Origin-Opener-Policy" in response.headers) is sent
