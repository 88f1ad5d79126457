"""Browser tests: Playwright (sync API) driving Debian's Chromium against a real Daphne.

Fixtures:
- `daphne` (session): a Daphne process serving config.asgi:application on the test database.
- `chromium` (module): one headless Chromium; Playwright's sync API runs an event loop in this thread,
  so DJANGO_ALLOW_ASYNC_UNSAFE is set only while it lives (the rest of the suite keeps Django's guard).
- `table` (function): makes people, one browser context each (`table.person("storyguide")`), on a
  transactional database the server can see; on failure it saves a screenshot of every tab and prints
  the server's log for the test.
- `no_traceback_in_the_server_log` (every test, autouse): after the test, no Daphne this process started
  logged a traceback while it ran, unless the test is marked `causes_server_traceback("text", …)`: then
  each text is in a traceback, and every traceback names one of them.
"""

import os
import time
from pathlib import Path

import pytest
from django.db import connection, connections
from playwright.sync_api import sync_playwright

from tests.conftest import missing, other_sessions

from .people import Table
from .server import DaphneServer, database_url
from .server_log import tracebacks, unexpected

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
LOG_QUIET = 0.1  # seconds without a new line in any server's log before it is read after a test
LOG_QUIET_LONGEST = 3.0
ARTIFACTS = Path(os.environ.get("COVENANT_BROWSER_ARTIFACTS", "/tmp/covenant-browser-failures"))


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "causes_server_traceback(*texts): the test makes a Daphne log a traceback on purpose; each text "
        "must be in one, and every traceback must name one (no_traceback_in_the_server_log)",
    )


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.when == "call":
        item.stash[CALL_REPORT] = report
    return report


CALL_REPORT = pytest.StashKey()


@pytest.fixture(scope="session")
def daphne(django_db_setup, tmp_path_factory):
    url = database_url(connections["default"].settings_dict)
    with DaphneServer(url, tmp_path_factory.mktemp("daphne") / "daphne.log") as server:
        yield server


@pytest.fixture(scope="module")
def chromium():
    executable = os.environ.get("COVENANT_CHROMIUM", "/usr/bin/chromium")
    if not os.access(executable, os.X_OK):
        missing(f"Chromium not found at {executable}: install Debian's chromium or set COVENANT_CHROMIUM")
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    playwright = sync_playwright().start()
    try:
        browser = playwright.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()
    finally:
        playwright.stop()
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


def server_settled(longest: float = 0.5) -> None:
    """The server answers each closed socket (who is here: a membership read) as the database is emptied
    after the test; on PostgreSQL that read and the flush's TRUNCATE could deadlock. Wait, up to `longest`
    seconds, until no other session on the test database is in a query or a transaction, twice in a row."""
    if connection.vendor != "postgresql":
        return
    deadline, quiet = time.monotonic() + longest, 0
    while quiet < 2 and time.monotonic() < deadline:
        busy = [s for s in other_sessions(connection.settings_dict["NAME"]) if s[4] not in (None, "idle")]
        quiet = 0 if busy else quiet + 1
        time.sleep(0.03)


@pytest.fixture
def table(request, chromium, daphne, transactional_db):
    log_start = daphne.log_size()
    people = Table(chromium, daphne.url)
    yield people
    report = request.node.stash.get(CALL_REPORT, None)
    try:
        if report is not None and report.failed:
            saved = people.screenshot_all(ARTIFACTS / request.node.name)
            print(f"\nScreenshots of every tab: {', '.join(str(path) for path in saved)}")
            print(f"\nDaphne's log during the test:\n{daphne.log_tail(since=log_start)}")
        errors = people.page_errors()
    finally:
        people.close()
        server_settled()
    if errors and report is not None and report.passed:
        pytest.fail("JavaScript errors in the pages:\n" + "\n".join(errors))


def _log_sizes() -> dict[Path, int]:
    return {server.log_path: server.log_size() for server in DaphneServer.started}


# How far each server's log was read after the last browser test: the next test's check reads on from there,
# so a line written between two tests (a socket's disconnect answered after the check) is not lost.
_READ: dict[Path, int] = {}


def _logs_quiet() -> None:
    """Wait until no server's log has grown for LOG_QUIET seconds (at most LOG_QUIET_LONGEST): the sockets
    a test closed are answered, and whatever their disconnect logs is in."""
    deadline = time.monotonic() + LOG_QUIET_LONGEST
    sizes = _log_sizes()
    while time.monotonic() < deadline:
        time.sleep(LOG_QUIET)
        now = _log_sizes()
        if now == sizes:
            return
        sizes = now


def server_log_since(sizes: dict[Path, int], read: dict[Path, int] | None = None) -> str:
    """What every server's log gained since `sizes` (a server started since: all of its log); where each
    log was read to goes into `read`."""
    parts = []
    for path in dict.fromkeys(server.log_path for server in DaphneServer.started):
        if path.exists():
            with open(path, "rb") as log:
                log.seek(sizes.get(path, 0))
                parts.append(log.read().decode("utf-8", "replace"))
                if read is not None:
                    read[path] = log.tell()
    return "\n".join(parts)


@pytest.fixture(autouse=True)
def no_traceback_in_the_server_log(request):
    """Fail a browser test whose servers logged a traceback while it ran (issue 35, item 3: a traceback in
    the server's log is a bug), unless the test causes it on purpose and says which (the marker)."""
    sizes = {path: _READ.get(path, size) for path, size in _log_sizes().items()}
    yield
    if not DaphneServer.started:
        return
    _logs_quiet()
    marker = request.node.get_closest_marker("causes_server_traceback")
    expected = tuple(marker.args) if marker else ()
    stray, missing = unexpected(tracebacks(server_log_since(sizes, _READ)), expected)
    report = request.node.stash.get(CALL_REPORT, None)
    if report is not None and report.failed:
        if stray:
            print("\nTracebacks in the server's log during the test:\n" + "\n\n".join(stray))
        return
    if stray:
        shown = "\n\n".join(stray)
        pytest.fail(f"{len(stray)} traceback(s) in the server's log during the test:\n\n{shown}")
    if missing:
        pytest.fail(f"The test says it causes a traceback naming {missing!r}, and no server logged one")
