"""The test suite's settings: the project's, plus the coin duel, a toy rule system that proves a third
system joins through the registry without touching the core (tests/coinduel/)."""

import os
from urllib.parse import urlsplit, urlunsplit

# `make test` runs the suite on pytest-xdist workers. Each worker has its own test database (pytest-django
# names it test_covenant_gw0, ...), so the same ids come up in each: give each worker its own Redis database
# too, before config.settings reads REDIS_URL, so that one worker's cache keys and channel groups (named by
# those ids; the groups' prefix names the database, since Redis's pub/sub ignores it) never reach another's
# pages. The worker's Daphnes inherit it from the environment.
_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
if _WORKER.startswith("gw") and os.environ.get("REDIS_URL"):
    _url = urlsplit(os.environ["REDIS_URL"])
    os.environ["REDIS_URL"] = urlunsplit(_url._replace(path=f"/{1 + int(_WORKER[2:]) % 15}"))

# The suite runs as `make dev` does, in this process and in every Daphne it starts (they inherit the
# environment): DEBUG on (the apps' own static files, no collectstatic) and a key of the suite's own, so that
# no test run writes the checkout's secret_key file. A test of `make run`'s profile starts its own Daphne with
# DEBUG=false and an empty SECRET_KEY (tests/browser/test_run_profile.py).
os.environ["DEBUG"] = "true"
os.environ["SECRET_KEY"] = "covenant-test-suite-not-secret-" + "k" * 40

from config.rule_systems import INSTALLED_SYSTEMS  # noqa: E402
from config.settings import *  # noqa: E402, F403

INSTALLED_APPS = [*INSTALLED_APPS, "tests.coinduel"]  # noqa: F405
RULE_SYSTEMS = [*INSTALLED_SYSTEMS, "tests.coinduel.system.CoinDuel"]

# Django's test client logs in without a request, which django-axes refuses;
# tests/campaign/test_login_lockout.py turns axes back on, and the browser tests' Daphne runs config.settings
# (axes included).
AXES_ENABLED = False
