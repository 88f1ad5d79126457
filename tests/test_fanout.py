"""Issue 11, item 4: a short fan-out run on a real Daphne loses no frame, answers no 5xx and closes no
socket. Three tables of four players and their storyguides (15 sockets), one correction per table per
second for 5 s, through bench/fanout.py's own load. On the suite's database and, when REDIS_URL is set
(CI), its Redis layer. It asserts no timing: the figures are bench/fanout.py's job.
"""

import asyncio
import os
import re
import time

import pytest
from django.db import connections

from bench import fanout, load, reference, servers
from bench.seed import PASSWORD, make_tables
from bench.servers import free_port
from tests.browser.server import database_url

pytestmark = pytest.mark.django_db(transaction=True)
TABLES, PLAYERS, SECONDS = 3, 4, 5.0


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


@pytest.mark.redis
def test_two_daphnes_on_redis_lose_nothing(settings, tmp_path, suite_redis_url):
    """The scale path: two Daphne processes on the suite's Redis, every page's connection and socket and
    every post going to the next one in turn (as a round-robin proxy would), so a table's commands and its
    sockets sit on different processes and each frame crosses Redis. Nothing lost, no 5xx, no close; and
    both Daphnes served sockets."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    env = servers.server_env(database_url(connections["default"].settings_dict), suite_redis_url)
    pair = [servers.Daphne(free_port(), env, tmp_path / f"daphne-{n}.log") for n in (1, 2)]
    for server in pair:
        server.start()
    try:
        layout = make_tables(TABLES, PLAYERS, "pair")
        stats = load.Stats()
        cpu = lambda: {f"daphne-{n}": servers.cpu_seconds(d.process.pid) for n, d in enumerate(pair)}  # noqa: E731
        window = load.Window(SECONDS, 1.0, 10.0, cpu)
        run = load.run_app(layout, PASSWORD, [server.url for server in pair], window, stats)
        tables = asyncio.run(asyncio.wait_for(run, 120))
        figures = fanout.figures(tables, stats, window)
    finally:
        for server in pair:
            server.stop()
    logs = "\n".join(server.log.read_text(errors="replace")[-3000:] for server in pair)
    assert fanout.broken(figures) == [], f"{figures}\n--- daphne logs ---\n{logs}"
    assert figures["expected"] == figures["done"] * (PLAYERS + 1)
    for server in pair:  # each Daphne ran commands and served sockets
        log = server.log.read_text(errors="replace")
        assert "WSCONNECT /ws/encounters/" in log
        assert re.search(r'"POST /encounters/\d+/', log), log[-2000:]


def test_the_machine_is_timed_by_a_fixed_workload_during_the_window():
    """bench/reference.py: the same workload every time (its result), timed in a process of its own while
    the window lasts, and summed up beside the figures."""
    assert reference.workload() == reference.workload()
    sampler = reference.Sampler(every=0.1)
    sampler.start()
    time.sleep(1.0)
    sampler.stop()
    assert sampler.samples and all(0 < sample < 10_000 for sample in sampler.samples)
    (line,) = fanout.machine_lines({"reference_ms": [9.0, 14.0, 9.5]})
    assert "(bench/reference.py) took median 9.5 ms (9.0 to 14.0, 3 samples) of CPU" in line
    assert fanout.machine_lines({"reference_ms": []}) == []


def test_the_ceiling_is_one_core_a_daphne_and_every_core_shared_with_the_rest(monkeypatch):
    """At 10 ms of Daphne CPU a command and 2.5 ms of everything else, one Daphne is held to its one core
    (100 a second) and two to what 2 cores carry of 12.5 ms a command (160 a second)."""
    monkeypatch.setattr(fanout.os, "cpu_count", lambda: 2)
    per = {"daphne": 10.0, "postgres": 1.5, "redis": 0.2, "bench client": 0.8}
    (line,) = fanout.ceiling_lines({"done": 100, "cpu_ms_per_command": per})
    assert "Daphnes 10.0 ms, the rest 2.5 ms (postgres 1.5, redis 0.2, bench client 0.8)" in line
    assert "2 cores carry at most: 1 Daphne 100/s, 2 Daphnes 160/s (1.60x)" in line
    assert fanout.ceiling_lines({"done": 100, "cpu_ms_per_command": {"floor": 1.0}}) == []


def test_two_daphnes_with_a_core_each_go_at_the_busier_ones_pace_against_one_beside_them():
    """Issue 37, item 5: one Daphne at 10 ms a command; two at 5.5 and 5.0 ms each of every command done.
    With a core each the two carry 1000 / 5.5 = 182 a second, 1.82x one's 100; together they cost 5 % more."""

    def run(daphnes, each, done=40.0, reference_ms=22.0):
        per = {"daphne": sum(each), "postgres": 2.0, "redis": 0.5, "bench client": 1.0}
        return {
            "daphnes": daphnes,
            "daphne_ms_per_command": [{"cpu": ms, "loop": ms / 4} for ms in each],
            "cpu_ms_per_command": per,
            "asked_per_s": 40.0,
            "done_per_s": done,
            "done": int(done * 20),
            "lost_commands": 0,
            "lost": 0,
            "reference_ms": [reference_ms - 2, reference_ms, reference_ms + 2],
        }

    one, two = run(1, [10.0]), run(2, [5.5, 5.0])
    (line,) = fanout.own_core_lines(two)
    assert "#0 5.50 ms (its event loop 1.38), #1 5.00 ms (its event loop 1.25); together 10.50 ms" in line
    assert "(and postgres 2.00 ms, redis 0.50 ms a command on cores of their own)" in line
    assert line.endswith("they would carry at most 182/s")
    assert fanout.own_core_lines(one)[0].endswith("it would carry at most 100/s")
    # the last pair in slower minutes: the reference probe 10 % slower, the two 10 % dearer than in the first
    lines = fanout.scaleout_lines([one, two, run(1, [10.0]), run(2, [5.0, 6.0], reference_ms=24.2)])
    assert "run 1, 1 Daphne(s): 40.0 asked -> 40.0 done a second, lost 0 commands and 0 frames" in lines[1]
    assert "Redis 0.50 ms, PostgreSQL 2.00 ms; with a core each 100/s; reference median 22.0 ms" in lines[1]
    assert "CPU a command: 5.50 (its event loop 1.38) + 5.00 (its event loop 1.25) = 10.50 ms" in lines[2]
    assert "with a core each 1.82x, the two together +5% CPU a command, measured here 1.00x" in lines[2]
    assert "(+5% against the reference probe)" in lines[2]
    assert "with a core each 1.67x, the two together +10% CPU a command" in lines[4]  # the busier at 6 ms
    assert "(+0% against the reference probe)" in lines[4]
    assert lines[-1] == (
        "two Daphnes with a core each against one: 1.67x to 1.82x; the two together against one:"
        " +5% to +10% CPU a command, +0% to +5% against the reference probe"
    )
    assert "against" not in lines[1] + lines[3]  # a run of one is the baseline


