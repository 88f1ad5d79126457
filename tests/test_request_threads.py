"""Issue 11: each HTTP request runs in a thread lent for it (config.threads), alone in it from its first
signal to its last, and the thread serves the next request instead of being started and joined for each."""

import asyncio
import threading

import pytest
from asgiref.sync import AsyncToSync, SyncToAsync
from channels.testing import HttpCommunicator
from django.core.signals import request_finished, request_started
from django.http import StreamingHttpResponse
from django.urls import path

from config.threads import RequestThreads, RequestThreadsHandler
from tests.deploy.profile import manage, profile_env


async def get(handler, path: str = "/accounts/login/") -> int:
    """One GET through the handler, as a server calls it, to its end (its last signal too); its status."""
    communicator = HttpCommunicator(handler, "GET", path, headers=[(b"host", b"testserver")])
    response = await communicator.get_response(timeout=10)
    await communicator.wait(timeout=10)
    return response["status"]


class Threads:
    """Which thread ran each request's first and last signal (both run in the request's own thread)."""

    def __init__(self, barrier: threading.Barrier | None = None):
        self.started: list[int] = []
        self.finished: list[int] = []
        self.barrier = barrier

    def on_started(self, **kwargs):
        self.started.append(threading.get_ident())
        if self.barrier:
            self.barrier.wait(timeout=10)  # only passes when both requests are in threads of their own

    def on_finished(self, **kwargs):
        self.finished.append(threading.get_ident())


@pytest.fixture
def seen():
    def watch(barrier=None):
        threads = Threads(barrier)
        request_started.connect(threads.on_started, dispatch_uid="test-threads-started")
        request_finished.connect(threads.on_finished, dispatch_uid="test-threads-finished")
        return threads

    yield watch
    request_started.disconnect(dispatch_uid="test-threads-started")
    request_finished.disconnect(dispatch_uid="test-threads-finished")


@pytest.mark.django_db(transaction=True)
async def test_one_thread_serves_a_request_from_first_signal_to_last_then_the_next_request(seen):
    threads = seen()
    handler = RequestThreadsHandler(RequestThreads())
    assert [await get(handler), await get(handler), await get(handler)] == [200, 200, 200]
    assert threads.started == threads.finished  # each request alone in its thread, start to end
    assert len(set(threads.started)) == 1  # and the thread lent again, not a new one each time
    assert threading.main_thread().ident not in threads.started


@pytest.mark.django_db(transaction=True)
async def test_requests_at_the_same_time_each_have_a_thread_of_their_own(seen):
    threads = seen(threading.Barrier(2))
    handler = RequestThreadsHandler(RequestThreads())
    assert await asyncio.gather(get(handler), get(handler)) == [200, 200]
    assert len(set(threads.started)) == 2
    assert sorted(threads.started) == sorted(threads.finished)
    assert len(handler.threads.idle) == 2  # both kept for what comes next


async def test_a_thread_is_lent_again_only_once_it_has_finished_what_it_was_given():
    threads = RequestThreads()
    executor, go = threads.lend(), threading.Event()
    executor.submit(go.wait, 10)  # a view still running after its client went away
    threads.give_back(executor)
    await asyncio.sleep(0.05)
    assert list(threads.idle) == []
    assert threads.lend() is not executor
    go.set()
    for _ in range(200):
        if threads.idle:
            break
        await asyncio.sleep(0.01)
    assert list(threads.idle) == [executor]
    assert threads.lend() is executor


async def test_no_more_threads_wait_idle_than_the_most_and_the_others_end():
    threads = RequestThreads(idle_max=1)
    kept, extra = threads.lend(), threads.lend()
    names = [executor.submit(lambda: threading.current_thread()).result() for executor in (kept, extra)]
    threads.give_back(kept)
    assert list(threads.idle) == [kept]  # it had finished: idle at once
    threads.give_back(extra)
    for _ in range(200):
        if not names[1].is_alive():
            break
        await asyncio.sleep(0.01)
    assert list(threads.idle) == [kept]
    assert names[0].is_alive() and not names[1].is_alive()


