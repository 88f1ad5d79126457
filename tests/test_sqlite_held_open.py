"""The embedded database's file is held open by the server (config.sqlite), so a request's connection
closing is never the last one: SQLite would checkpoint its write-ahead log and delete it each time."""

import sqlite3

from config.sqlite import hold_open


def a_request(path) -> None:
    """What one command does to the file: connect as Django does, write in a transaction, close."""
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("BEGIN IMMEDIATE")
    connection.execute("INSERT INTO t VALUES (1)")
    connection.execute("COMMIT")
    connection.close()


def test_a_request_closing_its_connection_no_longer_checkpoints_the_file(tmp_path):
    path = tmp_path / "covenant.sqlite3"
    wal = tmp_path / "covenant.sqlite3-wal"
    setup = sqlite3.connect(path)
    setup.execute("PRAGMA journal_mode=WAL")
    setup.execute("CREATE TABLE t (x)")
    setup.close()
    a_request(path)
    assert not wal.exists()  # the last connection closed: checkpointed and deleted
    hold_open(str(path))
    hold_open(str(path))  # once per file
    a_request(path)
    assert wal.exists()  # the held connection is still open: nothing to checkpoint on close
    rows = sqlite3.connect(path).execute("SELECT count(*) FROM t").fetchone()[0]
    assert rows == 2


def test_nothing_is_held_for_an_in_memory_database():
    hold_open(":memory:")
    from config import sqlite as module

    assert ":memory:" not in module._held
