"""This machine's speed during a bench: a fixed pure-Python workload, timed in CPU milliseconds once a
second in a process of its own while the bench measures, and printed beside its figures, so that runs made
in different minutes can be compared. On a shared virtual machine the same code can take half as much CPU
again in some minutes as in others (docs/performance.md, "Fan-out"). It shares the cores with what is
measured: while the bench fills every core (two Daphnes, PostgreSQL, Redis and the client on two), it
reads slower too, and no longer gauges the machine alone: in 2026-11-25's runs it read 27.5 to 28.3 ms
beside two Daphnes against 14 to 24 ms beside one, in the same half hour.

Run alone: `.venv/bin/python bench/reference.py --every 1` prints one timing a line until stopped.
"""

from __future__ import annotations

import argparse
import signal
import statistics
import subprocess
import sys
import time

ROWS = 20_000


def workload() -> int:
    """Dicts and strings built, sorted and summed: the kind of work a request does, in one thread."""
    rows = [{"id": n, "name": f"name {n}", "value": n * 7 % 13} for n in range(ROWS)]
    rows.sort(key=lambda row: (row["value"], row["name"]))
    return sum(len(row["name"]) for row in rows)


def reference_ms(repeat: int = 3) -> float:
    """The best of `repeat` timings of `workload`, in milliseconds of this process's CPU time."""
    best = float("inf")
    for _ in range(repeat):
        started = time.process_time()
        workload()
        best = min(best, time.process_time() - started)
    return best * 1000


class Sampler:
    """`reference_ms` every `every` seconds in a process of its own, between `start` and `stop` (a bench
    window's hooks); `samples` holds the timings."""

    def __init__(self, every: float = 1.0) -> None:
        self.every = every
        self.process: subprocess.Popen | None = None
        self.samples: list[float] = []

    def start(self) -> None:
        command = [sys.executable, __file__, "--every", str(self.every)]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.terminate()
        out, _ = self.process.communicate(timeout=30)
        self.samples = [float(line) for line in out.split()]
        self.process = None


def summary(samples: list[float]) -> str:
    """"median 9.1 ms (8.7 to 14.9, 21 samples)"."""
    return (
        f"median {statistics.median(samples):.1f} ms ({min(samples):.1f} to {max(samples):.1f},"
        f" {len(samples)} samples)"
    )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--every", type=float, default=1.0, help="seconds between two timings")
    args = parser.parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    while True:
        print(f"{reference_ms():.2f}", flush=True)
        time.sleep(args.every)


if __name__ == "__main__":
    sys.exit(main())
