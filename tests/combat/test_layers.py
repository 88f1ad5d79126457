"""The embedded default's channel layer (combat.layers): Channels' in-memory layer whose expiry scan
runs at most once a second, so a frame's cost does not grow with every other socket of the process."""

import asyncio

from channels.layers import InMemoryChannelLayer
from django.utils.safestring import mark_safe

from combat import layers, live
from combat.layers import InMemoryLayer


async def test_the_expiry_scan_runs_once_a_second_not_per_message(monkeypatch):
    scans = []
    original = InMemoryChannelLayer._clean_expired
    counted = lambda self: scans.append(1) or original(self)  # noqa: E731
    monkeypatch.setattr(InMemoryChannelLayer, "_clean_expired", counted)
    layer = InMemoryLayer()
    channels = [await layer.new_channel() for _ in range(9)]
    for channel in channels:
        await layer.group_add("table", channel)
    for _ in range(50):
        await layer.group_send("table", {"type": "frame", "html": "x"})
        for channel in channels:
            assert (await layer.receive(channel))["html"] == "x"
    assert len(scans) == 1  # 50 sends and 450 receives, one scan


async def test_expired_messages_and_their_channels_still_go(monkeypatch):
    layer = InMemoryLayer(expiry=0)
    silent = await layer.new_channel()
    await layer.group_add("table", silent)
    await layer.group_send("table", {"type": "frame", "html": "never read"})
    await asyncio.sleep(0.01)
    layer.next_scan = 0  # the next second has come
    await layer.group_send("table", {"type": "frame", "html": "later"})
    assert "table" not in layer.groups or silent not in layer.groups["table"]


async def test_a_frame_reaches_every_socket_as_one_plain_string_not_a_copy_each():
    layer = InMemoryLayer()
    channels = [await layer.new_channel() for _ in range(3)]
    for channel in channels:
        await layer.group_add("table", channel)
    rendered = mark_safe("<div id='live-seq'>frame</div>")  # what a template gives
    await layer.group_send("table", layers.layer_message(live.FRAME_TYPE, rendered, first_seq=4, last_seq=5))
    received = [await layer.receive(channel) for channel in channels]
    assert {type(message["html"]) for message in received} == {str}
    assert len({id(message["html"]) for message in received}) == 1  # the copy passed it as it is
    assert received[0] == {"type": "encounter.frame", "html": rendered, "first_seq": 4, "last_seq": 5}


async def test_a_group_send_reaches_each_member_in_turn_and_a_full_channel_misses_it(monkeypatch):
    layer = InMemoryLayer(capacity=1)
    full, other = await layer.new_channel(), await layer.new_channel()
    for channel in (full, other):
        await layer.group_add("table", channel)
    await layer.send(full, {"type": "frame", "html": "unread"})
    tasks = []
    monkeypatch.setattr(asyncio, "create_task", lambda *args, **kwargs: tasks.append(1))  # Channels' own's
    await layer.group_send("table", {"type": "frame", "html": "new"})
    assert tasks == []
    assert (await layer.receive(other))["html"] == "new"
    assert (await layer.receive(full))["html"] == "unread"
    await layer.send(full, {"type": "frame", "html": "later"})
    assert (await layer.receive(full))["html"] == "later"  # "new" never went on the full channel


async def test_a_plain_message_is_copied_for_each_channel_and_any_other_deep_copied():
    layer = InMemoryLayer()
    channels = [await layer.new_channel() for _ in range(2)]
    for channel in channels:
        await layer.group_add("table", channel)
    plain = {"type": "frame", "html": "x", "first_seq": 1, "last_seq": 2, "seat": True, "troupe": None}
    await layer.group_send("table", plain)
    received = [await layer.receive(channel) for channel in channels]
    assert received == [plain, plain]
    assert len({id(message) for message in [plain, *received]}) == 3  # a dict of its own each
    nested = {"type": "frame", "html": "x", "seqs": [1, 2]}
    await layer.send(channels[0], nested)
    nested["seqs"].append(3)  # the sender's, changed after the send
    assert (await layer.receive(channels[0]))["seqs"] == [1, 2]
