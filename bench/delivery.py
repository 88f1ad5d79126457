"""A command's two frames delivered to its sockets, in this one process: the channel layer's group sends and
each socket's consumer receiving its frame, dispatching it and sending it on (to a stand-in for Daphne that
encodes the text, as Daphne does before autobahn frames it). What it leaves out: Daphne, autobahn and
Twisted (the frame, the write), and the HTTP request; `bench/fanout.py` measures those with the rest.

Run: `.venv/bin/python bench/delivery.py` (`--commands 2000 --rounds 5 --players 8`). Each round times the
same commands through each way in turn, and prints the process's CPU a command, the median
of the rounds:

- Channels' own: Channels' in-memory send (a deep copy of each message for each socket) and its dispatch
  loop (`channels.utils.await_many_dispatch`: a task for each message, `asyncio.wait` on them);
- the site's layer's send (`combat.layers.InMemoryLayer.send`: a plain message copied as a dict), with
  Channels' dispatch loop;
- the site's (that send, and `combat.consumers.in_turn`).

The group send is the site's in all three (`InMemoryLayer.group_send`). The frames are the fan-out bench's
sizes (5,320 characters for the storyguide, 2,086 for the players) and carry their sequence numbers, as
`combat.live.broadcast` sends them; `make test` runs this at a few commands (tests/test_benches.py).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SIZES = {"storyguide": 5320, "players": 2086}


def ways():
    """(name, layer class, consumer class) for each way a frame may go."""
    from channels.consumer import await_many_dispatch
    from channels.exceptions import StopConsumer
    from channels.layers import InMemoryChannelLayer

    from combat import consumers
    from combat.consumers import EncounterConsumer
    from combat.layers import InMemoryLayer

    class Seated(EncounterConsumer):
        """An encounter's socket, already resumed: no database, no replay."""

        async def connect(self) -> None:
            self.encounter_id, self.audience = 1, self.scope["audience"]
            self.group, self.last_sent, self.held = f"encounter-1-{self.audience}", 0, []
            if await self.join(self.group):
                await self.accept()

    class ChannelsDispatch(Seated):
        """The same socket, its messages read by Channels' own loop."""

        async def serve(self, scope, receive, send) -> None:
            self.scope, self.base_send = scope, send
            self.channel_layer = consumers.get_channel_layer(self.channel_layer_alias)
            self.channel_name = await self.channel_layer.new_channel()
            self.channel_receive = functools.partial(self.channel_layer.receive, self.channel_name)
            with contextlib.suppress(StopConsumer):
                await await_many_dispatch([receive, self.channel_receive], self.dispatch)

    class ChannelsSend(InMemoryLayer):
        """The site's layer with Channels' own send."""

        send = InMemoryChannelLayer.send

    return [
        ("Channels' own (deep copies, await_many_dispatch)", ChannelsSend, ChannelsDispatch),
        ("the site's send, Channels' dispatch", InMemoryLayer, ChannelsDispatch),
        ("the site's (send, in_turn)", InMemoryLayer, Seated),
    ]


async def cpu_a_command(layer_class, consumer_class, players: int, commands: int) -> float:
    """CPU milliseconds a command: its two frames through a fresh layer to 1 + `players` sockets."""
    from combat import consumers, live
    from combat.layers import layer_message

    layer = layer_class()
    consumers.get_channel_layer = lambda alias: layer  # the consumers' layer: this way's, not the settings'
    sent, done = [0], asyncio.Event()
    wanted = [0]

    async def daphne(message: dict) -> None:
        if message["type"] == "websocket.send":
            message["text"].encode("utf8")
            sent[0] += 1
            if sent[0] == wanted[0]:
                done.set()

    inputs, sockets = [], []
    for audience in ["storyguide"] + ["players"] * players:
        consumer = consumer_class()
        inputs.append(asyncio.Queue())
        inputs[-1].put_nowait({"type": "websocket.connect"})
        scope = {"type": "websocket", "audience": audience, "url_route": {"kwargs": {"encounter_id": 1}}}
        sockets.append(asyncio.ensure_future(consumer(scope, inputs[-1].get, daphne)))
    while sum(len(members) for members in layer.groups.values()) < 1 + players:
        await asyncio.sleep(0.01)
    html = {audience: "x" * size for audience, size in SIZES.items()}
    start = time.process_time()
    for seq in range(1, commands + 1):
        frames = [
            (
                f"encounter-1-{audience}",
                layer_message(live.FRAME_TYPE, html[audience], first_seq=seq, last_seq=seq),
            )
            for audience in ("players", "storyguide")
        ]
        done.clear()
        wanted[0] = sent[0] + 1 + players
        await live.send_in_turn(layer, frames)
        await done.wait()
    spent = (time.process_time() - start) / commands * 1000
    for queue in inputs:
        queue.put_nowait({"type": "websocket.disconnect", "code": 1000})
    await asyncio.gather(*sockets)
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--commands", type=int, default=2000, help="of each way, each round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--players", type=int, default=8, help="the players' sockets (plus the storyguide's)")
    args = parser.parse_args()
    if min(args.commands, args.rounds, args.players) < 1:
        parser.error("--commands, --rounds and --players must be at least 1")
    from bench.archive import setup_django

    with tempfile.TemporaryDirectory(prefix="covenant-delivery-") as folder:
        setup_django(Path(folder) / "bench.sqlite3")
        measure(args)


def measure(args) -> None:
    """Each way in turn, each round; the medians printed."""
    found: dict[str, list[float]] = {}
    for _ in range(args.rounds):
        for name, layer_class, consumer_class in ways():
            spent = asyncio.run(cpu_a_command(layer_class, consumer_class, args.players, args.commands))
            found.setdefault(name, []).append(spent)
    print(
        f"a command's two frames to {1 + args.players} sockets, CPU a command"
        f" (median of {args.rounds} rounds):"
    )
    for name, values in found.items():
        shown = ", ".join(f"{value:.3f}" for value in values)
        print(f"  {name}: {statistics.median(values):.3f} ms ({shown})")


if __name__ == "__main__":
    main()
