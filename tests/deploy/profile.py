"""The documented production profile (docs/production.env) as an environment for a subprocess."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parents[2]
PROFILE = BASE_DIR / "docs" / "production.env"


def profile_env(**changes: str | None) -> dict[str, str]:
    """The profile's variables with a fresh SECRET_KEY, on top of PATH and HOME only; None removes one."""
    env = {name: os.environ[name] for name in ("PATH", "HOME") if name in os.environ}
    for line in PROFILE.read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            name, _, value = line.partition("=")
            env[name.strip()] = value.strip()
    env["SECRET_KEY"] = secrets.token_urlsafe(50)
    for name, value in changes.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return env


def manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    """`manage.py ARGS` in the checkout with exactly `env`; output captured as text."""
    command = [sys.executable, "manage.py", *args]
    return subprocess.run(command, cwd=BASE_DIR, env=env, capture_output=True, text=True, timeout=300)
