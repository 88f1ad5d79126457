"""At most REQUEST_SLOTS page reads and COMMAND_SLOTS commands work in Django at once in one process; the
rest wait their turn, first come first served (docs/performance.md, "Requests at once").

Each request Django runs gets a thread of its own, and past a few at once they only take turns on the
one interpreter lock, each turn costing more: a bound keeps a command's cost what it is on a quiet
server. Pages (GET, HEAD, OPTIONS) and commands wait apart, so a slow page, a long saga's archive or an
export, never holds a command up. The slot is held while Django works on the request, not while its
body comes in or its answer goes out, so a slow phone holds none.
"""

import asyncio

from asgiref.sync import markcoroutinefunction
from django.conf import settings

READS = frozenset({"GET", "HEAD", "OPTIONS"})


class RequestSlots:
    """Middleware: waits for a slot of the request's kind (page or command) before the rest of Django."""

    sync_capable = False
    async_capable = True

    def __init__(self, get_response):
        self.get_response = get_response
        self.sizes = {True: settings.REQUEST_SLOTS, False: settings.COMMAND_SLOTS}
        self._loop = None
        self._slots: dict[bool, asyncio.Semaphore] = {}
        markcoroutinefunction(self)

    def _slot(self, reads: bool) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        if loop is not self._loop:  # one loop in a server; tests run each in a loop of its own
            self._loop = loop
            self._slots = {reads: asyncio.Semaphore(size) for reads, size in self.sizes.items()}
        return self._slots[reads]

    async def __call__(self, request):
        async with self._slot(request.method in READS):
            return await self.get_response(request)
