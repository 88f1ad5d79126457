"""Issue 35, item 3: a frame pushed to a socket whose close has begun is dropped, not a traceback.

Daphne's websocket (Autobahn) refuses a send once a close handshake is under way ("Attempt to send on a
closed protocol"), and Daphne tells the application only when the connection is gone. So when two people
leave at once, or one is shown out (4403) while another leaves, the second's "who is here" push reached a
socket that was closing and the server logged the refusal as an exception inside the application. On a real
Daphne, with the in-memory layer: Bob is taken out of the saga, his next beat is answered with 4403, and he
does not answer the close (a slow phone); Alice leaves meanwhile, and her page's push reaches his socket.
"""

from __future__ import annotations

import contextlib
import json
import re
import time

import pytest
from django.db import connections

from campaign.models import Membership
from tests.browser.server import DaphneServer, database_url

from .conftest import SERVES_THE_DUEL, Table
from .live_socket import CLOSE, LiveSocket
from .test_redis_path import signed_in

pytestmark = pytest.mark.django_db(transaction=True)

PERSON = re.compile(r'data-state="(\w+)"\s+data-testid="presence-(\w+)"')


def beat(socket: LiveSocket) -> None:
    socket.send_text(json.dumps({"type": "heartbeat", "visible": True}))


def until_shown(socket: LiveSocket, seconds: float = 10, **states: str) -> None:
    """Read `socket`'s frames until who is here shows each person named in their state."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with contextlib.suppress(TimeoutError):
            frame = socket.receive(timeout=0.2)
            if 'id="presence"' in frame and {(s, n) for n, s in states.items()} <= set(PERSON.findall(frame)):
                return
    raise AssertionError(f"who is here did not show {states} within {seconds} s")


def until_closed_by_the_server(socket: LiveSocket, seconds: float = 10) -> int:
    """Read frames until the server's close frame, and leave it unanswered; its close code."""
    deadline = time.monotonic() + seconds
    while True:
        _, opcode, payload = socket._read_frame(deadline)
        if opcode == CLOSE:
            return int.from_bytes(payload[:2], "big")


def test_a_push_to_a_socket_whose_close_has_begun_is_no_traceback(tmp_path):
    table = Table()
    path = f"/ws/encounters/{table.encounter.pk}/"
    db_url = database_url(connections["default"].settings_dict)
    with DaphneServer(db_url, tmp_path / "daphne.log", SERVES_THE_DUEL) as server:
        guide, alice, bob = (
            LiveSocket.open(server.host, server.port, path, signed_in(user))
            for user in (table.storyguide, table.alice, table.bob)
        )
        for socket in (guide, alice, bob):
            beat(socket)
        until_shown(guide, alice="here", bob="here")

        Membership.objects.filter(saga=table.saga, user=table.bob).delete()
        beat(bob)
        assert until_closed_by_the_server(bob) == 4403  # and Bob's phone does not answer yet
        alice.close()
        until_shown(guide, alice="gone")
        time.sleep(0.3)  # Alice's push has reached Bob's socket (the guide's page had it first)
        bob.sock.close()
        guide.close()
        time.sleep(0.5)  # both disconnects run
        log = server.log_tail()
    assert "Traceback" not in log and "closed protocol" not in log, log
    assert "WSDISCONNECT" in log  # the log is the server's, and it saw the sockets go
