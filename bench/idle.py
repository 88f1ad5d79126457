"""Idle sockets: what one Daphne spends holding T tables x P players who are all there and all silent.

Run: `.venv/bin/python bench/idle.py --tables 125 --players 8 --seconds 60` (1,000 players and 125
storyguides; --help; docs/performance.md, "Idle sockets").

Everyone logs in over HTTP and opens their page as in bench/fanout.py (bench/load.py), then every page's
socket connects and resumes, and nobody sends anything. It prints the Daphne's resident memory at each
stage (started; everyone's page read; every socket open; after the idle window) and its CPU over two idle
windows of the same length in the same run: before any socket was open (the baseline) and with every
socket open. What the sockets cost is the difference: memory a socket, and CPU as a share of one core.
Closes from the server while everyone sits silent are idle drops, and there must be none. A bench prints
figures; it never fails on them.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import fanout, load, reference  # noqa: E402
from bench.fanout import Stack, raise_file_limit  # noqa: E402
from bench.seed import PASSWORD  # noqa: E402

PAGE = 4096


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--database", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--tables", type=int, default=125)
    parser.add_argument("--players", type=int, default=8, help="players per table (plus its storyguide)")
    parser.add_argument("--seconds", type=float, default=60.0, help="each idle window's length")
    parser.add_argument("--port", type=int, help="Daphne's port (a free one when not given)")
    parser.add_argument("--pg-port", type=int, help="the throwaway PostgreSQL's port (else a free one)")
    args = parser.parse_args(argv)
    if args.tables < 1 or args.players < 1 or args.seconds <= 0:
        parser.error("--tables, --players and --seconds must be positive")
    # What bench/fanout.py's Stack reads besides: its own defaults (one Daphne, the in-memory layer).
    stack = fanout.parse_args(["--database", args.database, "--tables", str(args.tables)])
    given = {name: value for name, value in vars(args).items() if value is not None}
    return argparse.Namespace(**{**vars(stack), **given})


def resident_bytes(pid: int) -> int:
    """A process's resident memory now (/proc/PID/statm)."""
    return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE


async def idle_window(seconds: float, cpu) -> float:
    """The Daphne's CPU seconds over `seconds` of silence."""
    before = cpu()["daphne"]
    await asyncio.sleep(seconds)
    return cpu()["daphne"] - before


async def hold(layout: list[dict], stack: Stack, seconds: float) -> dict:
    """The stages and both idle windows, measured; every socket closed at the end."""
    pid = stack.daphnes[0].process.pid
    stats = load.Stats()
    figures = {"started": resident_bytes(pid)}
    figures["cpu_alone"] = await idle_window(seconds, stack.cpu)
    tables = await load.app_tables(layout, PASSWORD, [stack.daphnes[0].url], stats)
    try:
        figures["pages_read"] = resident_bytes(pid)
        await load.connect_all(tables, timeout=120)
        await asyncio.sleep(2)  # the replays' frames handled and freed
        figures["sockets"] = sum(len(table.listeners) for table in tables)
        figures["open"] = resident_bytes(pid)
        before = sum(stats.closes.values())
        figures["cpu_held"] = await idle_window(seconds, stack.cpu)
        figures["idle_closes"] = sum(stats.closes.values()) - before
        figures["after"] = resident_bytes(pid)
    finally:
        await load.close_all(tables)
    return figures


def report(args, figures: dict, samples: list[float]) -> str:
    mib = 1024 * 1024
    sockets = figures["sockets"]
    each = (figures["open"] - figures["pages_read"]) / sockets / 1024
    alone, held = (100 * figures[key] / args.seconds for key in ("cpu_alone", "cpu_held"))
    lines = [
        f"one Daphne, {args.database}, in-memory layer: {args.tables} tables x {args.players} players"
        f" = {sockets} sockets, idle {args.seconds:g} s",
        f"  memory: started {figures['started'] / mib:.1f} MiB, every page read"
        f" {figures['pages_read'] / mib:.1f} MiB, every socket open {figures['open'] / mib:.1f} MiB,"
        " after the idle window"
        f" {figures['after'] / mib:.1f} MiB",
        f"  memory a socket: {each:.1f} KiB (every socket open, less every page read, over {sockets})",
        f"  CPU idle: {alone:.2f} % of a core with no socket, {held:.2f} % with {sockets} open"
        f" ({figures['cpu_alone']:.2f} s and {figures['cpu_held']:.2f} s over {args.seconds:g} s)",
        f"  closes from the server while idle: {figures['idle_closes']}",
    ]
    if samples:
        lines.append(f"  reference: {reference.summary(samples)}")
    return "\n".join(lines)


def main(argv=None) -> int:
    args = parse_args(argv)
    raise_file_limit()
    workdir = Path(tempfile.mkdtemp(prefix="covenant-idle-"))
    stack = Stack(args, workdir)
    started = time.monotonic()
    speed = reference.Sampler()
    try:
        stack.start_data()
        layout = stack.seed(f"idle{int(time.time() * 1000) % 10**9}")
        stack.start_daphnes()
        speed.start()
        figures = asyncio.run(hold(layout, stack, args.seconds))
    finally:
        speed.stop()
        stack.stop()
        shutil.rmtree(workdir, ignore_errors=True)
    print(report(args, figures, speed.samples))
    print(f"(whole run {time.monotonic() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
