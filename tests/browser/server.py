"""A real Daphne, serving config.asgi:application from its own process on the test database.

The test process binds a loopback socket and hands it to `daphne --fd`, so there is no race for a
free port. The server reads its settings from the environment like `make run` does: DATABASE_URL is
pointed at the test database pytest-django created (a file for SQLite, test_<name> on PostgreSQL);
REDIS_URL, when set, is inherited, so the test process and the server share the Redis channel layer.
Without REDIS_URL the server keeps its own in-memory layer, which is enough because the services
broadcast from inside the server process.
"""

import contextlib
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

BASE_DIR = Path(__file__).resolve().parents[2]
STARTUP_SECONDS = 30


def database_url(settings_dict) -> str:
    """The DATABASE_URL that makes a fresh process open the same database as `settings_dict`."""
    engine = settings_dict["ENGINE"]
    name = str(settings_dict["NAME"])
    if engine.endswith("sqlite3"):
        if name == ":memory:" or "mode=memory" in name:
            raise RuntimeError("The browser tests need a file-based SQLite test database")
        return f"sqlite:///{Path(name).resolve()}"
    if engine.endswith("postgresql"):
        auth = quote(settings_dict.get("USER") or "", safe="")
        if settings_dict.get("PASSWORD"):
            auth += ":" + quote(settings_dict["PASSWORD"], safe="")
        host = quote(settings_dict.get("HOST") or "localhost", safe="")
        port = f":{settings_dict['PORT']}" if settings_dict.get("PORT") else ""
        return f"postgres://{auth}@{host}{port}/{quote(name, safe='')}"
    raise RuntimeError(f"No DATABASE_URL form known for {engine}")


class DaphneServer:
    """`with DaphneServer(db_url, log_path) as server:` serves on server.url until the block ends;
    `server.restart()` replaces the process, keeping the address."""

    host = "127.0.0.1"
    # Every server this process started: tests/browser/conftest.py reads their logs after each test.
    started: list["DaphneServer"] = []

    def __init__(self, db_url: str, log_path: Path, environment: dict[str, str] | None = None):
        self.db_url = db_url
        self.log_path = log_path
        self.environment = environment or {}  # on top of this process's (DEBUG=false, say)
        self.process: subprocess.Popen | None = None
        self.port = 0

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def __enter__(self) -> "DaphneServer":
        self.start()
        return self

    def start(self) -> None:
        """Serve on self.port (a free one the first time), once Daphne answers."""
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((self.host, self.port))
        listener.listen(128)
        self.port = listener.getsockname()[1]
        env = dict(os.environ, DATABASE_URL=self.db_url, DJANGO_SETTINGS_MODULE="config.settings")
        env.update(self.environment)  # a test may name settings of its own (tests/browser/run_profile.py)
        env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        daphne = [sys.executable, "-m", "daphne", "--fd", str(listener.fileno()), "-v", "1"]
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(
                [*daphne, "--access-log", "-", "config.asgi:application"],
                cwd=BASE_DIR,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                pass_fds=[listener.fileno()],
            )
        listener.close()
        if self not in DaphneServer.started:
            DaphneServer.started.append(self)
        try:
            self._wait_until_serving()
        except BaseException:
            self.stop()
            raise

    def restart(self) -> None:
        """Stop the server, as a deploy or a crash would, and start a fresh process on the same port."""
        self.stop()
        self.start()

    def _wait_until_serving(self) -> None:
        """Daphne accepts on the inherited socket once the application is imported and running."""
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"Daphne exited with {self.process.returncode}:\n{self.log_tail()}")
            with contextlib.suppress(OSError):  # not listening yet: try again shortly
                with socket.create_connection((self.host, self.port), timeout=1) as probe:
                    probe.sendall(b"HEAD /static/css/covenant.css HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
                    if probe.recv(12).startswith(b"HTTP/1."):
                        return
            time.sleep(0.1)
        raise RuntimeError(f"Daphne did not answer within {STARTUP_SECONDS}s:\n{self.log_tail()}")

    def log_size(self) -> int:
        return self.log_path.stat().st_size if self.log_path.exists() else 0

    def log_tail(self, since: int = 0, lines: int = 200) -> str:
        if not self.log_path.exists():
            return ""
        with open(self.log_path, "rb") as log:
            log.seek(since)
            text = log.read().decode("utf-8", "replace")
        return "\n".join(text.splitlines()[-lines:])

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def __exit__(self, *exc) -> None:
        self.stop()
