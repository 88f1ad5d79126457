"""The suite's own end (tests/conftest.py): a session still on a PostgreSQL test database when pytest-django
drops it is named, not only counted."""

import psycopg
import pytest
from django.db import connection, connections

from tests.browser.server import database_url
from tests.conftest import missing, other_sessions


@pytest.mark.django_db
def test_a_session_left_on_the_test_database_is_named_with_its_application_and_query():
    if connection.vendor != "postgresql":
        missing("needs PostgreSQL: set DATABASE_URL (make test starts one)")
    name = connection.settings_dict["NAME"]
    url = database_url(connections["default"].settings_dict) + "?application_name=left-behind"
    with psycopg.connect(url, autocommit=True) as left:
        left.execute("SELECT 41 + 1")
        (row,) = [row for row in other_sessions(name) if row[2] == "left-behind"]
    _, kind, _, _, state, query = row
    assert kind == "client backend"
    assert state == "idle"
    assert query == "SELECT 41 + 1"
