"""At most REQUEST_SLOTS page reads and COMMAND_SLOTS commands are in Django at once in one process; the
rest wait their turn, first come first served, before Django starts on them (docs/performance.md,
"Requests at once", and "A request waits for its slot before it is lent a thread").

Each request Django runs gets a thread of its own, and past a few at once they only take turns on the
one interpreter lock, each turn costing more: a bound keeps a command's cost what it is on a quiet
server. Pages (GET, HEAD, OPTIONS) and commands wait apart, so a slow page, a long saga's archive or an
export, never holds a command up. A request waits here, in the event loop, before Django lends it a
thread (config.threads), so however many wait, the threads at work, and their database connections, are
no more than the slots. A static file takes a page's slot for the moment ServeStatic needs (browsers keep
them: hashed names, a far-future Cache-Control). Daphne hands a request over once its body is in and sends
the answer without waiting for the client, so a slow phone holds no slot for long.
"""

import asyncio

from django.conf import settings

READS = frozenset({"GET", "HEAD", "OPTIONS"})


class RequestSlots:
    """ASGI middleware: an HTTP request waits for a slot of its kind (page or command) before `app`."""

    def __init__(self, app):
        self.app = app
        self.sizes = {True: settings.REQUEST_SLOTS, False: settings.COMMAND_SLOTS}
        self._loop = None
        self._slots: dict[bool, asyncio.Semaphore] = {}

    def _slot(self, reads: bool) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        if loop is not self._loop:  # one loop in a server; tests run each in a loop of its own
            self._loop = loop
            self._slots = {reads: asyncio.Semaphore(size) for reads, size in self.sizes.items()}
        return self._slots[reads]

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        async with self._slot(scope["method"] in READS):
            await self.app(scope, receive, send)
