"""Fan-out: T tables x P players on real Daphne, each storyguide posting corrections, and a bare
`websockets` broadcast server measured the same way in the same run as the floor.

Run: `.venv/bin/python bench/fanout.py --tables 10 --players 8 --seconds 20` (--help; docs/performance.md).

The load (bench/load.py): every storyguide and player logs in over HTTP and opens their page (real
session cookies); each page's socket resumes as live.js does; each storyguide posts a correction (as
htmx posts it, `expected_version` and the CSRF header) `--rate` times a second, a new one only once
their own socket has shown the last (the version a real page would post next). It prints post-to-frame
latency over every socket, lost frames (a posted seq a socket never received), server closes by code,
HTTP answers by status, commands asked and done per second, the servers' CPU time from /proc, the
errors in the server log, and the ratios to the floor.

Modes: the embedded default (SQLite, in-memory layer, 1 Daphne: `make run`'s); `--database postgres`
(PostgreSQL, in-memory layer, 1 Daphne: DATABASE_URL when it is PostgreSQL, else a throwaway server);
`--redis URL --daphnes N` (PostgreSQL and Redis, N Daphnes, sockets and posts spread over them in turn;
`--redis start` starts a throwaway Redis). It counts "too many clients" and MaxConnectionsError in the
Daphne logs, and with `--idle S` the closes (1011: an idle drop) while every socket sits silent.
`--profile DIR` records each Daphne with py-spy (if installed) during the measured window: only the thread
holding the interpreter lock, so a thread waiting in C (SQLite's busy handler, a socket) is not work;
with `--profile-loop`, every running thread with its id, the process paused for each sample (the event
loop's thread is MainThread; py-spy's nonblocking read loses most samples taken in Python).
`--rounds N` has each table play N whole rounds through the services before the bench (bench/seed.py,
about 50 events a round at 8 players), so a command's cost at round N + 1 compares with `--rounds 0`'s
(round 1) in the same minutes.
A bench prints figures; it never fails on them. `--check` exits 1 on any lost frame, 5xx or close.

Past the knee (config.admission): each run also prints the commands refused at once (503) a second and
their Retry-After, the 5xx other than those refusals, and the lost commands (no HTTP answer, or done but
no frame on the storyguide's socket within 10 s); a refused table posts again at its next tick, as a
person would try again. `--overload 2,4` finds the knee first, on the same sessions and sockets: windows
from `--rate` up, each 1.3 times the last, until one does not do 95 % of what it asked; the capacity is the
most done a second in a window that kept up; then a window at each multiple of it (asked as a rate per
table), each printed with its reference probe. `--command-cost-ms MS` makes each command spend MS more of
the server's CPU (bench/settings.py, bench/cost.py): a capacity set low, so that tests/test_overload.py
reaches overload with twenty tables. `--command-slots` and `--command-wait-ms` set the servers'
COMMAND_SLOTS and COMMAND_WAIT_MS.

Comparing two trees: this shared machine runs the same code up to four times slower from one minute to the
next, so run the tree before a change (a worktree, `git worktree add /tmp/wt-before REV`, with the same
venv) and the tree after it in turn, the same command, two or three times each, and compare only runs
whose reference medians (the last line, bench/reference.py) are about the same. Past the knee a run's
"done a second" moves with its backlog; the CPU a command and the highest rate each setup keeps up with
(step `--rate`) are the steadier figures. The "2 cores carry at most" line is the ceiling that the run's
own CPU figures allow: with D the Daphnes' CPU a command and R the rest's (PostgreSQL, Redis, the bench
client), one Daphne carries at most 1000 / D a second and two at most 2000 / (D + R), whatever the minute.
Each Daphne's own CPU is printed too, over every command done (its own posts, and the frames of every
command to its sockets), with its event loop's part: with a core each, several Daphnes go at the pace of
the busiest. `--scaleout TURNS` (issue 37, item 5) runs one Daphne, then two, TURNS times in turn on the
same PostgreSQL and Redis, each run on tables of its own, and sets each run of two against the runs of one
beside it: what two would carry with a core each against one, and what the two cost together against one
(the frames crossing Redis to a second process), also against the reference probe.
`make test` runs it at one table of two players for 2 s, embedded with its floor, and on the suite's
PostgreSQL and Redis with one Daphne and two in turn (tests/test_fanout_benches.py).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import load, reference, servers  # noqa: E402
from bench.seed import PASSWORD  # noqa: E402

EXCEPTION_LINE = re.compile(r"^([\w.]+(?:Error|Exception|Timeout)): ?(.*)$")
CHAINED = ("The above exception was the direct cause", "During handling of the above exception")
# What the runs failed with: PostgreSQL refusing a connection, redis-py's pool running dry.
TOO_MANY_CLIENTS = "too many clients"
MAX_CONNECTIONS = "MaxConnectionsError"
# A part of the Daphnes' CPU, shown beside it and not added to the total.
EVENT_LOOP = "daphne event loop"
# Each Daphne's own CPU ("daphne #0") and its event loop's ("daphne #0 loop"): parts too, never added.
ONE_DAPHNE = "daphne #"
DATA_SERVERS = ("postgres", "redis")  # what needs cores of its own beside Daphnes with a core each


def is_part(name: str) -> bool:
    """A figure inside another (a Daphne's event loop, one Daphne of several), not added to the total."""
    return name == EVENT_LOOP or name.startswith(ONE_DAPHNE)


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--database",
        choices=("sqlite", "postgres"),
        default=None,
        help="sqlite (the embedded default) or postgres (DATABASE_URL if it is PostgreSQL, else a throwaway"
        " server); postgres when --redis is given",
    )
    parser.add_argument(
        "--redis",
        metavar="URL",
        default=None,
        help="the Redis channel layer at URL (redis://...), or `start` for a throwaway server;"
        " without it each Daphne has the in-memory layer",
    )
    parser.add_argument("--daphnes", type=int, default=1, help="Daphne processes (several need --redis)")
    parser.add_argument("--pool-max", type=int, default=None, help="DATABASE_POOL_MAX for each Daphne")
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--players", type=int, default=8, help="players per table (plus its storyguide)")
    parser.add_argument("--seconds", type=float, default=20.0, help="commands are posted for this long")
    parser.add_argument("--rate", type=float, default=1.0, help="commands per table per second")
    parser.add_argument("--drain", type=float, default=10.0, help="at most this long for late frames")
    parser.add_argument(
        "--idle",
        type=float,
        default=0.0,
        help="then keep every socket open and silent this long (idle drops)",
    )
    # Free ones when not given (`servers.free_port`), so that two benches run at once never meet.
    parser.add_argument("--port", type=int, help="the first Daphne's port (the next +1, the floor's +50)")
    parser.add_argument("--pg-port", type=int, help="the throwaway PostgreSQL's port")
    parser.add_argument("--redis-port", type=int, help="the throwaway Redis's port (--redis start)")
    parser.add_argument(
        "--rounds",
        type=int,
        default=0,
        help="rounds each table plays before the bench (about 50 events a round at 8 players): a command's"
        " cost as a fight grows, against --rounds 0 in the same minutes",
    )
    parser.add_argument("--no-floor", action="store_true", help="skip the bare-websockets floor")
    parser.add_argument("--profile", type=Path, help="py-spy each Daphne into this folder (collapsed stacks)")
    parser.add_argument(
        "--profile-loop",
        action="store_true",
        help="with --profile: every running thread with its id, 250 a second, the process paused for each "
        "sample (the event loop's thread is MainThread); that run's CPU figures are not comparable",
    )
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument("--check", action="store_true", help="exit 1 on any lost frame, 5xx or close")
    parser.add_argument(
        "--overload",
        metavar="FACTORS",
        default=None,
        help="find the knee first (windows from --rate up, each 1.3x the last, until one does not keep up),"
        " then a window at each of these multiples of the capacity found below it (2,4), all on the same"
        " sessions",
    )
    parser.add_argument(
        "--command-cost-ms",
        type=float,
        default=0.0,
        help="each command spends this much more CPU in the server (bench/settings.py): a capacity set low",
    )
    parser.add_argument(
        "--scaleout",
        type=int,
        default=0,
        metavar="TURNS",
        help="one Daphne, then two, TURNS times in turn (1 2 1 2 ...) on the same PostgreSQL and Redis, each"
        " run on tables of its own; then each Daphne's CPU a command and what two would carry with a core"
        " each, against one (needs --redis)",
    )
    parser.add_argument(
        "--seating",
        choices=("spread", "table"),
        default="spread",
        help="with several Daphnes, each table's players take the Daphnes in turn (spread: a table's frames"
        " cross Redis to every process), or sit at their storyguide's Daphne (table: none crosses to two)",
    )
    parser.add_argument("--command-slots", type=int, default=None, help="COMMAND_SLOTS for each Daphne")
    parser.add_argument("--command-wait-ms", type=int, default=None, help="COMMAND_WAIT_MS for each Daphne")
    args = parser.parse_args(argv)
    args.port = args.port or servers.free_port(*range(1, max(args.daphnes, 2)), 50)
    args.pg_port = args.pg_port or servers.free_port()
    args.redis_port = args.redis_port or servers.free_port()
    try:
        args.factors = [float(f) for f in args.overload.split(",")] if args.overload else []
    except ValueError:
        parser.error(f"--overload takes multiples such as 2,4, not {args.overload!r}")
    if any(f <= 0 for f in args.factors) or args.command_cost_ms < 0:
        parser.error("--overload's multiples must be positive, --command-cost-ms not negative")
    if (
        args.redis is not None
        and args.redis != "start"
        and not args.redis.startswith(("redis://", "rediss://"))
    ):
        parser.error(f"--redis takes a redis:// URL or `start`, not {args.redis!r}")
    if args.database is None:
        args.database = "postgres" if args.redis else "sqlite"
    if args.redis and args.database != "postgres":
        parser.error("the Redis path runs on PostgreSQL: --database postgres (or leave --database out)")
    if args.daphnes < 1:
        parser.error("--daphnes must be at least 1")
    if args.profile_loop and not args.profile:
        parser.error("--profile-loop goes with --profile DIR")
    if args.scaleout < 0 or (args.scaleout and (not args.redis or args.factors or args.profile)):
        parser.error("--scaleout takes a number of turns, with --redis, and neither --overload nor --profile")
    if args.scaleout:
        args.no_floor = True
    if args.seating == "table" and args.factors:
        parser.error("--seating table is for a run or --scaleout, not --overload")
    if args.daphnes > 1 and not args.redis:
        parser.error("several Daphne processes need a shared channel layer: --redis URL (or --redis start)")
    if args.pool_max is not None and args.database != "postgres":
        parser.error("--pool-max sizes PostgreSQL's connection pool: --database postgres")
    if args.tables < 1 or args.players < 1 or args.rate <= 0 or args.seconds <= 0 or args.idle < 0:
        parser.error("--tables, --players, --rate and --seconds must be positive, --idle not negative")
    if args.rounds < 0:
        parser.error("--rounds cannot be negative")
    args.mode = describe(args)
    return args


