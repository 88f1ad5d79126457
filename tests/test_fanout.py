"""Issue 11, item 4: a short fan-out run on a real Daphne loses no frame, answers no 5xx and closes no
socket. Three tables of four players and their storyguides (15 sockets), one correction per table per
second for 5 s, through bench/fanout.py's own load. On the suite's database and, when REDIS_URL is set
(CI), its Redis layer. It asserts no timing: the figures are bench/fanout.py's job.
"""

import asyncio
import os
import socket

import pytest
from django.db import connections

from bench import fanout, load, servers
from bench.seed import PASSWORD, make_tables
from tests.browser.server import database_url

pytestmark = pytest.mark.django_db(transaction=True)
TABLES, PLAYERS, SECONDS = 3, 4, 5.0


def free_port() -> int:
    """A loopback port nobody listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def daphne(tmp_path):
    """A Daphne on the test database, with the suite's Redis layer when REDIS_URL is set."""
    env = servers.server_env(database_url(connections["default"].settings_dict), os.environ.get("REDIS_URL"))
    server = servers.Daphne(free_port(), env, tmp_path / "daphne.log")
    server.start()
    yield server
    server.stop()


def test_fanout_loses_nothing(settings, daphne):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    layout = make_tables(TABLES, PLAYERS, "check")
    stats = load.Stats()
    window = load.Window(SECONDS, 1.0, 10.0, lambda: {"daphne": servers.cpu_seconds(daphne.process.pid)})
    run = load.run_app(layout, PASSWORD, [daphne.url], window, stats)
    tables = asyncio.run(asyncio.wait_for(run, 120))
    figures = fanout.figures(tables, stats, window)
    log = daphne.log.read_text(errors="replace")
    assert fanout.broken(figures) == [], f"{figures}\n--- daphne log ---\n{log[-4000:]}"
    assert figures["expected"] == figures["done"] * (PLAYERS + 1)
