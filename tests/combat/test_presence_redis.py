"""Who is here across two Daphnes on Redis, one of them killed (issue 32, item 3): the storyguide's socket
on one process sees a player whose socket is on the other, and sees them gone once that process is
killed (SIGKILL: no disconnect runs), within the expiry and one heartbeat of their last beat.

Uses the suite's Redis (REDIS_URL, started by `make test`), with a 3-second expiry and 1-second beats.
"""

from __future__ import annotations

import contextlib
import json
import re
import time

import pytest
import redis
from django.db import connections

from tests.browser.server import DaphneServer, database_url

from .conftest import SERVES_THE_DUEL, Table
from .live_socket import LiveSocket
from .test_redis_path import signed_in

pytestmark = [pytest.mark.redis, pytest.mark.django_db(transaction=True)]

EXPIRY, HEARTBEAT = 3, 1
PERSON = re.compile(r'data-state="(\w+)"\s+data-testid="presence-(\w+)"')


def beat(socket: LiveSocket) -> None:
    socket.send_text(json.dumps({"type": "heartbeat", "visible": True}))


def until_shown(socket: LiveSocket, name: str, state: str, seconds: float) -> float:
    """Beat every HEARTBEAT seconds, as a page does, until a region shows `name` in `state`; when it came."""
    deadline = time.monotonic() + seconds
    next_beat = 0.0
    while time.monotonic() < deadline:
        if time.monotonic() >= next_beat:
            beat(socket)
            next_beat = time.monotonic() + HEARTBEAT
        with contextlib.suppress(TimeoutError):
            frame = socket.receive(timeout=0.2)
            if 'id="presence"' in frame and (state, name) in PERSON.findall(frame):
                return time.monotonic()
    raise AssertionError(f"{name} was not shown {state} within {seconds} s")


@pytest.fixture
def table(suite_redis_url):
    client = redis.Redis.from_url(suite_redis_url)
    for key in client.scan_iter("*covenant:presence:*"):  # a last run's, under the same ids
        client.delete(key)
    return Table()


def test_a_player_on_a_killed_daphne_is_gone_for_the_storyguide_on_the_other(
    suite_redis_url, table, tmp_path, monkeypatch
):
    monkeypatch.setenv("REDIS_URL", suite_redis_url)
    environment = {
        **SERVES_THE_DUEL,
        "PRESENCE_EXPIRY_SECONDS": str(EXPIRY),
        "PRESENCE_HEARTBEAT_SECONDS": str(HEARTBEAT),
    }
    db_url = database_url(connections["default"].settings_dict)
    path = f"/ws/encounters/{table.encounter.pk}/"
    with (
        DaphneServer(db_url, tmp_path / "first.log", environment) as first,
        DaphneServer(db_url, tmp_path / "second.log", environment) as second,
    ):
        guide = LiveSocket.open(first.host, first.port, path, signed_in(table.storyguide))
        player = LiveSocket.open(second.host, second.port, path, signed_in(table.alice))
        beat(player)
        until_shown(guide, "alice", "here", seconds=10)
        beat(player)
        last_beat = time.monotonic()

        second.process.kill()  # no disconnect, no leave: only the expiry can tell
        second.process.wait()
        gone_at = until_shown(guide, "alice", "gone", seconds=EXPIRY + HEARTBEAT + 10)
        assert gone_at - last_beat <= EXPIRY + HEARTBEAT + 1

        again = LiveSocket.open(first.host, first.port, path, signed_in(table.alice))
        beat(again)
        until_shown(guide, "alice", "here", seconds=10)
        log = first.log_tail()
    assert "Traceback" not in log
