"""The Redis path holds (issue 9, item 3), checked on a real Daphne with the Redis channel layer:

- two signed-in sockets idle for 20 s are not closed (redis-py 8's 5 s read timeout used to close
  them with 1011 every ~5.5 s), and a command's push then reaches both;
- Redis stopped and started again mid-encounter: open sockets close with 4503, a handshake meanwhile is
  answered with an error frame and 4503 (never a 500), commands still commit and answer, and every
  client that reconnects replays what it missed: each sequence number reaches each client once.

The idle test uses the suite's Redis (REDIS_URL, started by `make test`); the restart test starts a
Redis of its own on a free port, so the suite's Redis stays up. On the coin duel.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import subprocess
import time
from http.client import HTTPConnection
from urllib.parse import urlencode

import pytest
import redis
from django.db import connections
from django.test import Client
from django.urls import reverse

from bench.servers import free_port
from campaign.models import Character
from combat.consumers import CLOSE_UNAVAILABLE, LAYER_DOWN
from combat.models import Encounter, Event
from tests.browser.server import DaphneServer, database_url
from tests.conftest import missing

from .conftest import SERVES_THE_DUEL, Table
from .live_socket import Closed, LiveSocket

pytestmark = [pytest.mark.redis, pytest.mark.django_db(transaction=True)]

IDLE_SECONDS = int(os.environ.get("COVENANT_IDLE_SECONDS", "20"))  # longer to measure a longer hold
FRAME_SECONDS = 10
CSRF = "redispathcsrftoken0123456789abcd"  # 32 letters and digits: a CSRF secret Django accepts as is
SEQ = re.compile(r'id="live-seq"[^>]*data-first-seq="(\d+)" data-last-seq="(\d+)"')
PUSH_NOT_SENT = "not sent (channel layer down"


class RedisServer:
    """A throwaway redis-server on a free loopback port, stopped and started by the test."""

    def __init__(self, workdir):
        self.workdir = workdir
        self.port = free_port()
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        """Serve on the same port as before, once it answers PING."""
        command = ["redis-server", "--bind", "127.0.0.1", "--port", str(self.port)]
        command += ["--save", "", "--appendonly", "no"]
        self.process = subprocess.Popen(command, cwd=self.workdir, stdout=subprocess.DEVNULL)
        client = redis.Redis(port=self.port, socket_connect_timeout=1)
        deadline = time.monotonic() + 10
        while True:
            with contextlib.suppress(redis.ConnectionError):
                if client.ping():
                    return
            if time.monotonic() > deadline:
                raise RuntimeError(f"redis-server on port {self.port} did not answer")
            time.sleep(0.05)

    def stop(self) -> None:
        """Stop it as a crash or a restart would; whatever it held is gone (no persistence)."""
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)


def signed_in(user) -> dict[str, str]:
    """The cookies of a browser signed in as `user` (a session row the server can read)."""
    client = Client()
    client.force_login(user)
    return {"sessionid": client.cookies["sessionid"].value, "csrftoken": CSRF}


@contextlib.contextmanager
def daphne_on(redis_url: str, log_path, monkeypatch):
    """A Daphne process on the test database whose channel layer is the Redis at `redis_url`."""
    monkeypatch.setenv("REDIS_URL", redis_url)
    with DaphneServer(
        database_url(connections["default"].settings_dict), log_path, SERVES_THE_DUEL
    ) as server:
        yield server


class Follower:
    """One page's socket, as live.js runs it: resume after the last seq seen, record every frame's range."""

    def __init__(self, server: DaphneServer, encounter_id: int, cookies: dict[str, str]):
        self.server, self.path, self.cookies = server, f"/ws/encounters/{encounter_id}/", cookies
        self.socket: LiveSocket | None = None
        self.seen = 0
        self.ranges: list[tuple[int, int]] = []

    def connect(self) -> None:
        """Open the socket and take the replay of everything after `seen`."""
        self.socket = LiveSocket.open(self.server.host, self.server.port, self.path, self.cookies)
        self.socket.send_text(json.dumps({"type": "resume", "last_seq": self.seen}))
        self.take()

    def take(self) -> str:
        """The next frame; its sequence range is recorded."""
        frame = self.socket.receive(timeout=FRAME_SECONDS)
        first, last = (int(n) for n in SEQ.search(frame).groups())
        if last >= first:
            self.ranges.append((first, last))
            self.seen = last
        return frame

    def seqs(self) -> list[int]:
        """Every sequence number this page was sent, in order, repeats included."""
        return [seq for first, last in self.ranges for seq in range(first, last + 1)]


def post_command(server: DaphneServer, cookies: dict[str, str], path: str, data: dict) -> int:
    """POST a command as htmx does; the HTTP status."""
    body = urlencode(data)
    headers = {
        "Content-Type": "application/x-www-form-urlencoded",
        "Cookie": "; ".join(f"{name}={value}" for name, value in cookies.items()),
        "X-CSRFToken": CSRF,
        "HX-Request": "true",
    }
    connection = HTTPConnection(server.host, server.port, timeout=30)
    try:
        connection.request("POST", path, body=body, headers=headers)
        return connection.getresponse().status
    finally:
        connection.close()


def version_of(encounter: Encounter) -> int:
    encounter.refresh_from_db()
    return encounter.version


def add(server, table: Table, cookies, number: int) -> int:
    """The storyguide adds the NPC Grog `number` to the duel: one event (a flip's coins are the server's
    own, and three heads end the duel)."""
    grog = Character.objects.create(saga=table.saga, name=f"Grog {number}", is_npc=True)
    data = {"expected_version": version_of(table.encounter), "characters": grog.pk, "side": "Duellists"}
    return post_command(server, cookies, reverse("add_combatants", args=[table.encounter.pk]), data)


def last_seq(table: Table) -> int:
    return Event.objects.filter(encounter=table.encounter).order_by("-seq").values_list("seq", flat=True)[0]


@pytest.fixture
def redis_server(tmp_path):
    if not shutil.which("redis-server"):
        missing("needs Debian's redis-server (make test installs it)")
    server = RedisServer(tmp_path)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def table():
    return Table()


def test_two_signed_in_sockets_idle_20_seconds_on_redis_stay_open_and_then_get_a_push(
    suite_redis_url, table, tmp_path, monkeypatch
):
    guide_cookies = signed_in(table.storyguide)
    with daphne_on(suite_redis_url, tmp_path / "daphne.log", monkeypatch) as server:
        guide = Follower(server, table.encounter.pk, guide_cookies)
        player = Follower(server, table.encounter.pk, signed_in(table.alice))
        guide.connect()
        player.connect()
        assert stay_idle([guide.socket, player.socket], IDLE_SECONDS) >= IDLE_SECONDS

        assert add(server, table, guide_cookies, 1) == 200
        for follower in (guide, player):
            follower.take()
            assert follower.ranges[-1] == (last_seq(table), last_seq(table))
        log = server.log_tail()
    assert "WSDISCONNECT" not in log
    assert "Traceback" not in log


def test_redis_stopped_and_started_mid_encounter_every_client_gets_each_event_once(
    redis_server, table, tmp_path, monkeypatch
):
    guide_cookies = signed_in(table.storyguide)
    with daphne_on(redis_server.url, tmp_path / "daphne.log", monkeypatch) as server:
        followers = [
            Follower(server, table.encounter.pk, guide_cookies),
            Follower(server, table.encounter.pk, signed_in(table.alice)),
            Follower(server, table.encounter.pk, signed_in(table.bob)),
        ]
        for follower in followers:
            follower.connect()
        assert add(server, table, guide_cookies, 1) == 200
        assert add(server, table, guide_cookies, 2) == 200
        for follower in followers:
            follower.take()
            follower.take()

        redis_server.stop()
        for follower in followers:
            assert_refused_for_now(follower.socket)
        assert_refused_for_now(LiveSocket.open(server.host, server.port, followers[0].path, guide_cookies))
        committed = last_seq(table)
        for number in (3, 4):
            assert add(server, table, guide_cookies, number) == 200
        assert last_seq(table) == committed + 2

        redis_server.start()
        for follower in followers:
            follower.connect()
        assert add(server, table, guide_cookies, 5) == 200
        for follower in followers:
            follower.take()
        log = server.log_tail()

    expected = list(range(1, last_seq(table) + 1))
    for follower in followers:
        assert follower.seqs() == expected  # 0 lost, 0 repeated, in order
    assert log.count(PUSH_NOT_SENT) == 2  # one short line per command whose push failed
    assert "Traceback" not in log
    assert not re.search(r'"GET /ws/\S+ HTTP/1.1" 500', log)


def stay_idle(sockets: list[LiveSocket], seconds: float) -> float:
    """Listen to every socket in turn (answering Daphne's pings) until `seconds` pass; nothing may
    arrive, no frame and no close. The seconds waited."""
    started = time.monotonic()
    while time.monotonic() - started < seconds:
        for live in sockets:
            with pytest.raises(TimeoutError):
                live.receive(timeout=0.25)
    return time.monotonic() - started


def assert_refused_for_now(live: LiveSocket) -> None:
    """An error frame saying live updates are paused, then close code 4503 (try again later)."""
    assert json.loads(live.receive(timeout=FRAME_SECONDS)) == {"error": LAYER_DOWN}
    with pytest.raises(Closed) as closed:
        live.receive(timeout=FRAME_SECONDS)
    assert closed.value.code == CLOSE_UNAVAILABLE