def test_the_tables_take_the_daphnes_in_turn():
    layout = [{"storyguide": f"sg{t}", "players": [f"p{t}{n}" for n in range(3)]} for t in range(3)]
    seats = load.seating(layout, ["a", "b"])
    assert [table[0][2] for table in seats] == ["a", "b", "a"]  # the storyguides, who post
    assert [base for table in seats for _, _, base in table[1:]] == ["a", "b"] * 4 + ["a"]
    seated = load.seating(layout, ["a", "b"], together=True)  # --seating table: no frame crosses to two
    assert [[base for _, _, base in table] for table in seated] == [["a"] * 4, ["b"] * 4, ["a"] * 4]


def test_the_embedded_default_needs_no_option():
    args = fanout.parse_args([])
    assert (args.database, args.redis, args.daphnes) == ("sqlite", None, 1)
    assert args.mode == "embedded (SQLite, in-memory layer)"


def test_database_postgres_keeps_the_in_memory_layer():
    args = fanout.parse_args(["--database", "postgres", "--pool-max", "10"])
    assert (args.database, args.redis, args.daphnes, args.pool_max) == ("postgres", None, 1, 10)
    assert args.mode == "PostgreSQL + in-memory layer"


def test_redis_means_postgresql_and_takes_several_daphnes():
    args = fanout.parse_args(["--redis", "redis://127.0.0.1:6379/3", "--daphnes", "2", "--idle", "20"])
    assert (args.database, args.redis, args.daphnes, args.idle) == (
        "postgres",
        "redis://127.0.0.1:6379/3",
        2,
        20,
    )
    assert args.mode == "PostgreSQL + Redis"
    assert fanout.parse_args(["--redis", "start"]).redis == "start"


@pytest.mark.parametrize(
    "argv",
    [
        ["--daphnes", "2"],
        ["--database", "postgres", "--daphnes", "2"],
        ["--database", "sqlite", "--redis", "start"],
        ["--redis", "localhost:6379"],
        ["--daphnes", "0"],
        ["--pool-max", "10"],
        ["--idle", "-1"],
        ["--scaleout", "2"],  # one Daphne and two need the Redis layer
        ["--redis", "start", "--scaleout", "2", "--overload", "2"],
        ["--redis", "start", "--scaleout", "-1"],
        ["--redis", "start", "--seating", "table", "--overload", "2"],
    ],
)
def test_a_setup_the_bench_cannot_run_is_refused(argv, capsys):
    with pytest.raises(SystemExit) as refused:
        fanout.parse_args(argv)
    assert refused.value.code == 2
    assert "error:" in capsys.readouterr().err


LOG = """\
Traceback (most recent call last):
psycopg.OperationalError: connection failed: FATAL:  sorry, too many clients already

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
django.db.utils.OperationalError: connection failed: FATAL:  sorry, too many clients already
Traceback (most recent call last):
redis.exceptions.MaxConnectionsError: Too many connections
127.0.0.1:5000 - - [24/Nov/2026:04:00:00] "POST /encounters/1/correct/" 500 145
"""


def test_the_log_counts_each_exception_once_by_the_end_of_its_chain():
    errors = fanout.log_exceptions(LOG)
    assert fanout.counted(errors, fanout.TOO_MANY_CLIENTS) == 1
    assert fanout.counted(errors, fanout.MAX_CONNECTIONS) == 1
    assert sum(errors.values()) == 2
