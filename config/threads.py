"""Django's request threads, kept for the next request instead of started and joined for each one.

Under ASGI, Django runs each request's sync code (its signals, middleware and view) in a thread of that
request alone: asgiref's `ThreadSensitiveContext` starts a thread when the request first needs one and
joins it when the request ends. Starting and joining cost about a millisecond of CPU a request, half of
it in the event loop (docs/performance.md). Here a request borrows an idle thread instead, still alone
in it for the whole request, and gives it back after: `ThreadSensitiveContext(executor=...)`, asgiref's
own way to run a context in a thread its caller keeps. As under WSGI, a thread serves many requests one
after another; Django's database connections belong to the thread and are closed at the end of each
request as before (`CONN_MAX_AGE` 0).

It overrides two of Django's handler methods (`load_middleware`, `handle`), calls the parts of Django's
`handle` it keeps, and relies on asgiref's executor-taking context: what it relies on is asserted in
tests/test_django_internals.py, which fails by name when an upgrade changes it.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections import deque
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.http import FileResponse
from django.urls import set_script_prefix

IDLE_THREADS = 32  # at most this many wait for the next request; a busier moment's extra threads end


class RequestThread(ThreadPoolExecutor):
    """One thread, lent to one request at a time, that knows when it has finished all it was given."""

    def __init__(self) -> None:
        super().__init__(max_workers=1, thread_name_prefix="request")
        self.lock = threading.Lock()
        self.busy = 0
        self.when_idle = None

    def submit(self, fn, /, *args, **kwargs):
        with self.lock:
            self.busy += 1
        future = super().submit(fn, *args, **kwargs)
        future.add_done_callback(self._done)  # before asyncio's own: counted before the caller hears
        return future

    def _done(self, future) -> None:
        with self.lock:
            self.busy -= 1
            then = self.when_idle if self.busy == 0 else None
            if then:
                self.when_idle = None
        if then:
            then(self)


class RequestThreads:
    """Threads lent to one request at a time."""

    def __init__(self, idle_max: int = IDLE_THREADS) -> None:
        self.idle: deque[RequestThread] = deque()
        self.idle_max = idle_max

    def lend(self) -> RequestThread:
        """An idle thread, or a new one when none is idle."""
        try:
            return self.idle.pop()
        except IndexError:
            return RequestThread()

    def give_back(self, thread: RequestThread) -> None:
        """Idle again now, or once it has finished all it was given: a request whose client went away may
        still be running its view there."""
        with thread.lock:
            if thread.busy:
                thread.when_idle = self._rest
                return
        self._rest(thread)

    def _rest(self, thread: RequestThread) -> None:
        """Kept for the next request, or ended when enough are kept (deque's append is thread-safe)."""
        if len(self.idle) < self.idle_max:
            self.idle.append(thread)
        else:
            thread.shutdown(wait=False)


class RequestThreadsHandler(ASGIHandler):
    """Django's ASGI handler, each HTTP request in a thread lent by `RequestThreads`, where its first signal,
    its middleware and view, and its answer's closing run as one sync call, as under WSGI: the request
    crosses from the event loop to its thread once, and back once. Django's own ASGI chain is async at its
    ends (SecurityMiddleware's halves, and the view called from `_get_response_async`), so around sync
    middleware a request made five round trips between the two, and its `handle` makes three more: the
    request_started signal, the chain, the answer's `close` (docs/performance.md)."""

    def __init__(self, threads: RequestThreads | None = None) -> None:
        super().__init__()
        self.threads = threads or RequestThreads()

    def load_middleware(self, is_async=False):
        super().load_middleware(is_async=False)

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await super().__call__(scope, receive, send)  # Django's own refusal
            return
        thread = self.threads.lend()
        try:
            async with ThreadSensitiveContext(executor=thread):
                await self.handle(scope, receive, send)
        finally:
            self.threads.give_back(thread)

    async def handle(self, scope, receive, send) -> None:
        """Django's `handle`, its request's sync part in one crossing to the request's thread (`answer`).
        Django listens for the client going away while the view runs, which a sync view cannot heed (it
        runs to its end in its thread either way, and Daphne drops an answer to a client that has gone);
        a streamed answer is still stopped when its client goes (`stream`)."""
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        set_script_prefix(get_script_prefix(scope))
        try:
            response = await sync_to_async(self.answer, thread_sensitive=True)(scope, body_file)
            if response.streaming:
                await self.stream(response, receive, send)
            else:
                await self.send_response(response, send)
        finally:
            body_file.close()

    def answer(self, scope, body_file):
        """In the request's thread: the request_started signal, the request made and answered, as Django's
        `handle` and `run_get_response` do, and the answer closed (request_finished) unless it is streamed."""
        signals.request_started.send(sender=self.__class__, scope=scope)
        request, response = self.create_request(scope, body_file)
        if request is not None:
            response = self.get_response(request)
            response._handler_class = self.__class__
            if isinstance(response, FileResponse):
                response.block_size = self.chunk_size
        if not response.streaming:
            response.close()
        return response

    async def stream(self, response, receive, send) -> None:
        """A streamed answer sent as Django's `handle` sends it, stopped if the client goes away first;
        closed after, in the request's thread (request_finished)."""
        sending = asyncio.create_task(self.send_response(response, send))
        listening = asyncio.create_task(self.listen_for_disconnect(receive))
        try:
            await asyncio.wait([listening, sending], return_when=asyncio.FIRST_COMPLETED)
            for task in (listening, sending):
                task.cancel()  # the one still running: done ones ignore it
            for task in (listening, sending):
                with contextlib.suppress(asyncio.CancelledError, RequestAborted):
                    await task
        finally:
            await sync_to_async(response.close, thread_sensitive=True)()
