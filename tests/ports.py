"""Loopback ports for the servers a test starts itself (a Daphne, a bench's servers, a TLS endpoint)."""

import random
import socket


def free_port(*offsets: int) -> int:
    """A loopback port P nobody listens on right now, and P + each of `offsets` too (a bench's second Daphne
    and its floor), below the range Linux hands out to outgoing connections (32768 up), so that a browser's
    or a database client's socket does not take one of them before the server listens."""
    for _ in range(200):
        base = random.randrange(20_000, 32_000 - max(offsets, default=0))
        if all(_unused(base + offset) for offset in (0, *offsets)):
            return base
    raise RuntimeError("no free loopback ports between 20000 and 32000")


def _unused(port: int) -> bool:
    """Whether nothing is bound to the loopback port now."""
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True
