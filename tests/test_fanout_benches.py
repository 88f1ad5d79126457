"""bench/fanout.py still runs (issue 30, item 6), embedded with its floor and on PostgreSQL and Redis with two
Daphnes: apart from tests/test_benches.py, since the suite hands whole files to its workers and these two
take most of the benches' time."""

import re

import pytest

from tests.ports import free_port
from tests.test_benches import run_bench, suite_postgres_env


def test_fanout_bench_runs_embedded_with_its_floor():
    out = run_bench("fanout.py", "--tables", "1", "--players", "2", "--seconds", "2", "--drain", "5",
                    "--rounds", "1", "--port", str(free_port(1, 50)), "--check")  # fmt: skip
    assert "commands asked -> done: 2 -> 2" in out and "rounds=1 (played first)" in out, out
    assert re.search(r"CPU a command: Daphnes [\d.]+ ms", out), out  # issue 37, item 7
    assert re.search(r"latency post -> frame at every socket \(ms\): p50 [\d.]+", out), out
    assert re.search(r"floor \(bare websockets.*p50 [\d.]+", out), out
    assert re.search(r"reference workload .* took median [\d.]+ ms", out), out


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_fanout_bench_runs_on_postgres_and_redis_with_two_daphnes(suite_redis_url):
    """The scale path on the suite's PostgreSQL test database and its Redis."""
    env = suite_postgres_env()
    out = run_bench("fanout.py", "--redis", suite_redis_url, "--daphnes", "2", "--tables", "2",
                    "--players", "2", "--seconds", "2", "--drain", "5", "--idle", "1", "--no-floor",
                    "--port", str(free_port(1, 50)), "--check", env=env)  # fmt: skip
    assert "daphnes=2 tables=2" in out, out
    assert re.search(r"commands asked -> done: 4 -> 4", out), out
    assert re.search(r"2 Daphnes [\d.]+/s", out), out