class Crossings:
    """Where a request's middleware and view ran, and how often it crossed to the event loop and back."""

    def __init__(self):
        self.threads: set[int] = set()
        self.to_the_loop = 0

    def middleware(self, get_response):
        def note(request):
            self.threads.add(threading.get_ident())
            response = get_response(request)
            self.threads.add(threading.get_ident())
            return response

        return note


@pytest.mark.django_db(transaction=True)
async def test_middleware_and_view_run_in_the_lent_thread_without_crossing_to_the_event_loop(
    settings, monkeypatch
):
    crossings = Crossings()
    monkeypatch.setattr("tests.test_request_threads.note_crossings", crossings.middleware, raising=False)
    # first and last: the chain's two ends (Django's own ASGI chain ran SecurityMiddleware's two halves
    # and the view in the event loop's hands, and crossed back to it before AxesMiddleware)
    settings.MIDDLEWARE = [
        "tests.test_request_threads.note_crossings",
        *settings.MIDDLEWARE,
        "tests.test_request_threads.note_crossings",
    ]
    original = AsyncToSync.__call__

    def counted(self, *args, **kwargs):
        crossings.to_the_loop += 1
        return original(self, *args, **kwargs)

    monkeypatch.setattr(AsyncToSync, "__call__", counted)
    handler = RequestThreadsHandler(RequestThreads())
    assert await get(handler) == 200
    assert len(crossings.threads) == 1 and threading.main_thread().ident not in crossings.threads
    assert crossings.to_the_loop == 0


@pytest.mark.django_db(transaction=True)
async def test_a_request_crosses_to_its_thread_once_from_its_first_signal_to_its_last(seen, monkeypatch):
    """Django's handle crossed three times (the request_started signal, the chain, the answer's close)."""
    threads = seen()
    crossings = []
    original = SyncToAsync.__call__

    def counted(self, *args, **kwargs):
        crossings.append(self.func)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(SyncToAsync, "__call__", counted)
    handler = RequestThreadsHandler(RequestThreads())
    assert await get(handler) == 200
    assert len(crossings) == 1
    assert len(threads.started) == len(threads.finished) == 1
    assert threads.started == threads.finished


STREAM = {"closed": False, "chunks": 0}


def endless(request):
    """A streamed answer that goes on until its client goes away (a long export, say)."""

    async def chunks():
        try:
            while True:
                STREAM["chunks"] += 1
                yield b"line\n"
                await asyncio.sleep(0.01)
        finally:
            STREAM["closed"] = True

    return StreamingHttpResponse(chunks())


def three(request):
    """A streamed answer of three parts."""

    async def parts():
        for part in (b"a", b"b", b"c"):
            yield part

    return StreamingHttpResponse(parts())


urlpatterns = [path("endless/", endless), path("three/", three)]


@pytest.mark.django_db(transaction=True)
async def test_a_streamed_answer_is_sent_whole_then_closed_in_the_requests_thread(seen, settings):
    settings.ROOT_URLCONF = "tests.test_request_threads"
    threads = seen()
    handler = RequestThreadsHandler(RequestThreads())
    assert await streamed(handler, "/three/") == (200, b"abc")
    assert len(threads.finished) == 1 and threads.started == threads.finished


@pytest.mark.django_db(transaction=True)
async def test_a_streamed_answer_stops_and_is_closed_when_its_client_goes_away(seen, settings):
    settings.ROOT_URLCONF = "tests.test_request_threads"
    STREAM.update(closed=False, chunks=0)
    threads = seen()
    handler = RequestThreadsHandler(RequestThreads())
    communicator = HttpCommunicator(handler, "GET", "/endless/", headers=[(b"host", b"testserver")])
    await communicator.send_input({"type": "http.request", "body": b""})
    assert (await communicator.receive_output(timeout=10))["status"] == 200
    assert (await communicator.receive_output(timeout=10))["body"] == b"line\n"
    await communicator.send_input({"type": "http.disconnect"})
    await communicator.wait(timeout=10)
    assert STREAM["closed"]
    sent = STREAM["chunks"]
    await asyncio.sleep(0.05)
    assert STREAM["chunks"] == sent  # no more made for nobody
    assert len(threads.finished) == 1 and threads.started == threads.finished


