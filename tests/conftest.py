"""Suite-wide rules: with CI=true nothing may be skipped (Redis, PostgreSQL, Chromium tests must run); what
the xdist workers of `make test` need from the process that starts them."""

import os
from collections import Counter
from typing import NoReturn

import pytest

pytest_plugins = ["tests.personas"]  # the storyguide, the players and the stranger, for every package

IN_CI = os.environ.get("CI", "").lower() == "true"


def pytest_configure(config):
    """With CI=true the suite runs on PostgreSQL only (checked before any worker starts)."""
    if IN_CI and not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        raise pytest.UsageError("CI=true but DATABASE_URL is not PostgreSQL: run the suite with `make test`")


# What the fuzz tests sent, added up from the xdist workers (tests/fuzz/conftest.py tallies each process).
WORKERS_FUZZ_TALLY: Counter = Counter()


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    WORKERS_FUZZ_TALLY.update(getattr(node, "workeroutput", {}).get("fuzz_tally", {}))


def pytest_terminal_summary(terminalreporter):
    if WORKERS_FUZZ_TALLY:
        from tests.fuzz.conftest import summary

        terminalreporter.write_line(summary(WORKERS_FUZZ_TALLY))


def pytest_sessionfinish(session, exitstatus):
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = reporter.stats.get("skipped", []) if reporter else []
    if IN_CI and skipped:
        reporter.write_line(f"CI=true: {len(skipped)} test(s) skipped; in CI every test must run.", red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.fixture(autouse=True)
def fast_passwords(request):
    """Passwords made in the test process are hashed with MD5 first: PBKDF2 spends a quarter of a second on
    each here, and the demos' and the played sagas' logins are some 170 of them outside the browser tests.
    Not for a browser test: its Daphne checks passwords with the project's hashers (those that need the
    demos fast set MD5 themselves)."""
    if request.node.get_closest_marker("browser") is None:
        settings = request.getfixturevalue("settings")
        settings.PASSWORD_HASHERS = [MD5, *settings.PASSWORD_HASHERS]


MD5 = "django.contrib.auth.hashers.MD5PasswordHasher"


@pytest.fixture(autouse=True)
def encounters_forgotten():
    """What `combat.kept` kept of the last test's encounters is forgotten: each test's database starts
    again and gives out the same ids again, which a real database never does."""
    from combat import kept

    kept.forget_all()


def missing(what: str) -> NoReturn:
    """A test whose server or browser is not here: it fails with CI=true (where `make test` provides them
    all); elsewhere, as when one file is run by hand without them, it is skipped with the reason."""
    if IN_CI:
        pytest.fail(f"CI=true: {what}", pytrace=False)
    pytest.skip(what)


@pytest.fixture
def suite_redis_url():
    """The suite's Redis (`make test` starts one, each xdist worker on its own database)."""
    url = os.environ.get("REDIS_URL", "")
    if not url:
        missing("needs Redis: set REDIS_URL (make test starts one)")
    return url


@pytest.fixture(scope="session")
def collected_static(tmp_path_factory):
    """A STATIC_ROOT that `collectstatic` filled once for the session, as `make run` and a deploy do: what a
    Daphne with DEBUG off serves (config.static refuses to start without it)."""
    from tests.deploy.profile import manage

    root = tmp_path_factory.mktemp("static")
    env = {name: os.environ[name] for name in ("PATH", "HOME") if name in os.environ}
    env.update(DEBUG="false", SECRET_KEY="collectstatic-" + "x" * 50, STATIC_ROOT=str(root))
    collected = manage("collectstatic", "--noinput", "--verbosity", "0", env=env)
    assert collected.returncode == 0, collected.stderr
    return root


@pytest.fixture(scope="session", autouse=True)
def database_let_go_at_the_end(django_db_setup, django_db_blocker):
    """Before pytest-django drops a PostgreSQL test database: this process lets go of its connections (the
    pool's too) and waits up to 5 s for every other session on the database to end. One that has not is
    named in a warning (its backend, application, last query), because Django's own refusal to drop the
    database says only "1 other session" (docs/performance.md, "The test suite")."""
    yield
    import time
    import warnings

    from django.db import connection

    if connection.vendor != "postgresql":
        return
    name = connection.settings_dict["NAME"]
    with django_db_blocker.unblock():
        connection.close()
        connection.close_pool()
        deadline = time.monotonic() + 5
        while (others := other_sessions(name)) and time.monotonic() < deadline:
            time.sleep(0.1)
    if others:
        warnings.warn(f"{name} still has other sessions after the suite: {others}", stacklevel=1)


def other_sessions(database: str) -> list[tuple]:
    """Every session on `database` but the asker's: pid, kind of backend, application, client port, state
    and the start of its last query (PostgreSQL's pg_stat_activity, read from its `postgres` database)."""
    from django.db import connections

    with connections["default"]._nodb_cursor() as cursor:
        cursor.execute(
            "SELECT pid, backend_type, application_name, client_port, state, left(query, 120)"
            " FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
            [database],
        )
        return cursor.fetchall()
