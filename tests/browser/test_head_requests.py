"""Issue 35, item 2, on the wire: Daphne answers HEAD as GET, with no body (config/head.py), and the offline
page's retry, a HEAD of the page it stands in for, brings a player's encounter page back with no 405 in the
server's log and no console error. tests/test_head.py holds the same for every URL pattern."""

import re
import socket

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import expect

from .encounter_page import load_demo_table
from .people import PHONE, outside_the_event_loop, wait_until_true
from .test_installable import WORKER_ACTIVE

pytestmark = pytest.mark.browser


def raw(daphne, method: str, path: str, session: str) -> tuple[str, dict[str, str], bytes]:
    """One HTTP/1.1 request on a socket of its own: the status line, the headers and every byte after them
    until the server closes the connection."""
    with socket.create_connection((daphne.host, daphne.port), timeout=30) as conn:
        conn.sendall(
            f"{method} {path} HTTP/1.1\r\nHost: {daphne.host}\r\nConnection: close\r\n"
            f"Cookie: {settings.SESSION_COOKIE_NAME}={session}\r\n\r\n".encode()
        )
        answer = b""
        while chunk := conn.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    status, *lines = head.decode("latin-1").split("\r\n")
    return status, {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines)}, body


def session_of(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def test_daphne_answers_head_with_the_status_and_length_of_get_and_no_body(daphne, transactional_db):
    saga, encounter, combatants = load_demo_table()
    player = outside_the_event_loop(lambda: combatants["Sir Boris"].character.owner)
    session = outside_the_event_loop(session_of, player)
    for path in (
        f"/encounters/{encounter.pk}/arsmagica/play/",
        f"/sagas/{saga.pk}/history/",
        f"/sagas/{saga.pk}/",
    ):
        got_status, got_headers, got_body = raw(daphne, "GET", path, session)
        status, headers, body = raw(daphne, "HEAD", path, session)
        assert got_status.endswith("200 OK") and status == got_status, path
        assert body == b"" and got_body, path
        assert headers["content-length"] == got_headers["content-length"] == str(len(got_body)), path
        assert headers["content-type"] == got_headers["content-type"], path


def test_the_offline_pages_retry_brings_the_encounter_page_back_with_no_405(table, daphne):
    _, encounter, combatants = load_demo_table()
    player = table.person("player", viewport=PHONE, service_workers="allow")  # this is about the worker
    player.enter_as(outside_the_event_loop(lambda: combatants["Sir Boris"].character.owner))
    page = player.goto(f"/encounters/{encounter.pk}/arsmagica/play/")
    wait_until_true(page, WORKER_ACTIVE)
    start = daphne.log_size()
    player.context.set_offline(True)
    page.reload()
    expect(page.get_by_role("heading", name="You are offline")).to_be_visible()
    player.context.set_offline(False)
    expect(page.get_by_role("heading", name="You are offline")).to_have_count(0, timeout=15_000)
    assert page.url.endswith(f"/encounters/{encounter.pk}/arsmagica/play/")
    log = daphne.log_tail(since=start, lines=10_000)
    assert re.search(rf'"HEAD /encounters/{encounter.pk}/arsmagica/play/" 200 ', log), log
    assert '" 405 ' not in log, log
