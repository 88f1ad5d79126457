"""Every bench still runs (issue 30, item 6): each bench/ script as a subprocess, as a host runs it, at the
smallest size its options allow, exits 0 with its figures printed and no traceback. Asserts no timing:
the figures are the benches' job, at their real sizes in `make bench`. bench/seed.py, bench/floor.py,
bench/load.py, bench/servers.py and bench/settings.py are run by bench/fanout.py (in
tests/test_fanout_benches.py, a file of its own so that the suite's workers share the benches' time);
bench/reference.py by it and alone. Also: docs/performance.md stays a page of today's figures, under 400
lines."""

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

BASE_DIR = Path(__file__).resolve().parents[1]
FIGURE = re.compile(r"\d+(\.\d+)? ?(ms|s|rounds/s|KiB|MiB)\b")


def embedded_env() -> dict:
    """The environment of a host's shell: no suite database or Redis, so each bench makes its own."""
    env = {key: value for key, value in os.environ.items() if key not in ("DATABASE_URL", "REDIS_URL")}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    return env


def suite_postgres_env() -> dict:
    """A host's shell on the suite's PostgreSQL test database: a bench run there (CI: never skipped)."""
    from django.db import connections

    from tests.browser.server import database_url
    from tests.conftest import missing

    if connections["default"].vendor != "postgresql":
        missing("needs PostgreSQL: set DATABASE_URL (make test starts one)")
    return dict(embedded_env(), DATABASE_URL=database_url(connections["default"].settings_dict))


def run_bench(script: str, *options: str, env: dict | None = None, timeout: float = 300) -> str:
    """Run bench/`script` with `options`; its output, once it has exited 0 with no traceback."""
    command = [sys.executable, str(BASE_DIR / "bench" / script), *options]
    result = subprocess.run(
        command, cwd=BASE_DIR, env=env or embedded_env(), capture_output=True, text=True, timeout=timeout
    )
    shown = f"$ {' '.join(command)}\n--- stdout ---\n{result.stdout[-4000:]}\n--- stderr ---\n"
    shown += result.stderr[-4000:]
    assert result.returncode == 0, shown
    assert "Traceback" not in result.stdout + result.stderr, shown
    return result.stdout


def test_engine_bench_runs():
    out = run_bench("engine.py", "--seconds", "0.1", "--repeat", "1")
    assert re.search(r"10 combatants .*: [\d,]+ rounds/s", out), out
    assert re.search(r"100 combatants .*: [\d,]+ rounds/s", out), out


def test_page_bench_runs():
    out = run_bench("page.py", "--combatants", "5", "--npcs", "3", "--repeat", "1")
    assert re.search(r"^\s+5\s+3\s+storyguide\s+[\d.]+\s+[\d.]+\s+\d+$", out, re.M), out
    assert re.search(r"^\s+5\s+3\s+player\s+[\d.]+", out, re.M), out


def test_handler_bench_runs():
    out = run_bench("handler.py", "--requests", "3", "--rounds", "1")
    for kind in ("the storyguide's page", "a correction", "a path not found"):
        assert re.search(rf"{kind}\s+config\.threads \(lent\)\s+[\d.]+", out), out


def test_delivery_bench_runs():
    out = run_bench("delivery.py", "--commands", "3", "--rounds", "1", "--players", "2")
    assert "to 3 sockets" in out, out
    assert len(re.findall(r": \d+\.\d{3} ms \(", out)) == 3, out


def test_archive_bench_runs(tmp_path):
    """A saga of one encounter of one round, built with the live push left out, then every figure."""
    db = str(tmp_path / "a.sqlite3")
    out = run_bench("archive.py", "--encounters", "1", "--rounds", "1", "--repeat", "1", "--db", db)
    assert "Saga: 1 encounters" in out, out
    for line in ("history, first page", "replay step", "saga charts, from the summaries", "archive.json"):
        shown = re.findall(rf"{line}.*{FIGURE.pattern}", out)
        assert len(shown) == 2, (line, out)  # the storyguide's, a player's


def test_idle_bench_runs():
    """One Daphne holding two tables of two players, silent: its memory at each stage, its CPU idle."""
    out = run_bench("idle.py", "--tables", "2", "--players", "2", "--seconds", "1")
    assert re.search(r"memory a socket: -?[\d.]+ KiB", out), out
    assert re.search(r"CPU idle: [\d.]+ % of a core with no socket, [\d.]+ % with 6 open", out), out
    assert "closes from the server while idle: 0" in out, out


@pytest.mark.redis
def test_redis_idle_bench_runs(suite_redis_url):
    out = run_bench("redis_idle.py", "--seconds", "1", env=dict(embedded_env(), REDIS_URL=suite_redis_url))
    assert "redis-py defaults" in out, out


def test_reference_probe_prints_timings_until_stopped():
    command = [sys.executable, str(BASE_DIR / "bench" / "reference.py"), "--every", "0.1"]
    probe = subprocess.Popen(command, cwd=BASE_DIR, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    timings = [probe.stdout.readline() for _ in range(2)]
    probe.send_signal(signal.SIGTERM)
    _, err = probe.communicate(timeout=30)
    assert probe.returncode == 0, err
    assert all(re.fullmatch(r"\d+\.\d\d\n", line) for line in timings), timings


def test_profile_summary_runs(tmp_path):
    """bench/profile.py on two collapsed stacks as py-spy writes them."""
    stacks = tmp_path / "daphne-0.txt"
    stacks.write_text(
        "run (threading.py:1);correct (combat/views.py:10);execute (django/db/backends/utils.py:3) 7\n"
        "run (threading.py:1);render (django/template/base.py:5) 3\n"
    )
    out = run_bench("profile.py", str(stacks))
    assert "10 samples, 10 busy" in out, out
    assert re.search(r"70\.0%\s+ORM and database driver", out), out
    assert re.search(r"70\.0%\s+correct \(combat/views\.py\)", out), out


def test_performance_page_stays_short():
    """docs/performance.md is today's figures, not a diary (issue 30, item 4): the history is in git."""
    lines = (BASE_DIR / "docs" / "performance.md").read_text().count("\n")
    assert lines < 400, f"docs/performance.md has {lines} lines"
