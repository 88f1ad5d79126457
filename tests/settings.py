"""The test suite's settings: the project's, plus the coin duel, a toy rule system that proves a third
system joins through the registry without touching the core (tests/coinduel/)."""

from combat.systems import INSTALLED_SYSTEMS
from config.settings import *  # noqa: F403

INSTALLED_APPS = [*INSTALLED_APPS, "tests.coinduel"]  # noqa: F405
RULE_SYSTEMS = [*INSTALLED_SYSTEMS, "tests.coinduel.system.CoinDuel"]

# Django's test client logs in without a request, which django-axes refuses;
# tests/campaign/test_login_lockout.py turns axes back on, and the browser tests' Daphne runs config.settings
# (axes included).
AXES_ENABLED = False
