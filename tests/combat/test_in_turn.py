"""The live consumers' dispatch loop (combat.consumers.in_turn): each source's messages dispatched one at a
time in the order they came, a source's error raised after what came before it, and nothing left running."""

import asyncio

import pytest

from combat.consumers import in_turn


async def test_messages_are_dispatched_one_at_a_time_in_their_order():
    socket, layer = asyncio.Queue(), asyncio.Queue()
    dispatched, busy = [], []

    async def dispatch(message):
        busy.append(1)
        assert len(busy) == 1  # never two at once
        await asyncio.sleep(0)
        dispatched.append(message)
        busy.pop()
        if message == "stop":
            raise LookupError("done")

    for n in range(3):
        layer.put_nowait(f"frame {n}")
    loop = asyncio.ensure_future(in_turn([socket.get, layer.get], dispatch))
    await asyncio.sleep(0.01)
    socket.put_nowait("stop")
    with pytest.raises(LookupError):
        await asyncio.wait_for(loop, 1)
    assert dispatched == ["frame 0", "frame 1", "frame 2", "stop"]


async def test_a_sources_error_is_raised_after_its_messages_before_and_the_readers_end():
    tasks_before = asyncio.all_tasks()
    given = iter(["one", "two"])

    async def failing():
        try:
            return next(given)
        except StopIteration:
            raise ConnectionError("the layer is gone") from None

    never = asyncio.Event()
    dispatched = []

    async def dispatch(message):
        dispatched.append(message)

    with pytest.raises(ConnectionError, match="the layer is gone"):
        await asyncio.wait_for(in_turn([never.wait, failing], dispatch), 1)
    assert dispatched == ["one", "two"]
    assert asyncio.all_tasks() == tasks_before  # the other source's reader was cancelled and awaited


async def test_while_a_message_is_dispatched_at_most_two_more_are_read_ahead():
    channel, release = asyncio.Queue(), asyncio.Event()
    for n in range(10):
        channel.put_nowait(n)
    never = asyncio.Event()

    async def dispatch(message):
        await release.wait()

    loop = asyncio.ensure_future(in_turn([never.wait, channel.get], dispatch))
    for _ in range(20):
        await asyncio.sleep(0)
    assert channel.qsize() == 7  # one dispatched, one in the inbox, one waiting in its reader
    loop.cancel()
    with pytest.raises(asyncio.CancelledError):
        await loop
