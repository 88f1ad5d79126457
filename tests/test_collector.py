"""The server's garbage collector (config.collector), checked in a process of its own: settling it freezes
the start-up's objects and changes the thresholds for the rest of the process."""

import os
import subprocess
import sys
from pathlib import Path

from config.collector import FULL_COLLECTION_EVERY

ROOT = Path(__file__).resolve().parents[1]

REPORT = """
import gc
defaults = gc.get_threshold()
{settle}
print(*defaults, gc.get_freeze_count(), *gc.get_threshold())
"""


def settled(settle: str) -> tuple[tuple[int, ...], int, tuple[int, ...]]:
    """CPython's thresholds, then the objects frozen and the thresholds once `settle` has run."""
    result = subprocess.run(
        [sys.executable, "-c", REPORT.format(settle=settle)],
        cwd=ROOT,
        env={**os.environ, "SECRET_KEY": "collector-test"},
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    numbers = [int(number) for number in result.stdout.split()]
    return tuple(numbers[:3]), numbers[3], tuple(numbers[4:])


def test_settling_freezes_what_start_up_made_and_makes_full_collections_rarer():
    defaults, frozen, thresholds = settled("import config.collector; config.collector.settle()")
    assert frozen > 1000
    assert thresholds == (defaults[0], defaults[1], FULL_COLLECTION_EVERY)
    assert FULL_COLLECTION_EVERY > defaults[2]


def test_the_server_settles_it_once_it_has_loaded():
    defaults, frozen, thresholds = settled("import config.asgi")
    assert frozen > 10_000  # Django, Channels and the apps
    assert thresholds == (defaults[0], defaults[1], FULL_COLLECTION_EVERY)
