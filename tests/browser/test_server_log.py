"""Issue 35, item 3: the check every browser test gets (tests/browser/conftest.py) sees a traceback in the
server's log. A server whose log could show none would pass it always: here one is provoked on the suite's
own Daphne (its database loses the session table for a moment, so a signed-in request answers 500), the
check's reading finds it and would fail an unmarked test, and the marker's own demand (the expected
traceback is really there) holds."""

from __future__ import annotations

import urllib.error
import urllib.request

import pytest
from django.db import connection

from .conftest import _log_sizes, server_log_since
from .server_log import tracebacks, unexpected

pytestmark = pytest.mark.browser

LOG = """\
127.0.0.1:5000 - - [29/Nov/2026:08:58:44] "GET /static/favicon.svg" 200 356
Internal Server Error: /sagas/
Traceback (most recent call last):
  File "/srv/django/db/backends/utils.py", line 105, in _execute
    return self.cursor.execute(sql, params)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
sqlite3.OperationalError: no such table: django_session

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File "/srv/django/core/handlers/exception.py", line 55, in inner
    response = get_response(request)

django.db.utils.OperationalError: no such table: django_session
127.0.0.1:5000 - - [29/Nov/2026:08:58:45] "GET /sagas/" 500 145
Exception inside application: Attempt to send on a closed protocol
Traceback (most recent call last):
  File "/srv/autobahn/websocket/protocol.py", line 2584, in sendMessage
    raise Disconnected("Attempt to send on a closed protocol")
autobahn.exception.Disconnected: Attempt to send on a closed protocol
127.0.0.1:5000 - - [29/Nov/2026:08:58:46] "WSDISCONNECT /ws/encounters/1/" - -
"""


def test_each_logged_exception_is_one_traceback_with_its_chain():
    found = tracebacks(LOG)
    assert len(found) == 2
    assert found[0].startswith("Internal Server Error: /sagas/")
    assert found[0].endswith("django.db.utils.OperationalError: no such table: django_session")
    assert "sqlite3.OperationalError" in found[0]
    assert found[1].startswith("Exception inside application")
    assert found[1].endswith("autobahn.exception.Disconnected: Attempt to send on a closed protocol")
    assert tracebacks('127.0.0.1:5000 - - [29/Nov/2026:08:58:44] "GET /" 200 356\n') == []


POSTGRESQL = """\
Internal Server Error: /sagas/
Traceback (most recent call last):
  File "/srv/psycopg/cursor.py", line 117, in execute
    raise ex.with_traceback(None)
psycopg.errors.UndefinedTable: relation "django_session" does not exist
LINE 1: ...ssion"."expire_date" FROM "django_session" WHERE ...
                                     ^

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File "/srv/django/core/handlers/exception.py", line 55, in inner
    response = get_response(request)
django.db.utils.ProgrammingError: relation "django_session" does not exist
LINE 1: ...ssion"."expire_date" FROM "django_session" WHERE ...
                                     ^
127.0.0.1:5000 - - [29/Nov/2026:08:58:45] "GET /sagas/" 500 145
"""


def test_an_exception_whose_message_has_several_lines_is_still_one_traceback():
    """PostgreSQL's errors end with the query's line and a caret: the chain goes on after them."""
    (found,) = tracebacks(POSTGRESQL)
    assert found.startswith("Internal Server Error: /sagas/")
    assert "psycopg.errors.UndefinedTable" in found
    assert found.endswith("^")
    assert "GET /sagas/" not in found


def test_a_traceback_fails_the_check_unless_the_test_names_it():
    found = tracebacks(LOG)
    assert unexpected(found, ()) == (found, [])
    assert unexpected(found, ("django_session",)) == ([found[1]], [])
    assert unexpected(found, ("django_session", "closed protocol")) == ([], [])
    assert unexpected(found, ("django_session", "KeyError")) == ([found[1]], ["KeyError"])


@pytest.mark.causes_server_traceback("django_session")
def test_the_suites_daphne_logs_a_traceback_where_the_check_reads_it(daphne, transactional_db):
    sizes = _log_sizes()
    with connection.cursor() as cursor:
        cursor.execute("ALTER TABLE django_session RENAME TO django_session_away")
    try:
        request = urllib.request.Request(f"{daphne.url}/sagas/", headers={"Cookie": "sessionid=" + "x" * 32})
        with pytest.raises(urllib.error.HTTPError) as answer:
            urllib.request.urlopen(request, timeout=30)
    finally:
        with connection.cursor() as cursor:
            cursor.execute("ALTER TABLE django_session_away RENAME TO django_session")
    assert answer.value.code == 500
    found = tracebacks(server_log_since(sizes))
    assert len(found) == 1 and "django_session" in found[0], found
    stray, missing = unexpected(found, ())
    assert stray == found and not missing  # unmarked, this test would fail
