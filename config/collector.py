"""CPython's garbage collector, set for a server that lives long and holds many sockets.

A full collection walks every object the process holds: Django's own, and each open socket's protocol,
consumer and queues. With 1,125 sockets open that was about 300,000 objects and 200 ms a collection, and
CPython's defaults ran one every three seconds under load (docs/performance.md, "The garbage collector").
"""

from __future__ import annotations

import gc

FULL_COLLECTION_EVERY = 100
"""Collections of the middle generation between two full ones: CPython's default is 10."""


def settle() -> None:
    """Once start-up is done: collect, freeze what is left (the settings, the apps and their models, which
    live as long as the process) out of every later collection, and make full collections ten times rarer."""
    gc.collect()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_COLLECTION_EVERY)