def describe(args: argparse.Namespace) -> str:
    """The setup in the words of docs/performance.md's tables."""
    if args.database == "sqlite":
        return "embedded (SQLite, in-memory layer)"
    layer = "Redis" if args.redis else "in-memory layer"
    return f"PostgreSQL + {layer}"


def raise_file_limit() -> None:
    """Up to the hard limit of open files: a thousand sockets each side (Daphnes inherit it)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


class Stack:
    """The run's servers: database, channel layer, Daphnes; started in order, stopped in reverse."""

    def __init__(self, args: argparse.Namespace, workdir: Path):
        self.args = args
        self.workdir = workdir
        self.postgres: servers.Postgres | None = None
        self.redis: servers.Redis | None = None
        self.daphnes: list[servers.Daphne] = []
        self.started = 0  # Daphnes started so far, each with a log of its own
        self.database_url = ""
        self.redis_url = ""

    def start_data(self) -> None:
        """The database (migrated) and the layer, own or given."""
        if self.args.database == "sqlite":
            self.database_url = f"sqlite:///{self.workdir / 'bench.sqlite3'}"
        elif os.environ.get("DATABASE_URL", "").startswith("postgres"):
            self.database_url = os.environ["DATABASE_URL"]
        else:
            self.postgres = servers.Postgres(self.workdir, self.args.pg_port)
            self.postgres.start()
            self.database_url = self.postgres.url
        if self.args.redis == "start":
            self.redis = servers.Redis(self.workdir, self.args.redis_port)
            self.redis.start()
            self.redis_url = self.redis.url
        elif self.args.redis:
            self.redis_url = self.args.redis
        servers.manage(self.env(), "migrate", "--noinput")

    def env(self) -> dict:
        env = servers.server_env(self.database_url, self.redis_url or None)
        if self.args.pool_max is not None:
            env["DATABASE_POOL_MAX"] = str(self.args.pool_max)
        return overload_env(env, self.args)

    def seed(self, prefix: str) -> list[dict]:
        """The tables, made by bench/seed.py in its own process."""
        command = [
            sys.executable,
            str(servers.BASE_DIR / "bench" / "seed.py"),
            "--tables",
            str(self.args.tables),
            "--players",
            str(self.args.players),
            "--prefix",
            prefix,
            "--rounds",
            str(self.args.rounds),
        ]
        result = subprocess.run(command, cwd=servers.BASE_DIR, env=self.env(), capture_output=True, text=True)
        if result.returncode:
            raise RuntimeError(f"seeding failed:\n{result.stderr}")
        return json.loads(result.stdout)

    def start_daphnes(self) -> None:
        for index in range(self.args.daphnes):
            log = self.workdir / f"daphne-{self.started}.log"
            daphne = servers.Daphne(self.args.port + index, self.env(), log)
            self.started += 1
            self.daphnes.append(daphne)
            daphne.start()

    def stop_daphnes(self) -> None:
        """Stop the Daphnes, keeping the database and the layer for the next run."""
        for daphne in reversed(self.daphnes):
            daphne.stop()
        self.daphnes.clear()

    def cpu(self) -> dict[str, float]:
        """CPU seconds so far of each kind of server."""
        groups = {"daphne": [pid for d in self.daphnes for pid in d.pids()]}
        if self.postgres:
            groups["postgres"] = self.postgres.pids()
        if self.redis:
            groups["redis"] = self.redis.pids()
        seconds = {name: sum(servers.cpu_seconds(pid) for pid in pids) for name, pids in groups.items()}
        seconds[EVENT_LOOP] = sum(servers.main_thread_cpu_seconds(pid) for pid in groups["daphne"])
        for index, daphne in enumerate(self.daphnes):
            name = f"{ONE_DAPHNE}{index}"
            seconds[name] = sum(map(servers.cpu_seconds, daphne.pids()))
            seconds[f"{name} loop"] = sum(map(servers.main_thread_cpu_seconds, daphne.pids()))
        return seconds

    def log_errors(self) -> Counter:
        """Exceptions in the Daphne logs, by class and message (the last of each chain)."""
        found = Counter()
        for daphne in self.daphnes:
            found.update(log_exceptions(daphne.log.read_text(errors="replace")))
        return found

    def stop(self) -> None:
        self.stop_daphnes()
        if self.redis:
            self.redis.stop()
        if self.postgres:
            self.postgres.stop()


