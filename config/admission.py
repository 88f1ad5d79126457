"""Admission control: past what one process can do, a command is refused at once (503 with Retry-After)
instead of waiting its turn for ever, and what is admitted is done at the process's full speed.

A command (a POST under /encounters/: every view that changes an encounter lives there) waits, in the event
loop and before Django lends it a thread (config.threads), for one of COMMAND_SLOTS places in Django, first
come first served. While it waits it holds nothing: no thread, no database connection, no SQLite lock. A
command is admitted to the queue only if the commands ahead of it would be through within COMMAND_WAIT_MS,
reckoned from how long the last commands held their place (the median of the last KEPT, so that one
command caught in a pause, a full garbage collection say, does not make the queue look full); otherwise it
is answered at once with 503 and `Retry-After` (the seconds until the queue ahead of it would have
drained), before any of it runs, so nothing is half-applied and sending it again applies it once (the
version check). One admitted but still waiting after twice COMMAND_WAIT_MS (the process slowed down under
it) is refused the same way.

What is never refused (docs/deployment.md, "Under overload"): a page or fragment load (a GET: a person who
cannot see the table cannot play, and a read takes no write lock), a socket (it carries the frames of the
commands that were done, and a refused socket would only knock again), a static file (ServeStatic, in the
event loop, and cached by browsers for good) and any other POST (logging in, a saga's settings): those are
rare, and a refusal there would help nobody.

Why a queue in front of Django rather than the database's own waiting: on SQLite every command waited for
the one write lock inside its transaction, up to the 20 s busy timeout, and past it failed "database is
locked" (a 500); on PostgreSQL, for a connection from the pool. Each waiting command held a thread, and all
of them took turns on the one interpreter lock, so past the knee every command got slower, and frames were
late or lost (docs/performance.md, "Overload").
"""

from __future__ import annotations

import asyncio
import functools
import math
import statistics
import time
from collections import deque

from csp.utils import build_policy
from django.conf import settings
from django.template.loader import render_to_string

from combat.answers import busy_message

COMMANDS = "/encounters/"  # where every view that changes an encounter lives (its path's start)
READS = frozenset({"GET", "HEAD", "OPTIONS"})
KEPT = 15  # a command's time in Django is reckoned as the median of the last this many


class Admission:
    """ASGI middleware: commands wait for a place in `app` (COMMAND_SLOTS), or are refused with 503 at once
    when the wait ahead of them is longer than COMMAND_WAIT_MS; everything else goes straight on."""

    def __init__(self, app, slots: int | None = None, wait_ms: int | None = None) -> None:
        self.app = app
        self.slots = slots or settings.COMMAND_SLOTS
        self.wait = (wait_ms if wait_ms is not None else settings.COMMAND_WAIT_MS) / 1000
        self.held = 0.05  # seconds a command holds its place: the median of `self.times`
        self.times: deque[float] = deque(maxlen=KEPT)
        self.busy = 0  # commands in `app` now
        self.queue: deque[asyncio.Future] = deque()  # commands waiting, first come first

    @staticmethod
    def is_command(scope) -> bool:
        """A POST (any method but a read) under /encounters/."""
        if scope["type"] != "http" or scope["method"] in READS:
            return False
        return scope["path"].removeprefix(scope.get("root_path", "")).startswith(COMMANDS)

    def wait_ahead(self) -> float:
        """Seconds until the commands ahead of a new one would be through."""
        return (len(self.queue) + self.busy - self.slots + 1) * self.held / self.slots

    async def __call__(self, scope, receive, send) -> None:
        if not self.is_command(scope):
            await self.app(scope, receive, send)
            return
        if self.busy >= self.slots or self.queue:
            ahead = self.wait_ahead()
            if ahead > self.wait:
                await self.refuse(scope, send, ahead)
                return
            turn = asyncio.get_running_loop().create_future()
            self.queue.append(turn)
            try:
                await asyncio.wait_for(asyncio.shield(turn), 2 * self.wait)
            except TimeoutError:
                if not turn.done():  # else its turn came as the time ran out: it holds its place now
                    self.queue.remove(turn)
                    await self.refuse(scope, send, self.wait_ahead())
                    return
            except BaseException:  # cancelled (the server stops, the client went): give back what it had
                if turn.done():
                    self.next()
                else:
                    self.queue.remove(turn)
                raise
        else:
            self.busy += 1
        started = time.monotonic()
        try:
            await self.app(scope, receive, send)
        finally:
            self.times.append(time.monotonic() - started)
            self.held = statistics.median(self.times)
            self.next()

    def next(self) -> None:
        """A place is free: the first in the queue takes it, else it stays free."""
        while self.queue:
            turn = self.queue.popleft()
            if not turn.done():
                turn.set_result(None)
                return
        self.busy -= 1

    async def refuse(self, scope, send, ahead: float) -> None:
        """Answer 503 at once (`refusal`), the seconds to wait from the queue ahead."""
        status, headers, body = refusal(scope, max(1, math.ceil(ahead)))
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})


def refusal(scope, seconds: int) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
    """503, Retry-After, and the message (combat.answers.busy_message): a fragment for htmx (the page shows
    it beside the button: static/js/commands.js), else a page of the site's own."""
    htmx = any(name == b"hx-request" for name, _ in scope.get("headers", ()))
    template = "combat/_error.html" if htmx else "503_busy.html"
    body = render_to_string(template, {"message": busy_message(seconds)}).encode()
    headers = [
        (b"content-type", b"text/html; charset=utf-8"),
        (b"content-length", str(len(body)).encode()),
        (b"retry-after", str(seconds).encode()),
        (b"cache-control", b"no-store"),
        (b"x-content-type-options", b"nosniff"),
        (b"content-security-policy", policy()),
    ]
    return 503, headers, body


@functools.cache
def policy() -> bytes:
    """The site's Content-Security-Policy (config.settings' CONTENT_SECURITY_POLICY) as django-csp's
    middleware writes it, for an answer that never reaches Django's middleware; built at the first refusal."""
    return build_policy().encode()
