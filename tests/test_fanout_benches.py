"""bench/fanout.py still runs (issue 30, item 6), embedded with its floor and on PostgreSQL and Redis with two
Daphnes: apart from tests/test_benches.py, since the suite hands whole files to its workers and these two
take most of the benches' time."""

import re

import pytest

from bench.servers import free_port
from tests.test_benches import run_bench, suite_postgres_env


def test_fanout_bench_runs_embedded_with_its_floor():
    out = run_bench("fanout.py", "--tables", "1", "--players", "2", "--seconds", "2", "--drain", "5",
                    "--rounds", "1", "--check")  # fmt: skip
    assert "commands asked -> done: 2 -> 2" in out and "rounds=1 (played first)" in out, out
    assert re.search(r"CPU a command: Daphnes [\d.]+ ms", out), out  # issue 37, item 7
    assert re.search(r"latency post -> frame at every socket \(ms\): p50 [\d.]+", out), out
    assert re.search(r"floor \(bare websockets.*p50 [\d.]+", out), out
    assert re.search(r"reference workload .* took median [\d.]+ ms", out), out


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_fanout_bench_runs_one_daphne_and_two_in_turn_on_postgres_and_redis(suite_redis_url):
    """The scale path on the suite's PostgreSQL test database and its Redis (issue 37, item 5): one Daphne,
    then two, each Daphne's CPU a command printed, and two with a core each set against one; --check: the
    two-process run loses no command, frame or socket, idle or not."""
    env = suite_postgres_env()
    out = run_bench("fanout.py", "--redis", suite_redis_url, "--scaleout", "1", "--tables", "2",
                    "--players", "2", "--seconds", "2", "--drain", "5", "--idle", "1",
                    "--port", str(free_port(1, 50)), "--check", env=env)  # fmt: skip
    assert "daphnes=1 tables=2" in out and "daphnes=2 tables=2" in out, out
    assert len(re.findall(r"commands asked -> done: 4 -> 4", out)) == 2, out
    assert re.search(r"2 Daphnes [\d.]+/s", out), out
    one = r"#\d [\d.]+ ms \(its event loop [\d.]+\)"  # a Daphne's CPU a command done, its event loop's
    assert re.search(rf"each Daphne's CPU a command done: {one}; together", out), out
    assert re.search(rf"each Daphne's CPU a command done: {one}, {one}; together", out), out
    assert "run 2, 2 Daphne(s): 2.0 asked -> 2.0 done a second, lost 0 commands and 0 frames" in out, out
    assert re.search(r"two Daphnes with a core each against one: [\d.]+x to [\d.]+x", out), out
    assert "idle 1 s after the drain: closes none" in out, out
