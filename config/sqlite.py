"""The embedded database's file, held open for the server's life.

SQLite checkpoints its write-ahead log into the database, and deletes it, whenever the last connection
to the file closes. The request threads keep their connections (`CONN_MAX_AGE`: config.settings), but a
thread beyond the idle ones kept ends, and its connection with it (config.threads: more requests at once
than that, or a view still running for a client gone): without a connection held open, such a close could
be the last one, and pay for a checkpoint (about 1 ms).
Checkpoints still run as SQLite schedules them (every 1000 pages written, by default).
"""

from __future__ import annotations

import sqlite3

from django.conf import settings

_held: dict[str, sqlite3.Connection] = {}


def hold_open(name: str | None = None) -> None:
    """Open one idle connection to the SQLite file `name` (by default the default database's, when it
    is SQLite), once per file."""
    if name is None:
        database = settings.DATABASES["default"]
        if database["ENGINE"] != "django.db.backends.sqlite3":
            return
        name = str(database.get("NAME", ""))
    if name in ("", ":memory:") or name in _held:
        return
    connection = sqlite3.connect(name, check_same_thread=False)
    connection.execute("SELECT count(*) FROM sqlite_master").fetchone()  # opens the file (and its log)
    _held[name] = connection
