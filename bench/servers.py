"""The servers a fan-out run starts and stops: throwaway PostgreSQL and Redis, Daphne, the floor; and
their CPU time, read from /proc."""

from __future__ import annotations

import contextlib
import glob
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parents[1]
STARTUP_SECONDS = 60
TICKS = os.sysconf("SC_CLK_TCK")


def free_port(*offsets: int) -> int:
    """A loopback port P nobody listens on right now, and P + each of `offsets` too (a bench's second Daphne
    and its floor), below the range Linux hands out to outgoing connections (32768 up), so that a browser's
    or a database client's socket does not take one of them before the server listens."""
    for _ in range(200):
        base = random.randrange(20_000, 32_000 - max(offsets, default=0))
        if all(_unused(base + offset) for offset in (0, *offsets)):
            return base
    raise RuntimeError("no free loopback ports between 20000 and 32000")


def _unused(port: int) -> bool:
    """Whether nothing is bound to the loopback port now."""
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of one process and its waited-for children so far (0 once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return 0.0
    return sum(int(value) for value in fields[11:15]) / TICKS


def main_thread_cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a process's main thread so far: Daphne's event loop (sockets, HTTP
    parsing, channel layer), apart from the threads Django's sync code runs in (0 once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/task/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return 0.0
    return sum(int(value) for value in fields[11:13]) / TICKS


def children_of(pid: int) -> list[int]:
    """The direct children of a process (PostgreSQL's backends are its postmaster's)."""
    found = []
    for path in glob.glob("/proc/[0-9]*/stat"):
        with contextlib.suppress(OSError, IndexError, ValueError):
            if int(Path(path).read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(path.split("/")[2]))
    return found


def wait_for_port(port: int, process: subprocess.Popen | None, what: str, log: Path | None = None) -> None:
    """Return once something accepts on 127.0.0.1:port; raise if the process dies or time runs out."""
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            tail = log.read_text(errors="replace")[-3000:] if log and log.exists() else ""
            raise RuntimeError(f"{what} exited with {process.returncode}:\n{tail}")
        with contextlib.suppress(OSError):
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        time.sleep(0.1)
    raise RuntimeError(f"{what} did not listen on port {port} within {STARTUP_SECONDS}s")


def stop(process: subprocess.Popen | None) -> None:
    """Terminate a process we started, then kill it if it lingers."""
    if process is None or process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def pg_bin() -> Path:
    """Debian's newest PostgreSQL binaries folder."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(p.split("/")[-2]))
    if not found:
        raise RuntimeError("No PostgreSQL found in /usr/lib/postgresql: apt-get install postgresql")
    return Path(found[-1])


def as_postgres(command: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root: run its tools as the postgres user then."""
    return ["runuser", "-u", "postgres", "--", *command] if os.getuid() == 0 else command


class Postgres:
    """A throwaway PostgreSQL cluster on loopback (default settings, max_connections 100)."""

    def __init__(self, workdir: Path, port: int):
        self.dir = workdir / "pg"
        self.port = port
        self.url = f"postgres://covenant@127.0.0.1:{port}/covenant"

    def start(self) -> None:
        """initdb, start, createdb."""
        self.dir.mkdir(parents=True)
        if os.getuid() == 0:
            self.dir.parent.chmod(0o755)
            shutil.chown(self.dir, "postgres")
        binaries = pg_bin()
        quiet = dict(check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        subprocess.run(
            as_postgres(
                [
                    str(binaries / "initdb"),
                    "-D",
                    str(self.dir),
                    "-U",
                    "covenant",
                    "--auth=trust",
                    "-E",
                    "UTF8",
                ]
            ),
            **quiet,
        )
        options = f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.dir}"
        subprocess.run(
            as_postgres(
                [
                    str(binaries / "pg_ctl"),
                    "-D",
                    str(self.dir),
                    "-l",
                    str(self.dir / "server.log"),
                    "-w",
                    "-o",
                    options,
                    "start",
                ]
            ),
            **quiet,
        )
        subprocess.run(
            as_postgres(
                [
                    str(binaries / "createdb"),
                    "-h",
                    "127.0.0.1",
                    "-p",
                    str(self.port),
                    "-U",
                    "covenant",
                    "covenant",
                ]
            ),
            **quiet,
        )

    def pids(self) -> list[int]:
        """The postmaster and its backends."""
        with contextlib.suppress(OSError, ValueError):
            postmaster = int((self.dir / "postmaster.pid").read_text().split()[0])
            return [postmaster, *children_of(postmaster)]
        return []

    def stop(self) -> None:
        subprocess.run(
            as_postgres([str(pg_bin() / "pg_ctl"), "-D", str(self.dir), "-m", "fast", "stop"]),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )


class Redis:
    """A throwaway Redis on loopback, without persistence."""

    def __init__(self, workdir: Path, port: int):
        self.dir = workdir / "redis"
        self.port = port
        self.url = f"redis://127.0.0.1:{port}/0"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.dir.mkdir(parents=True)
        self.process = subprocess.Popen(
            [
                "redis-server",
                "--bind",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.dir),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_for_port(self.port, self.process, "redis-server")

    def pids(self) -> list[int]:
        return [self.process.pid] if self.process else []

    def stop(self) -> None:
        stop(self.process)


STATIC_ROOT = Path(tempfile.gettempdir()) / "covenant-bench-static"


_COLLECTED: set[str] = set()


def collect_static(env: dict) -> None:
    """DEBUG off serves hashed static files: collect them once a run (the command is incremental)."""
    if env["STATIC_ROOT"] not in _COLLECTED:
        manage(env, "collectstatic", "--noinput")
        _COLLECTED.add(env["STATIC_ROOT"])


def server_env(database_url: str, redis_url: str | None) -> dict:
    """The environment of every Django process of a run: DEBUG off, the bench's settings."""
    env = dict(
        os.environ,
        DATABASE_URL=database_url,
        DJANGO_SETTINGS_MODULE="bench.settings",
        DEBUG="false",
        SECRET_KEY="bench-fanout-not-secret-" + "x" * 40,
        PYTHONPATH=str(BASE_DIR),
        # Plain HTTP on loopback: the production profile's HTTPS switches off, static files collected here.
        SSL_REDIRECT="false",
        SECURE_COOKIES="false",
        HSTS_SECONDS="0",
        STATIC_ROOT=str(STATIC_ROOT),
    )
    env.pop("REDIS_URL", None)
    if redis_url:
        env["REDIS_URL"] = redis_url
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    return env


def manage(env: dict, *args: str) -> None:
    """Run a manage.py command quietly, raising with its output if it fails."""
    result = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=BASE_DIR, env=env, capture_output=True, text=True
    )
    if result.returncode:
        raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{result.stdout}\n{result.stderr}")


class Daphne:
    """One Daphne process serving config.asgi:application on a port; its log goes to a file."""

    def __init__(self, port: int, env: dict, log: Path):
        self.port = port
        self.env = env
        self.log = log
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        collect_static(self.env)
        with open(self.log, "ab") as out:
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "daphne",
                    "-b",
                    "127.0.0.1",
                    "-p",
                    str(self.port),
                    "-v",
                    "1",
                    "config.asgi:application",
                ],
                cwd=BASE_DIR,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        wait_for_port(self.port, self.process, "daphne", self.log)

    def pids(self) -> list[int]:
        return [self.process.pid] if self.process else []

    def stop(self) -> None:
        stop(self.process)


class Floor:
    """The bare-websockets broadcast server (bench/floor.py) in one process."""

    def __init__(self, port: int, size: int):
        self.port = port
        self.size = size
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                sys.executable,
                str(BASE_DIR / "bench" / "floor.py"),
                "--port",
                str(self.port),
                "--size",
                str(self.size),
            ],
            stdout=subprocess.DEVNULL,
        )
        wait_for_port(self.port, self.process, "the floor server")

    def pids(self) -> list[int]:
        return [self.process.pid] if self.process else []

    def stop(self) -> None:
        stop(self.process)
