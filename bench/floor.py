"""The floor: a bare `websockets` broadcast server in one process, the least any push server costs.

`python bench/floor.py --port N --size BYTES` serves two kinds of socket:
- `/ws/<table>/`: a listener; whatever it sends (the bench's resume) is ignored;
- `/cmd/<table>/`: the table's commander; each message is a sequence number, and the server sends
  every listener of that table one frame of `--size` bytes that starts like Covenant's
  (`<div id="live-seq" data-first-seq="N" data-last-seq="N">`), so the bench reads both alike.
"""

from __future__ import annotations

import argparse
import asyncio
from collections import defaultdict

from websockets import broadcast
from websockets.asyncio.server import serve

LISTENERS: dict[str, set] = defaultdict(set)


def frame(seq: int, size: int) -> str:
    """A frame of `size` bytes covering `seq`."""
    head = f'<div id="live-seq" data-first-seq="{seq}" data-last-seq="{seq}"></div>'
    return head + "x" * max(0, size - len(head))


async def listen(connection, table: str) -> None:
    """Keep a listener in its table's set until it goes."""
    LISTENERS[table].add(connection)
    try:
        async for _ in connection:
            pass
    finally:
        LISTENERS[table].discard(connection)


async def command(connection, table: str, size: int) -> None:
    """Broadcast one frame per sequence number received."""
    async for message in connection:
        broadcast(LISTENERS[table], frame(int(message), size))


def handler_for(size: int):
    """The connection handler, routing on the path."""

    async def handler(connection) -> None:
        parts = connection.request.path.strip("/").split("/")
        if len(parts) == 2 and parts[0] == "ws":
            await listen(connection, parts[1])
        elif len(parts) == 2 and parts[0] == "cmd":
            await command(connection, parts[1], size)
        else:
            await connection.close(4404)

    return handler


async def serve_forever(port: int, size: int) -> None:
    """Serve on loopback until killed; print "ready" once listening."""
    async with serve(handler_for(size), "127.0.0.1", port, max_size=None, compression=None):
        print("ready", flush=True)
        await asyncio.Future()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--size", type=int, required=True, help="bytes per frame")
    args = parser.parse_args()
    asyncio.run(serve_forever(args.port, args.size))


if __name__ == "__main__":
    main()
