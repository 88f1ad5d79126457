"""The encounter websocket under hostile frames: every frame is answered (an error frame or the
replay), and the consumer survives to answer a good resume after them. The message types are read
from the consumer's own table, so a new one is fuzzed without anyone listing it."""

from __future__ import annotations

import asyncio
import json

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from combat import consumers
from combat.consumers import MAX_DEPTH, MAX_FRAME, MESSAGE_TYPES, RATE_LIMIT, RateLimit, nesting, read_message
from combat.routing import websocket_urlpatterns
from tests.arsmagica.conftest import Table

from .conftest import FUZZ, TALLY

pytestmark = pytest.mark.django_db(transaction=True)
TIMEOUT = 10  # seconds to wait for a frame: only a failing test waits it out, and a loaded CI machine is slow

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)
messages = st.fixed_dictionaries(
    {"type": st.sampled_from([*MESSAGE_TYPES, "nonsense", ""])},
    optional={"last_seq": json_values | st.integers(min_value=-(2**70), max_value=2**70)},
)
frames = st.one_of(
    messages.map(json.dumps),
    json_values.map(json.dumps),
    st.text(max_size=200),
    st.integers(1, 100_000).map(lambda n: "[" * n + "]" * n),
    st.integers(1, 6000).map(lambda n: '{"type": "resume", "last_seq": ' + "9" * n + "}"),
    st.integers(MAX_FRAME - 10, MAX_FRAME * 4).map(lambda n: json.dumps({"type": "resume", "pad": "x" * n})),
    st.binary(max_size=100),
)


async def _answered(encounter_id, user, sent: list) -> list[str]:
    comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/encounters/{encounter_id}/")
    comm.scope["user"] = user
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert connected
    answers = []
    try:
        for frame in [*sent, json.dumps({"type": "resume", "last_seq": 0})]:
            key = "bytes" if isinstance(frame, bytes) else "text"
            await comm.send_input({"type": "websocket.receive", key: frame})
            answers.append(await comm.receive_from(timeout=TIMEOUT))
            TALLY["ws"] += 1
    finally:
        await comm.disconnect()
    return answers


@pytest.fixture
def live_table(db, monkeypatch):
    monkeypatch.setattr(consumers, "RATE_LIMIT", 10**6)  # the rate limit has its own test below
    return Table()


@settings(
    FUZZ,
    max_examples=40,
    suppress_health_check=[*FUZZ.suppress_health_check, HealthCheck.function_scoped_fixture],
)
@given(sent=st.lists(frames, min_size=1, max_size=8))
def test_every_frame_is_answered_and_the_socket_survives(live_table, sent):
    try:
        answers = asyncio.run(_answered(live_table.encounter.pk, live_table.storyguide, sent))
    except Exception:
        TALLY["ws_dead"] += 1
        raise
    assert len(answers) == len(sent) + 1
    assert 'id="live-seq"' in answers[-1]  # the good resume after the hostile frames: the replay


def test_a_frame_nested_past_the_limit_is_refused_before_parsing():
    with pytest.raises(ValueError, match="nested too deep"):
        read_message("[" * 1000 + "]" * 1000)
    assert nesting('{"a": [1, {"b": "[[[["}]}') == 3
    assert MAX_DEPTH >= 1


def test_a_frame_past_the_size_limit_is_refused():
    with pytest.raises(ValueError, match="too long"):
        read_message(json.dumps({"type": "resume", "last_seq": 1, "pad": "x" * MAX_FRAME}))


def test_a_5000_digit_last_seq_is_refused_not_crashed_on():
    with pytest.raises(ValueError):
        consumers.parse_resume('{"type": "resume", "last_seq": ' + "9" * 5000 + "}")


def test_the_rate_limit_allows_twenty_a_second_then_refuses_until_the_next_second():
    now = [0.0]
    limit = RateLimit(clock=lambda: now[0])
    assert all(limit.allow() for _ in range(RATE_LIMIT))
    assert not limit.allow()
    now[0] = 1.0
    assert limit.allow()


async def test_a_flood_of_frames_is_answered_with_an_error_frame_and_the_socket_stays(db):
    table = await database_sync_to_async(Table)()  # then closes its connection: none left to the collector
    comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/encounters/{table.encounter.pk}/")
    comm.scope["user"] = table.storyguide
    assert (await comm.connect(timeout=TIMEOUT))[0]
    replies = []
    for _ in range(RATE_LIMIT + 5):
        await comm.send_to(text_data="{}")
        replies.append(json.loads(await comm.receive_from(timeout=TIMEOUT))["error"])
    await comm.disconnect()
    assert replies[-1] == f"Too many messages: at most {RATE_LIMIT} a second."
    assert replies[0].startswith("Unknown message")


async def test_an_unknown_websocket_path_is_refused_without_an_error():
    comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), "/ws/nowhere/")
    connected, code = await comm.connect(timeout=TIMEOUT)
    assert not connected
    huge = WebsocketCommunicator(URLRouter(websocket_urlpatterns), "/ws/encounters/" + "9" * 30 + "/")
    assert not (await huge.connect(timeout=TIMEOUT))[0]
