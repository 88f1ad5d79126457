"""Issue 37, item 0: overload fails nobody. bench/fanout.py on a real Daphne, small numbers, each command
made 60 ms dearer (a capacity set low, `--command-cost-ms`) so that overload comes in seconds: it finds
the knee from below, then asks 2x and 4x the capacity it found. At both: no 5xx but refusals, every
refusal a 503 with Retry-After, no command lost (each done with its frame at every socket, or refused),
and the table goes on past the knee (commands still done at 2x and 4x). How many are done a second, 90 %
of the capacity and more, is the bench's figure (docs/performance.md, "Overload"), not this test's: the
suite shares its two cores with the other tests, whose load moves from one window to the next (a fresh
clone's run once did 37 % at 2x on PostgreSQL while the other tests ran). On SQLite (a file of the bench's
own) and on the suite's PostgreSQL (CI=true: it must run there, never skipped). It asserts no timing.
"""

import json

import pytest

from bench.servers import free_port
from tests.test_benches import embedded_env, run_bench, suite_postgres_env

OVERLOAD = ["--tables", "20", "--players", "1", "--seconds", "4", "--drain", "5", "--rate", "0.1",
            "--command-cost-ms", "60", "--command-wait-ms", "500", "--overload", "2,4",
            "--no-floor"]  # fmt: skip


def overload_run(tmp_path, env: dict) -> list[dict]:
    """The bench's windows, each one's figures."""
    out_file = tmp_path / "overload.json"
    out = run_bench("fanout.py", *OVERLOAD, "--port", str(free_port(1, 50)), "--json", str(out_file), env=env)
    assert "capacity below the knee" in out, out
    return json.loads(out_file.read_text())["runs"]


def check(runs: list[dict]) -> None:
    """Below the knee it kept up; at 2x and 4x, done or refused with a 503 and Retry-After, nothing else."""
    keys = ("label", "rate", "asked", "done", "done_per_s", "refused", "http", "retry_after", "lost_commands",
            "lost", "closes", "connect_failures", "error_frames", "log_errors")  # fmt: skip
    shown = "\n".join(json.dumps({key: run.get(key) for key in keys}) for run in runs)
    below = [run for run in runs if run["label"] == "below the knee"]
    assert below, shown
    over = [run for run in runs if "factor" in run]
    assert [run["factor"] for run in over] == [2.0, 4.0], shown
    assert over[-1]["refused"] > 0, shown  # 4x is overload: some were refused
    for run in runs:
        assert run["http_5xx"] == run["refused"], shown  # no 5xx but a refusal: no 500
        assert set(run["http"]) <= {"200", "503"}, shown
        assert "none" not in run["retry_after"], shown  # every refusal says when to try again
        assert run["lost_commands"] == 0 and run["lost"] == 0, shown  # each done one reached every socket
        assert not run["closes"] and not run["connect_failures"] and not run["error_frames"], shown
        assert run["done"] + run["refused"] > 0, shown
    for run in over:
        assert run["done"] > 0, shown  # refusing does not stop the table
    assert not runs[0]["log_errors"], shown  # no traceback in the server's log


def test_overload_on_sqlite_fails_nobody(tmp_path):
    check(overload_run(tmp_path, embedded_env()))


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_overload_on_postgres_fails_nobody(tmp_path):
    check(overload_run(tmp_path, suite_postgres_env()))