def overload_env(env: dict, args) -> dict:
    """The servers' admission settings (config.admission) and the bench's command cost, when given."""
    if getattr(args, "command_cost_ms", 0):
        env["BENCH_COMMAND_COST_MS"] = str(args.command_cost_ms)
    if getattr(args, "command_slots", None) is not None:
        env["COMMAND_SLOTS"] = str(args.command_slots)
    if getattr(args, "command_wait_ms", None) is not None:
        env["COMMAND_WAIT_MS"] = str(args.command_wait_ms)
    return env


class Profiler:
    """py-spy recording each Daphne during the measured window (collapsed stacks, one file each; `--gil`:
    the thread holding the interpreter lock, where a process's Python work is)."""

    def __init__(self, folder: Path, daphnes: list[servers.Daphne], loop: bool = False):
        self.folder = folder
        self.loop = loop
        self.daphnes = daphnes
        self.processes: list[subprocess.Popen] = []
        self.executable = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")

    def start(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        for index, daphne in enumerate(self.daphnes):
            out = self.folder / f"daphne-{index}.txt"
            self.processes.append(
                subprocess.Popen(
                    [
                        self.executable,
                        "record",
                        "--pid",
                        str(daphne.process.pid),
                        "--format",
                        "raw",
                        "--rate",
                        "250" if self.loop else "100",
                        "--output",
                        str(out),
                        # --profile-loop: paused at each sample (a nonblocking read loses most of those taken
                        # in Python, so over-counts system calls); that run's CPU figures do not compare.
                        *(["--threads"] if self.loop else ["--nonblocking", "--gil"]),
                    ],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            )

    def stop(self) -> None:
        for process in self.processes:
            process.send_signal(signal.SIGINT)
        for process in self.processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()


def log_exceptions(text: str) -> Counter:
    """Each exception a log reports, once: the last line of a chained traceback stands for the chain."""
    found = Counter()
    lines = [line.strip() for line in text.splitlines()]
    for index, line in enumerate(lines):
        match = EXCEPTION_LINE.match(line)
        if not match:
            continue
        following = next((later for later in lines[index + 1 :] if later), "")
        if not following.startswith(CHAINED):
            found[f"{match[1]}: {match[2][:100]}"] += 1
    return found


def counted(errors: Counter, phrase: str) -> int:
    """How many of the exceptions mention `phrase` (in their class or message)."""
    return sum(n for error, n in errors.items() if phrase in error)


def percentile(values: list[float], fraction: float) -> float:
    """The value below which `fraction` of the sorted values lie (nearest rank)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))]


def deliveries(tables: list[load.Table]) -> tuple[list[float], int, int]:
    """(latencies in ms of every posted seq at every socket, deliveries expected, lost)."""
    latencies, expected, lost = [], 0, 0
    for table in tables:
        for listener in table.listeners:
            for seq in table.done:
                expected += 1
                arrived = listener.received.get(seq)
                if arrived is None:
                    lost += 1
                else:
                    latencies.append((arrived - table.sent[seq]) * 1000)
    return latencies, expected, lost


def figures(tables, stats: load.Stats, window: load.Window) -> dict:
    """Everything one run measured, as plain numbers."""
    latencies, expected, lost = deliveries(tables)
    cpu = {name: window.cpu_end[name] - window.cpu_start[name] for name in window.cpu_start}
    total = sum(seconds for name, seconds in cpu.items() if not is_part(name))
    frames = sum(stats.frame_count.values())
    done = max(1, stats.done)
    return {
        "rate": window.rate,
        "refused": stats.refused,
        "refused_per_s": stats.refused / window.seconds,
        "retry_after": dict(stats.retry_after),
        "late": stats.late,
        "lost_commands": stats.late + sum(stats.http_errors.values()),
        "sockets": sum(len(t.listeners) for t in tables),
        "asked": window.asked,
        "done": stats.done,
        "asked_per_s": window.asked / window.seconds,
        "done_per_s": stats.done / window.seconds,
        "p50_ms": percentile(latencies, 0.50),
        "p90_ms": percentile(latencies, 0.90),
        "p99_ms": percentile(latencies, 0.99),
        "max_ms": max(latencies, default=float("nan")),
        "mean_ms": statistics.fmean(latencies) if latencies else float("nan"),
        "answer_p50_ms": percentile(stats.answer_ms, 0.50),
        "answer_p99_ms": percentile(stats.answer_ms, 0.99),
        "expected": expected,
        "lost": lost,
        "gaps_resumed": stats.gaps,
        "error_frames": stats.error_frames,
        "closes": {str(code): n for code, n in stats.closes.items()},
        "connect_failures": dict(stats.connect_failures),
        "http": {str(status): n for status, n in sorted(stats.statuses.items())},
        "http_5xx": sum(n for status, n in stats.statuses.items() if status >= 500),
        "http_errors": dict(stats.http_errors),
        "frame_bytes": {a: stats.frame_bytes[a] // max(1, stats.frame_count[a]) for a in stats.frame_count},
        "mean_frame_bytes": sum(stats.frame_bytes.values()) // max(1, frames),
        "window_s": window.elapsed,
        "cpu_s": cpu,
        "client_cpu_s": window.client_cpu,
        "server_cpu_ms_per_command": 1000 * total / max(1, stats.done),
        "server_cpu_us_per_delivery": 1e6 * total / max(1, expected - lost),
        "cpu_ms_per_command": {
            **{name: 1000 * seconds / done for name, seconds in cpu.items() if not is_part(name)},
            "bench client": 1000 * window.client_cpu / done,
        },
        "daphne_ms_per_command": [
            {"cpu": 1000 * cpu[name] / done, "loop": 1000 * cpu[f"{name} loop"] / done}
            for name in cpu
            if name.startswith(ONE_DAPHNE) and not name.endswith(" loop")
        ],
    }


def run_app(args, stack: Stack, prefix: str, profiler: Profiler | None) -> dict:
    """Seed, serve, load, measure the app."""
    layout = stack.seed(prefix)
    stack.start_daphnes()
    stats = load.Stats()
    window = load.Window(args.seconds, args.rate, args.drain, stack.cpu, idle=args.idle)
    speed = reference.Sampler()
    window.hooks.append((speed.start, speed.stop))
    if profiler:
        profiler.daphnes = stack.daphnes
        window.hooks.append((profiler.start, profiler.stop))
    bases = [daphne.url for daphne in stack.daphnes]
    tables = asyncio.run(load.run_app(layout, PASSWORD, bases, window, stats, args.seating == "table"))
    result = figures(tables, stats, window)
    errors = stack.log_errors()
    result["log_errors"] = dict(errors.most_common(8))
    result["too_many_clients"] = counted(errors, TOO_MANY_CLIENTS)
    result["max_connections_errors"] = counted(errors, MAX_CONNECTIONS)
    result["idle_s"] = args.idle
    result["idle_closes"] = {str(code): n for code, n in stats.idle_closes.items()}
    result["reference_ms"] = speed.samples
    return result


def run_scaleout(args, stack: Stack, prefix: str) -> list[dict]:
    """One Daphne, then two, `--scaleout` times in turn, each on tables of its own, on the same servers."""
    runs = []
    for _ in range(args.scaleout):
        for daphnes in (1, 2):
            stack.args = argparse.Namespace(**{**vars(args), "daphnes": daphnes})
            try:
                result = run_app(stack.args, stack, f"{prefix}r{len(runs)}", None)
            finally:
                stack.stop_daphnes()
            result["daphnes"] = daphnes
            runs.append(result)
    stack.args = args
    return runs


def scaleout_report(args, runs: list[dict]) -> str:
    """Each run's figures, then `scaleout_lines`."""
    blocks = []
    for number, result in enumerate(runs, 1):
        shown = argparse.Namespace(**{**vars(args), "daphnes": result["daphnes"]})
        blocks.append(f"[run {number}: {result['daphnes']} Daphne(s)]\n" + report(shown, result, None))
    return "\n".join(blocks + scaleout_lines(runs))


def scaleout_lines(runs: list[dict]) -> list[str]:
    """One line a run; each run of two Daphnes against the runs of one next to it (before and after): with a
    core each, the busier of the two sets the pace, and their CPU together against one's is the crossing's."""
    blocks = ["scale-out, one Daphne and two in turn (each Daphne's CPU over the commands done by all):"]
    ratios, extra, steady = [], [], []
    for number, result in enumerate(runs):
        each = result["daphne_ms_per_command"]
        together = sum(d["cpu"] for d in each)
        per = result["cpu_ms_per_command"]
        line = (
            f"  run {number + 1}, {result['daphnes']} Daphne(s): {result['asked_per_s']:.1f} asked ->"
            f" {result['done_per_s']:.1f} done a second, lost {result['lost_commands']} commands and"
            f" {result['lost']} frames; CPU a command: "
            + " + ".join(f"{d['cpu']:.2f} (its event loop {d['loop']:.2f})" for d in each)
            + (f" = {together:.2f} ms" if len(each) > 1 else " ms")
            + f", Redis {per.get('redis', 0):.2f} ms, PostgreSQL {per.get('postgres', 0):.2f} ms;"
            f" with a core each {own_cores(result):.0f}/s; reference median"
            f" {statistics.median(result['reference_ms']) if result['reference_ms'] else float('nan'):.1f} ms"
        )
        ones = [runs[n] for n in (number - 1, number + 1) if 0 <= n < len(runs) and runs[n]["daphnes"] == 1]
        if result["daphnes"] == 2 and ones:
            one_ms = statistics.fmean(r["daphne_ms_per_command"][0]["cpu"] for r in ones)
            one_done = statistics.fmean(r["done_per_s"] for r in ones)
            ratios.append(own_cores(result) * one_ms / 1000)
            extra.append(together / one_ms - 1)
            measured = result["done_per_s"] / one_done
            line += (
                f"; against one Daphne beside it ({one_ms:.2f} ms): with a core each {ratios[-1]:.2f}x,"
                f" the two together {extra[-1]:+.0%} CPU a command, measured here {measured:.2f}x"
            )
            if all(r["reference_ms"] for r in (result, *ones)):
                one_steady = statistics.fmean(
                    r["daphne_ms_per_command"][0]["cpu"] / statistics.median(r["reference_ms"]) for r in ones
                )
                steady.append(together / statistics.median(result["reference_ms"]) / one_steady - 1)
                line += f" ({steady[-1]:+.0%} against the reference probe)"
        blocks.append(line)
    if ratios:
        blocks.append(
            f"two Daphnes with a core each against one: {min(ratios):.2f}x to {max(ratios):.2f}x;"
            f" the two together against one: {min(extra):+.0%} to {max(extra):+.0%} CPU a command"
            + (f", {min(steady):+.0%} to {max(steady):+.0%} against the reference probe" if steady else "")
        )
    return blocks


KEEPS_UP = 0.95  # a window keeps up when it does this share of what it asked, losing none
KNEE_STEP = 1.3  # each window below the knee asks this much more than the last
KNEE_WINDOWS = 12  # at most this many windows to find the knee


def kept_up(result: dict) -> bool:
    """The window did what it asked (all but a few ticks, refused or skipped) and lost nothing."""
    return result["done"] >= KEEPS_UP * result["asked"] and not result["lost_commands"]


def overload_windows(args, stack: Stack, runs: list[dict]):
    """The windows of an --overload run: from --rate up by KNEE_STEP until one does not keep up; the
    capacity is the most done a second in a window that kept up; then one window at each of the factors
    times it, asked as a rate per table. Each window's figures (with its reference probe) go into `runs`."""

    async def windows(tables):
        def record(label: str, window: load.Window, stats: load.Stats, speed) -> dict:
            result = figures(tables, stats, window)
            result.update(label=label, reference_ms=speed.samples)
            runs.append(result)
            return result

        def window_at(rate: float):
            window = load.Window(args.seconds, rate, args.drain, stack.cpu)
            speed = reference.Sampler()
            window.hooks.append((speed.start, speed.stop))
            return window, load.Stats(), speed

        rate, capacity = args.rate, 0.0
        for _ in range(KNEE_WINDOWS):
            window, stats, speed = window_at(rate)
            yield window, stats
            result = record("below the knee", window, stats, speed)
            if not kept_up(result):
                result["label"] = "past the knee"
                break
            capacity = max(capacity, result["done_per_s"])
            rate *= KNEE_STEP
        for factor in args.factors if capacity else ():
            window, stats, speed = window_at(factor * capacity / args.tables)
            yield window, stats
            result = record(f"{factor:g}x the capacity", window, stats, speed)
            result.update(factor=factor, capacity_per_s=capacity)

    return windows


def run_overload(args, stack: Stack, prefix: str) -> list[dict]:
    """Seed, serve, find the knee, then overload it (`overload_windows`); the log's errors go on every run."""
    layout = stack.seed(prefix)
    stack.start_daphnes()
    runs: list[dict] = []
    bases = [daphne.url for daphne in stack.daphnes]
    asyncio.run(
        load.run_app_windows(layout, PASSWORD, bases, load.Stats(), overload_windows(args, stack, runs))
    )
    errors = stack.log_errors()
    for result in runs:
        result["log_errors"] = dict(errors.most_common(8))
        result["too_many_clients"] = counted(errors, TOO_MANY_CLIENTS)
        result["max_connections_errors"] = counted(errors, MAX_CONNECTIONS)
        result["idle_s"], result["idle_closes"] = 0, {}
    return runs


def overload_report(args, runs: list[dict]) -> str:
    """One block a window, then the overload windows against the capacity found below the knee."""
    blocks = []
    for result in runs:
        title = f"[{result['label']}] rate={result['rate']:.3g}/table/s"
        blocks.append(
            title + "\n" + report(argparse.Namespace(**{**vars(args), "rate": result["rate"]}), result, None)
        )
    capacity = max((r["done_per_s"] for r in runs if r["label"] == "below the knee"), default=0.0)
    blocks.append(
        f"capacity below the knee: {capacity:.1f} commands a second (the most done in a window that kept up)"
    )
    for result in runs:
        if "factor" in result:
            blocks.append(
                f"  at {result['factor']:g}x ({result['asked_per_s']:.1f} asked a second): done"
                f" {result['done_per_s']:.1f} /s = {result['done_per_s'] / capacity:.0%} of the capacity,"
                f" refused (503) {result['refused_per_s']:.1f} /s,"
                f" other 5xx {result['http_5xx'] - result['refused']},"
                f" lost {result['lost_commands']} commands and {result['lost']} frames,"
                f" p50 {result['p50_ms']:.0f} ms p99 {result['p99_ms']:.0f} ms,"
                f" {result['cpu_ms_per_command'].get('daphne', float('nan')):.1f} ms of Daphne CPU a command"
            )
    return "\n".join(blocks)


def run_floor(args, size: int) -> dict:
    """The bare-websockets broadcast, same tables, sockets, rate and frame size."""
    floor = servers.Floor(args.port + 50, size)
    floor.start()
    try:
        stats = load.Stats()
        window = load.Window(
            args.seconds, args.rate, args.drain, lambda: {"floor": servers.cpu_seconds(floor.process.pid)}
        )
        shape = [args.players + 1] * args.tables
        tables = asyncio.run(load.run_floor(floor.port, shape, window, stats))
        return figures(tables, stats, window)
    finally:
        floor.stop()


def ratio(a: float, b: float) -> str:
    return f"{a / b:,.1f}x" if b and b == b and a == a else "n/a"


def report(args, app: dict, floor: dict | None) -> str:
    """The figures as a few lines of text."""
    cpu = ", ".join(f"{name} {seconds:.1f} s" for name, seconds in app["cpu_s"].items() if not is_part(name))
    if EVENT_LOOP in app["cpu_s"]:
        cpu += f" (its event loop {app['cpu_s'][EVENT_LOOP]:.1f} s)"
    lines = [
        f"fanout: {args.mode}, daphnes={args.daphnes} tables={args.tables} players={args.players} "
        f"sockets={app['sockets']} seconds={args.seconds:g} rate={args.rate:g}/table/s"
        + (f" rounds={args.rounds} (played first)" if args.rounds else "")
        + (" seated by table" if getattr(args, "seating", "spread") == "table" else ""),
        f"  commands asked -> done: {app['asked']} -> {app['done']}"
        f" ({app['asked_per_s']:.1f} -> {app['done_per_s']:.1f} /s)",
        f"  refused (503): {app['refused']} ({app['refused_per_s']:.1f} /s),"
        f" Retry-After {app['retry_after'] or '-'};"
        f" 5xx other than 503: {app['http_5xx'] - app['refused']};"
        f" lost commands (no answer, or no frame within {load.VERSION_TIMEOUT:g} s): {app['lost_commands']}",
        f"  http: {app['http']}  5xx: {app['http_5xx']}  no answer: {app['http_errors'] or 0};"
        f" post -> answer p50 {app['answer_p50_ms']:.1f}  p99 {app['answer_p99_ms']:.1f} ms",
        f"  latency post -> frame at every socket (ms): p50 {app['p50_ms']:.1f}  p90 {app['p90_ms']:.1f}"
        f"  p99 {app['p99_ms']:.1f}  max {app['max_ms']:.1f}",
        f"  frames: {app['expected']} expected, {app['lost']} lost, {app['gaps_resumed']} gaps resumed,"
        f" {app['error_frames']} error frames; closes: {app['closes'] or 'none'};"
        f" connect failures: {app['connect_failures'] or 'none'}",
        f"  frame size (bytes): {app['frame_bytes']}",
        f"  server CPU over {app['window_s']:.1f} s: {cpu};"
        f" {app['server_cpu_ms_per_command']:.1f} ms per command,"
        f" {app['server_cpu_us_per_delivery']:.0f} us per frame delivered;"
        f" bench client {app['client_cpu_s']:.1f} s",
    ]
    lines.append(
        f'  server log: {app["too_many_clients"]} x "too many clients",'
        f" {app['max_connections_errors']} x MaxConnectionsError"
    )
    if app["idle_s"]:
        lines.append(f"  idle {app['idle_s']:g} s after the drain: closes {app['idle_closes'] or 'none'}")
    for error, count in app.get("log_errors", {}).items():
        lines.append(f"  server log: {count} x {error}")
    lines += ceiling_lines(app)
    lines += own_core_lines(app)
    lines += machine_lines(app)
    if floor:
        lines += floor_lines(app, floor)
    return "\n".join(lines)


def ceiling_lines(app: dict) -> list[str]:
    """What this machine's cores could carry at the CPU a command just measured: a Daphne runs on one core at
    most (one interpreter lock), and the Daphnes share every core with PostgreSQL, Redis and this client."""
    per = app.get("cpu_ms_per_command", {})
    daphne = per.get("daphne")
    if not daphne or not app["done"]:
        return []
    rest = sum(ms for name, ms in per.items() if name != "daphne")
    cores = os.cpu_count() or 1
    shared = cores * 1000 / (daphne + rest)

    def most(daphnes: int) -> float:
        return min(daphnes * 1000 / daphne, shared)

    return [
        f"  CPU a command: Daphnes {daphne:.1f} ms, the rest {rest:.1f} ms"
        f" ({', '.join(f'{name} {ms:.1f}' for name, ms in per.items() if name != 'daphne')});"
        f" at these costs {cores} cores carry at most: 1 Daphne {most(1):.0f}/s, 2 Daphnes {most(2):.0f}/s"
        f" ({most(2) / most(1):.2f}x)"
    ]


def own_core_lines(app: dict) -> list[str]:
    """Each Daphne's CPU a command done (of all the run's commands: its own posts, and the frames of every
    command to its sockets), and what they would carry with a core each: the busiest one is the limit."""
    each = app.get("daphne_ms_per_command") or []
    if not each or not app["done"] or not all(d["cpu"] for d in each):
        return []
    parts = ", ".join(f"#{n} {d['cpu']:.2f} ms (its event loop {d['loop']:.2f})" for n, d in enumerate(each))
    others = [f"{name} {ms:.2f} ms" for name, ms in app["cpu_ms_per_command"].items() if name in DATA_SERVERS]
    beside = f" (and {', '.join(others)} a command on cores of their own)" if others else ""
    return [
        f"  each Daphne's CPU a command done: {parts}; together {sum(d['cpu'] for d in each):.2f} ms;"
        f" with a core each{beside}, {'they' if len(each) > 1 else 'it'} would carry at most"
        f" {own_cores(app):.0f}/s"
    ]


def own_cores(app: dict) -> float:
    """Commands a second the run's Daphnes would carry with a core each: 1000 over the busiest one's ms."""
    return 1000 / max(d["cpu"] for d in app["daphne_ms_per_command"])


def machine_lines(app: dict) -> list[str]:
    """How fast this machine was during the window (`bench/reference.py`, timed once a second)."""
    if not app.get("reference_ms"):
        return []
    return [
        f"  this machine during the window: the reference workload (bench/reference.py) took"
        f" {reference.summary(app['reference_ms'])} of CPU; compare runs made at the same speed"
    ]


def floor_lines(app: dict, floor: dict) -> list[str]:
    """The floor's figures and the app's ratios to them."""
    per_frame = "server_cpu_us_per_delivery"
    return [
        f"floor (bare websockets, 1 process, {floor['sockets']} sockets,"
        f" {app['mean_frame_bytes']} B frames): p50 {floor['p50_ms']:.1f}  p99 {floor['p99_ms']:.1f} ms,"
        f" {floor['lost']} lost, CPU {floor['cpu_s']['floor']:.1f} s ({floor[per_frame]:.0f} us per frame)",
        f"ratio to the floor: p50 {ratio(app['p50_ms'], floor['p50_ms'])},"
        f" p99 {ratio(app['p99_ms'], floor['p99_ms'])},"
        f" CPU per frame delivered {ratio(app[per_frame], floor[per_frame])}",
    ]


def broken(app: dict) -> list[str]:
    """What --check refuses: lost frames, 5xx, closes, requests with no answer, error frames."""
    problems = []
    if app.get("late"):
        problems.append(f"{app['late']} commands done without a frame within {load.VERSION_TIMEOUT:g} s")
    if app.get("retry_after", {}).get("none"):
        problems.append(f"{app['retry_after']['none']} refusals (503) without Retry-After")
    if app["http_5xx"] > app.get("refused", 0):
        problems.append(f"{app['http_5xx'] - app.get('refused', 0)} answers 5xx other than a refusal")
    if app["lost"]:
        problems.append(f"{app['lost']} frames lost")
    if app["closes"] or app["connect_failures"]:
        problems.append(f"closes {app['closes']}, connect failures {app['connect_failures']}")
    if app["http_errors"]:
        problems.append(f"requests without an answer {app['http_errors']}")
    if app.get("too_many_clients") or app.get("max_connections_errors"):
        problems.append(
            f"{app['too_many_clients']} x too many clients,"
            f" {app['max_connections_errors']} x MaxConnectionsError"
        )
    if app["error_frames"]:
        problems.append(f"{app['error_frames']} error frames")
    if not app["done"]:
        problems.append("no command done")
    return problems


def run_many(args, stack: Stack, prefix: str, started: float, mode, refusals_broken: bool) -> int:
    """Several runs of one mode (`mode`: its runs and its report) on PostgreSQL and Redis kept between them
    (--scaleout, --overload): the report, the JSON, and with --check exit 1 on a broken run."""
    run, report = mode
    try:
        stack.start_data()
        runs = run(args, stack, prefix)
    finally:
        stack.stop()
        shutil.rmtree(stack.workdir, ignore_errors=True)
    print(report(args, runs))
    print(f"(whole run {time.monotonic() - started:.0f} s)")
    if args.json:
        args.json.write_text(json.dumps({"args": {k: str(v) for k, v in vars(args).items()}, "runs": runs}))
    problems = [p for r in runs for p in broken(r) if refusals_broken or "refus" not in p]
    problems = problems if args.check else []
    for problem in problems:
        print(f"check: {problem}", file=sys.stderr)
    return 1 if problems else 0


def main(argv=None) -> int:
    args = parse_args(argv)
    raise_file_limit()
    workdir = Path(tempfile.mkdtemp(prefix="covenant-fanout-"))
    stack = Stack(args, workdir)
    profiler = Profiler(args.profile, [], args.profile_loop) if args.profile else None
    started = time.monotonic()
    prefix = f"bench{int(time.time() * 1000) % 10**9}"
    if args.scaleout:
        return run_many(args, stack, prefix, started, (run_scaleout, scaleout_report), refusals_broken=True)
    if args.factors:  # refusals are what overload asks for
        return run_many(args, stack, prefix, started, (run_overload, overload_report), refusals_broken=False)
    try:
        stack.start_data()
        app = run_app(args, stack, prefix, profiler)
        stack.stop()
        floor = None if args.no_floor else run_floor(args, app["mean_frame_bytes"])
    finally:
        stack.stop()
        shutil.rmtree(workdir, ignore_errors=True)
    print(report(args, app, floor))
    print(f"(whole run {time.monotonic() - started:.0f} s)")
    if args.json:
        args.json.write_text(
            json.dumps(
                {"args": {k: str(v) for k, v in vars(args).items()}, "app": app, "floor": floor}, indent=2
            )
        )
    problems = broken(app) if args.check else []
    for problem in problems:
        print(f"check: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
