"""Issue 11: with one process (no REDIS_URL, the embedded default) a request's session is read from that
process's memory and written through to the database: a query less a request. With Redis, where several
Daphnes share the sessions, they stay in the database, as Django's default."""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.deploy.profile import manage, profile_env

SHOW_SESSIONS = (
    "from django.conf import settings; from django.core.cache import caches\n"
    "engine = settings.SESSION_ENGINE.rpartition('.')[2]\n"
    "kept = caches[settings.SESSION_CACHE_ALIAS]\n"
    "print(engine, type(kept).__name__, kept._max_entries if engine == 'cached_db' else '')"
)
ONE_PROCESS = {
    "SESSION_ENGINE": "django.contrib.sessions.backends.cached_db",
    "SESSION_CACHE_ALIAS": "sessions",
    "CACHES": {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
        "sessions": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "test-sessions"},
    },
}


@pytest.mark.parametrize(
    ("changes", "shown"),
    [
        ({"REDIS_URL": None}, "cached_db LocMemCache 10000"),
        ({"REDIS_URL": None, "DATABASE_URL": None}, "cached_db LocMemCache 10000"),
        ({}, "db RedisCache"),
    ],
)
def test_sessions_are_kept_in_memory_only_where_one_process_serves(changes, shown):
    result = manage("shell", "--no-imports", "-c", SHOW_SESSIONS, env=profile_env(**changes))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == shown


@pytest.fixture
def one_process(settings):
    for name, value in ONE_PROCESS.items():
        setattr(settings, name, value)


@pytest.mark.django_db
def test_a_signed_in_page_reads_no_session_row(one_process, django_user_model):
    client = Client()
    client.force_login(django_user_model.objects.create_user("ann"))
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("saga_list"))
    assert response.status_code == 200
    assert [query["sql"] for query in queries if "django_session" in query["sql"]] == []
    assert any("auth_user" in query["sql"] for query in queries)  # the user is read: it was signed in


@pytest.mark.django_db
def test_signing_out_ends_the_session_at_once_though_it_was_kept_in_memory(one_process, django_user_model):
    client = Client()
    client.force_login(django_user_model.objects.create_user("ann"))
    assert client.get(reverse("saga_list")).status_code == 200
    cookie = client.cookies["sessionid"].value
    client.post(reverse("logout"))
    stolen = Client()
    stolen.cookies["sessionid"] = cookie
    response = stolen.get(reverse("saga_list"))
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))
