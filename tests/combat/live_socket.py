"""A small blocking websocket client (RFC 6455) for tests against a real Daphne: the handshake with
a session cookie and an Origin, masked text frames out, text and close frames in, pings answered."""

from __future__ import annotations

import base64
import os
import socket
import struct
import time

TEXT, CLOSE, PING, PONG, CONTINUATION = 0x1, 0x8, 0x9, 0xA, 0x0


class Closed(Exception):
    """The server closed the websocket; `code` is its close code (1005 when it gave none)."""

    def __init__(self, code: int):
        super().__init__(f"closed with {code}")
        self.code = code


class Refused(Exception):
    """The server answered the handshake with an HTTP status instead of 101."""


class LiveSocket:
    """`LiveSocket.open(host, port, path, cookies)`; `send_json`, `receive(timeout)`, `close()`."""

    def __init__(self, sock: socket.socket):
        self.sock = sock
        self.buffer = b""

    @classmethod
    def open(cls, host: str, port: int, path: str, cookies: dict[str, str]) -> LiveSocket:
        """Connect and complete the handshake; Refused when the server answers with a status."""
        sock = socket.create_connection((host, port), timeout=10)
        key = base64.b64encode(os.urandom(16)).decode()
        cookie = "; ".join(f"{name}={value}" for name, value in cookies.items())
        request = (
            f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nOrigin: http://{host}:{port}\r\n"
            f"Cookie: {cookie}\r\n\r\n"
        )
        sock.sendall(request.encode())
        live = cls(sock)
        status = live._read_until(b"\r\n\r\n", time.monotonic() + 10).split(b"\r\n", 1)[0]
        if b" 101 " not in status:
            sock.close()
            raise Refused(status.decode("latin-1"))
        return live

    def send_text(self, text: str) -> None:
        """One masked text frame."""
        self._send_frame(TEXT, text.encode())

    def receive(self, timeout: float) -> str:
        """The next text message; Closed on a close frame, TimeoutError when nothing comes in time."""
        deadline = time.monotonic() + timeout
        parts: list[bytes] = []
        while True:
            fin, opcode, payload = self._read_frame(deadline)
            if opcode == PING:
                self._send_frame(PONG, payload)
            elif opcode == CLOSE:
                code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else 1005
                self.close(payload[:2])
                raise Closed(code)
            elif opcode in (TEXT, CONTINUATION):
                parts.append(payload)
                if fin:
                    return b"".join(parts).decode()

    def close(self, code: bytes = struct.pack("!H", 1000)) -> None:
        """Send a close frame (1000, or the server's code echoed) and drop the connection."""
        try:
            self._send_frame(CLOSE, code)
        except OSError:
            pass  # already gone
        self.sock.close()

    def _send_frame(self, opcode: int, payload: bytes) -> None:
        mask = os.urandom(4)
        length = len(payload)
        if length < 126:
            header = struct.pack("!BB", 0x80 | opcode, 0x80 | length)
        elif length < 1 << 16:
            header = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, length)
        else:
            header = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, length)
        masked = bytes(byte ^ mask[i % 4] for i, byte in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def _read_frame(self, deadline: float) -> tuple[bool, int, bytes]:
        first, second = self._read_exact(2, deadline)
        length = second & 0x7F
        if length == 126:
            length = struct.unpack("!H", self._read_exact(2, deadline))[0]
        elif length == 127:
            length = struct.unpack("!Q", self._read_exact(8, deadline))[0]
        return bool(first & 0x80), first & 0x0F, self._read_exact(length, deadline)

    def _read_exact(self, size: int, deadline: float) -> bytes:
        while len(self.buffer) < size:
            self._fill(deadline)
        data, self.buffer = self.buffer[:size], self.buffer[size:]
        return data

    def _read_until(self, marker: bytes, deadline: float) -> bytes:
        while marker not in self.buffer:
            self._fill(deadline)
        data, _, self.buffer = self.buffer.partition(marker)
        return data

    def _fill(self, deadline: float) -> None:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError("nothing from the server in time")
        self.sock.settimeout(remaining)
        chunk = self.sock.recv(65536)  # socket.timeout is TimeoutError
        if not chunk:
            raise Closed(1006)
        self.buffer += chunk