@pytest.mark.django_db(transaction=True)
async def test_a_static_file_is_served_through_it_and_a_missing_one_is_404(settings):
    settings.DEBUG = True  # ServeStatic finds the apps' files (no collectstatic in a fresh checkout)
    handler = RequestThreadsHandler(RequestThreads())
    status, body = await streamed(handler, "/static/css/covenant.css")
    assert status == 200 and b"--" in body  # the stylesheet, with its custom properties
    assert await get(handler, "/static/css/no-such-file.css") == 404


async def streamed(handler, path: str) -> tuple[int, bytes]:
    """A GET whose answer is streamed (a file), read message by message: Channels' `get_response` wants a
    body in every message, and Django ends a stream with a message that has none."""
    communicator = HttpCommunicator(handler, "GET", path, headers=[(b"host", b"testserver")])
    await communicator.send_input({"type": "http.request", "body": b""})
    start = await communicator.receive_output(timeout=10)
    body = b""
    while True:
        message = await communicator.receive_output(timeout=10)
        body += message.get("body", b"")
        if not message.get("more_body"):
            break
    await communicator.wait(timeout=10)
    return start["status"], body


async def test_a_scope_other_than_http_is_refused_as_django_refuses_it():
    with pytest.raises(ValueError, match="Django can only handle ASGI/HTTP connections"):
        await RequestThreadsHandler()({"type": "lifespan"}, None, None)


def test_the_site_serves_http_through_it(settings):
    settings.DEBUG = True  # else config.asgi wants collectstatic's manifest, which a fresh checkout lacks
    from config.admission import Admission
    from config.asgi import application

    http = application.application_mapping["http"]
    assert isinstance(http, Admission)  # commands admitted or refused first (tests/test_admission.py)
    assert isinstance(http.app, RequestThreadsHandler)


# A request's first signal runs a query and notes which SQLite connection it ran on; three requests, one
# after another, through the handler, in a fresh process on the embedded database.
KEEPS_ITS_CONNECTION = """
import asyncio
from django.core.signals import request_started
from django.db import connection
from config.threads import RequestThreads, RequestThreadsHandler
from tests.test_request_threads import get
seen = []
def note(**kwargs):
    connection.cursor().execute("SELECT 1")
    seen.append(id(connection.connection))
request_started.connect(note)
handler = RequestThreadsHandler(RequestThreads())
async def three():
    return [await get(handler) for _ in range(3)]
print(*asyncio.run(three()), len(seen), len(set(seen)))
"""


def test_on_sqlite_a_thread_lent_again_keeps_its_database_connection(tmp_path):
    """Opening a connection (the file, the PRAGMAs, Django's SQL functions) was a tenth of a correction."""
    env = profile_env(
        DATABASE_URL=f"sqlite:///{tmp_path / 'covenant.sqlite3'}",
        REDIS_URL=None,
        ALLOWED_HOSTS="testserver",
        DEBUG="true",  # the page's static files from the apps' folders: no collectstatic in a test
        BEHIND_TLS_PROXY=None,  # these requests come over plain HTTP: no redirect to HTTPS
    )
    result = manage("shell", "--no-imports", "-c", KEEPS_ITS_CONNECTION, env=env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["200", "200", "200", "3", "1"]  # three requests, one connection


@pytest.mark.parametrize(("changes", "kept"), [({"DATABASE_URL": None}, "None"), ({}, "0")])
def test_connections_are_kept_on_sqlite_and_pooled_on_postgresql(changes, kept):
    """Without DATABASE_URL (the embedded default) each thread keeps its own; the profile's PostgreSQL has
    psycopg's pool keep them (Django's pool wants CONN_MAX_AGE 0)."""
    show = "from django.conf import settings; print(settings.DATABASES['default']['CONN_MAX_AGE'])"
    result = manage("shell", "--no-imports", "-c", show, env=profile_env(**changes))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == kept
