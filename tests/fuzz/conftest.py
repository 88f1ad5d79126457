"""The fuzz set's one Hypothesis profile and its tally: how many inputs it sent, how many 5xx."""

import os
from collections import Counter

from hypothesis import HealthCheck, settings

IN_CI = os.environ.get("CI", "").lower() == "true"

# Fixed, so that the whole set stays under a minute on SQLite; derandomized in CI.
FUZZ = settings(
    max_examples=int(os.environ.get("FUZZ_EXAMPLES", "300")),
    deadline=None,
    derandomize=IN_CI,
    database=None if IN_CI else settings.default.database,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)

TALLY: Counter = Counter()


def summary(tally: Counter) -> str:
    return (
        "fuzz: {http} HTTP requests, {ws} websocket frames, {cli} command-line runs; "
        "{http_5xx} answered 5xx, {ws_dead} sockets died, {cli_traceback} tracebacks".format_map(
            {key: tally.get(key, 0) for key in ("http", "ws", "cli", "http_5xx", "ws_dead", "cli_traceback")}
        )
    )


def pytest_terminal_summary(terminalreporter):
    if TALLY:
        terminalreporter.write_line(summary(TALLY))


def pytest_sessionfinish(session):
    """On an xdist worker, hand the tally to the controller, which adds the workers' up (../conftest.py)."""
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:
        workeroutput["fuzz_tally"] = dict(TALLY)
