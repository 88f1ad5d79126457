"""Issue 11: PostgreSQL connections are bounded. Daphne gives every request a thread of its own, so only
psycopg's pool (DATABASE_POOL_MAX a process) keeps N Daphnes under PostgreSQL's max_connections. Each
pooled connection keeps the queries it runs often prepared (DATABASE_PREPARED_STATEMENTS)."""

import json
import os
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest
from django.db import connection, connections

from bench import servers
from bench.servers import free_port
from tests.browser.server import database_url
from tests.conftest import missing
from tests.deploy.profile import manage, profile_env

BASE_DIR = Path(__file__).resolve().parents[1]
READ_DATABASE = """
import json
from config import settings
print(json.dumps(settings.DATABASES["default"].get("OPTIONS", {})))
"""
POSTGRES_URL = "postgres://covenant@db.example:5432/covenant"


def database_options(**changes: str) -> dict:
    """The database OPTIONS config.settings makes from the environment, in a fresh process."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("DATABASE_URL", "DATABASE_POOL_MAX", "DATABASE_PREPARED_STATEMENTS")
    }
    env.update(changes)
    out = subprocess.run(
        [sys.executable, "-c", READ_DATABASE], cwd=BASE_DIR, env=env, check=True, capture_output=True
    )
    return json.loads(out.stdout)


def pool_setting(**changes: str) -> dict | None:
    return database_options(**changes).get("pool")


def test_postgres_gets_a_pool_of_twenty_by_default():
    assert pool_setting(DATABASE_URL=POSTGRES_URL) == {"min_size": 2, "max_size": 20, "timeout": 30}


def test_database_pool_max_sets_the_pool_size():
    assert pool_setting(DATABASE_URL=POSTGRES_URL, DATABASE_POOL_MAX="7")["max_size"] == 7


def test_sqlite_has_no_pool():
    assert pool_setting(DATABASE_URL="sqlite:////tmp/covenant-pool-test.sqlite3") is None


def test_postgres_prepares_the_queries_it_runs_often_by_default():
    options = database_options(DATABASE_URL=POSTGRES_URL)
    assert options["server_side_binding"] is True
    assert options["prepare_threshold"] == 5


def test_prepared_statements_can_be_turned_off_for_a_pooler_that_cannot_keep_them():
    options = database_options(DATABASE_URL=POSTGRES_URL, DATABASE_PREPARED_STATEMENTS="false")
    assert "server_side_binding" not in options
    assert "prepare_threshold" not in options
    assert options["pool"]["max_size"] == 20


def test_sqlite_has_no_prepared_statement_options():
    options = database_options(DATABASE_URL="sqlite:////tmp/covenant-pool-test.sqlite3")
    assert "server_side_binding" not in options
    assert "prepare_threshold" not in options


def test_a_prepared_statements_switch_covenant_cannot_read_is_refused_in_one_line():
    result = manage("check", env=profile_env(DATABASE_PREPARED_STATEMENTS="sometimes"))
    assert result.returncode == 1
    assert result.stderr.strip() == (
        "Covenant will not start: DATABASE_PREPARED_STATEMENTS must be true or false, not 'sometimes'"
    )


@pytest.mark.django_db
def test_a_query_run_often_on_a_connection_is_prepared_by_postgresql(django_user_model):
    if connection.vendor != "postgresql":
        missing("needs PostgreSQL: set DATABASE_URL (make test starts one)")
    user = django_user_model.objects.create_user("prepared", password="x")
    for _ in range(6):
        assert django_user_model.objects.filter(pk=user.pk, username="prepared").exists()
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
    assert any('"auth_user"."username" = $' in statement for statement in prepared), prepared


@pytest.mark.parametrize("value", ["0", "1", "many", "-5", "2.5", "1001"])
def test_a_pool_size_covenant_cannot_use_is_refused_in_one_line(value):
    result = manage("check", env=profile_env(DATABASE_POOL_MAX=value))
    assert result.returncode == 1
    assert result.stderr.strip() == (
        f"Covenant will not start: DATABASE_POOL_MAX must be a whole number from 2 to 1000, not {value!r}"
    )


POOL = 3
REQUESTS = 60
APPLICATION = "covenant-pool-test"


def server_connections() -> int:
    """The Daphne's backends on the test database (its DATABASE_URL names it to PostgreSQL)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE application_name = %s", [APPLICATION])
        return cursor.fetchone()[0]


@pytest.mark.django_db(transaction=True)
def test_many_concurrent_requests_never_open_more_connections_than_the_pool(
    client, django_user_model, tmp_path
):
    if connection.vendor != "postgresql":
        missing("needs PostgreSQL: set DATABASE_URL (make test starts one)")
    user = django_user_model.objects.create_user("pooled", password="x")
    client.force_login(user)
    cookie = f"sessionid={client.cookies['sessionid'].value}"
    url = database_url(connections["default"].settings_dict)
    env = dict(
        servers.server_env(url + f"?application_name={APPLICATION}", None),
        DATABASE_POOL_MAX=str(POOL),
    )
    server = servers.Daphne(free_port(), env, tmp_path / "daphne.log")
    server.start()
    try:
        statuses: list[int] = []
        seen: list[int] = []
        done = threading.Event()

        def watch():
            try:
                while not done.is_set():
                    seen.append(server_connections())
                    time.sleep(0.005)
            finally:
                connection.close()  # this thread's own: left open, the test database could not be dropped

        def fetch(_):
            request = urllib.request.Request(server.url + "/", headers={"Cookie": cookie})
            try:
                with urllib.request.urlopen(request, timeout=60) as answer:
                    statuses.append(answer.status)
            except urllib.error.HTTPError as error:
                statuses.append(error.code)

        watcher = threading.Thread(target=watch)
        watcher.start()
        workers = [threading.Thread(target=fetch, args=(i,)) for i in range(REQUESTS)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join(timeout=120)
        done.set()
        watcher.join()
    finally:
        server.stop()
    assert statuses == [200] * REQUESTS
    assert max(seen) >= 1
    assert max(seen) <= POOL
