"""The fan-out bench's server settings: the project's, with a fast password hasher, and when asked a
command made dearer.

Logging in changes: a thousand bench users log in over HTTP before the measured window, and the
default PBKDF2 hasher would spend about half a second of server CPU on each. With BENCH_COMMAND_COST_MS
(`bench/fanout.py --command-cost-ms`), each command spends that much more CPU in its thread before its
view: a capacity set low, so that a small run (tests/test_overload.py) reaches overload in seconds.
Everything else measured (pages, commands, sockets, pushes) runs exactly as `config.settings` has it.
"""

import os

from config.settings import *  # noqa: F403
from config.settings import MIDDLEWARE

PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.MD5PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
]

COMMAND_COST_MS = float(os.environ.get("BENCH_COMMAND_COST_MS", "0") or 0)
if COMMAND_COST_MS:
    MIDDLEWARE = [*MIDDLEWARE, "bench.cost.CommandCostMiddleware"]
