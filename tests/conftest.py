"""Suite-wide rules: with CI=true nothing may be skipped (Redis, PostgreSQL, Chromium tests must run)."""

import os

import pytest

IN_CI = os.environ.get("CI", "").lower() == "true"


def pytest_collection_modifyitems(config, items):
    if IN_CI and not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        raise pytest.UsageError(
            "CI=true but DATABASE_URL is not PostgreSQL: run the suite with `make test`"
        )


def pytest_sessionfinish(session, exitstatus):
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = reporter.stats.get("skipped", []) if reporter else []
    if IN_CI and skipped:
        reporter.write_line(
            f"CI=true: {len(skipped)} test(s) skipped; in CI every test must run.", red=True
        )
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
