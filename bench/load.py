"""The fan-out load: people who log in over HTTP, sockets that resume as `static/js/live.js`
does, storyguides who post corrections as htmx posts them; and what each socket received, when.

Everything runs in one asyncio loop. Each HTTP "browser" keeps one HTTP/1.1 connection alive and its
cookies; each socket is a `websockets` client. With several servers, every new connection (a page's
HTTP connection or a socket) goes to the next one in turn, as a round-robin proxy would send it.
"""

from __future__ import annotations

import asyncio
import itertools
import math
import re
import time
from collections import Counter
from dataclasses import dataclass, field
from urllib.parse import urlencode, urlsplit

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

FRAME = re.compile(rb'id="live-seq"[^>]*data-first-seq="(\d+)" data-last-seq="(\d+)"( data-replay="1")?')
VERSION = re.compile(rb'id="encounter-status"[^>]*data-version="(\d+)"')
LIVE_ROOT = re.compile(rb'id="live"[^>]*data-last-seq="(\d+)"')
CSRF_HEADER = re.compile(rb'"X-CSRFToken": "([^"]+)"')
FORM_TOKEN = re.compile(rb'name="csrfmiddlewaretoken" value="([^"]+)"')
FORBIDDEN = 4403
HTTP_TIMEOUT = 60.0
VERSION_TIMEOUT = 10.0
SETUP_CONCURRENCY = 8


class HttpError(Exception):
    """A request that got no HTTP answer (refused, reset, timed out)."""


@dataclass
class Answer:
    status: int
    headers: dict[str, list[str]]
    body: bytes


class Browser:
    """One person's HTTP/1.1 connection, kept alive, and their cookies."""

    def __init__(self, base: str):
        parts = urlsplit(base)
        self.base = base
        self.host, self.port = parts.hostname, parts.port
        self.cookies: dict[str, str] = {}
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, form: dict | None = None, headers: dict | None = None):
        """Send one request (reconnecting when the server closed the connection) and read the answer."""
        try:
            return await asyncio.wait_for(self._exchange(method, path, form, headers or {}), HTTP_TIMEOUT)
        except (TimeoutError, OSError, asyncio.IncompleteReadError, ValueError) as error:
            await self.close()
            raise HttpError(type(error).__name__) from error

    async def _exchange(self, method, path, form, headers) -> Answer:
        if self.writer is None or self.writer.is_closing():
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        body = urlencode(form).encode() if form is not None else b""
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}", "Connection: keep-alive"]
        if self.cookies:
            lines.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        if form is not None:
            lines += ["Content-Type: application/x-www-form-urlencoded", f"Content-Length: {len(body)}"]
        lines += [f"{name}: {value}" for name, value in headers.items()]
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        await self.writer.drain()
        answer = await read_answer(self.reader)
        for cookie in answer.headers.get("set-cookie", []):
            name, _, value = cookie.split(";", 1)[0].partition("=")
            self.cookies[name.strip()] = value.strip()
        if "close" in ",".join(answer.headers.get("connection", [])).lower():
            await self.close()
        return answer

    async def close(self) -> None:
        """Close the connection (a later request opens a new one)."""
        if self.writer is not None:
            self.writer.close()
            self.writer = None


async def read_answer(reader: asyncio.StreamReader) -> Answer:
    """An HTTP/1.1 response: status, headers, body (by length, chunked, or until close)."""
    status_line = await reader.readuntil(b"\r\n")
    status = int(status_line.split()[1])
    headers: dict[str, list[str]] = {}
    while (line := await reader.readuntil(b"\r\n")) != b"\r\n":
        name, _, value = line.decode("latin-1").partition(":")
        headers.setdefault(name.strip().lower(), []).append(value.strip())
    if "content-length" in headers:
        body = await reader.readexactly(int(headers["content-length"][0]))
    elif "chunked" in ",".join(headers.get("transfer-encoding", [])):
        body = await read_chunked(reader)
    else:
        body = await reader.read()
    return Answer(status, headers, body)


async def read_chunked(reader: asyncio.StreamReader) -> bytes:
    """A chunked body."""
    parts = []
    while size := int((await reader.readuntil(b"\r\n")).split(b";")[0], 16):
        parts.append(await reader.readexactly(size))
        await reader.readexactly(2)
    await reader.readuntil(b"\r\n")
    return b"".join(parts)


@dataclass
class Stats:
    """What the run counted, all sockets and tables together."""

    statuses: Counter = field(default_factory=Counter)
    http_errors: Counter = field(default_factory=Counter)
    closes: Counter = field(default_factory=Counter)
    connect_failures: Counter = field(default_factory=Counter)
    error_frames: int = 0
    gaps: int = 0
    done: int = 0
    answer_ms: list = field(default_factory=list)
    frame_bytes: Counter = field(default_factory=Counter)
    frame_count: Counter = field(default_factory=Counter)
    idle_closes: Counter = field(default_factory=Counter)
    refused: int = 0  # answered 503: refused at once under overload (config.admission)
    retry_after: Counter = field(default_factory=Counter)  # each refusal's Retry-After ("none" without)
    late: int = 0  # answered 200, but the storyguide's socket showed no frame within VERSION_TIMEOUT


class Listener:
    """One page's socket: connects, resumes after the last seq it has, reads frames, reconnects."""

    def __init__(self, table: Table, audience: str, url: str, headers: dict, seen: int, stats: Stats):
        self.table = table
        self.audience = audience
        self.url = url
        self.headers = headers
        self.seen = seen
        self.stats = stats
        self.received: dict[int, float] = {}
        self.awaiting = False
        self.resumed = asyncio.Event()
        self.stopping = False
        self.connection = None

    async def run(self) -> None:
        """Stay connected until stopped, as live.js does (but not after a 4403)."""
        while not self.stopping:
            try:
                async with connect(
                    self.url,
                    additional_headers=self.headers,
                    compression=None,
                    max_size=None,
                    ping_interval=None,
                    open_timeout=HTTP_TIMEOUT,
                ) as ws:
                    self.connection = ws
                    await self.resume(ws)
                    await self.read(ws)
            except ConnectionClosed as closed:
                if self.stopping:
                    return
                code = closed.rcvd.code if closed.rcvd else 1006
                self.stats.closes[code] += 1
                if code == FORBIDDEN:
                    return
            except (TimeoutError, OSError, InvalidHandshake) as error:
                if self.stopping:
                    return
                self.stats.connect_failures[type(error).__name__] += 1
            await asyncio.sleep(0.5)

    async def resume(self, ws) -> None:
        """Ask for everything after the last seq this page has."""
        self.awaiting = True
        await ws.send(f'{{"type": "resume", "last_seq": {self.seen}}}')

    async def read(self, ws) -> None:
        """Read frames until the socket closes."""
        while True:
            message = await ws.recv(decode=False)
            arrived = time.monotonic()
            if message[:1] == b"{":
                self.stats.error_frames += 1
                continue
            match = FRAME.search(message, 0, 400)
            if match is None:
                continue
            self.stats.frame_bytes[self.audience] += len(message)
            self.stats.frame_count[self.audience] += 1
            first, last, replay = int(match[1]), int(match[2]), bool(match[3])
            for seq in range(first, last + 1):
                self.received.setdefault(seq, arrived)
            await self.follow(ws, message, first, last, replay)

    async def follow(self, ws, message: bytes, first: int, last: int, replay: bool) -> None:
        """live.js's bookkeeping: a replay ends the wait, a gap asks again, a newer frame moves on."""
        if replay:
            self.awaiting = False
            self.seen = max(self.seen, last)
            self.resumed.set()
        elif self.awaiting or last <= self.seen:
            return
        elif first > self.seen + 1:
            self.stats.gaps += 1
            await self.resume(ws)
            return
        else:
            self.seen = last
        if self.audience == "storyguide":
            self.table.storyguide_saw(message, self.seen)

    async def stop(self) -> None:
        """Close our side; what happens after this is not counted."""
        self.stopping = True
        if self.connection is not None:
            await self.connection.close()


class Table:
    """One encounter: its storyguide's browser, the sequence numbers posted, its sockets."""

    def __init__(self, encounter: int, combatants: list[int]):
        self.encounter = encounter
        self.combatants = combatants
        self.browser: Browser | None = None
        self.csrf = ""
        self.version = 0
        self.last_seq = 0
        self.sent: dict[int, float] = {}
        self.done: set[int] = set()
        self.listeners: list[Listener] = []
        self.counter = 0
        self.frame_seen = asyncio.Event()

    def storyguide_saw(self, message: bytes, seen: int) -> None:
        """The storyguide's page took a frame: its forms move to the frame's version."""
        match = VERSION.search(message)
        if match:
            self.version = int(match[1])
        self.last_seq = max(self.last_seq, seen)
        self.frame_seen.set()

    async def wait_for_seq(self, seq: int, timeout: float) -> bool:
        """Until the storyguide's socket has shown `seq` (False after `timeout`)."""
        deadline = time.monotonic() + timeout
        while self.listeners[0].seen < seq:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            self.frame_seen.clear()
            try:
                await asyncio.wait_for(self.frame_seen.wait(), remaining)
            except TimeoutError:
                return False
        return True

    def correction(self) -> dict:
        """The next correction form: one combatant's attack advantage, a value it does not have."""
        combatant = self.combatants[self.counter % len(self.combatants)]
        value = (self.counter // len(self.combatants)) % 100 + 1
        self.counter += 1
        return {
            "combatant": combatant,
            "fatigue_level": "",
            "body_level": "",
            "advantage_attack": value,
            "advantage_defense": "",
            "reason": "Bench: a correction",
            "expected_version": self.version,
        }


def origin_of(base: str) -> str:
    return base.rstrip("/")


def ws_url(base: str, path: str) -> str:
    return "ws" + base[len("http") :].rstrip("/") + path


async def log_in(browser: Browser, username: str, password: str) -> None:
    """The login page, then its form posted: the browser holds a session cookie."""
    page = await browser.request("GET", "/accounts/login/")
    token = FORM_TOKEN.search(page.body)
    if page.status != 200 or token is None:
        raise RuntimeError(f"login page answered {page.status}")
    form = {"csrfmiddlewaretoken": token[1].decode(), "username": username, "password": password, "next": ""}
    headers = {"Origin": origin_of(browser.base), "Referer": browser.base + "/accounts/login/"}
    answer = await browser.request("POST", "/accounts/login/", form, headers)
    if answer.status != 302 or "sessionid" not in browser.cookies:
        raise RuntimeError(f"login of {username} answered {answer.status}")


async def read_page(browser: Browser, path: str) -> Answer:
    """A page that must answer 200."""
    page = await browser.request("GET", path)
    if page.status != 200:
        raise RuntimeError(f"GET {path} answered {page.status}")
    return page


async def storyguide_page(table: Table) -> None:
    """The control panel: its CSRF header, the encounter's version and last seq."""
    page = await read_page(table.browser, f"/encounters/{table.encounter}/")
    table.csrf = CSRF_HEADER.search(page.body)[1].decode()
    table.version = int(VERSION.search(page.body)[1])
    table.last_seq = max(table.last_seq, int(LIVE_ROOT.search(page.body)[1]))


def socket_headers(base: str, browser: Browser | None) -> dict:
    headers = {"Origin": origin_of(base)}
    if browser is not None:
        headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in browser.cookies.items())
    return headers


async def join_person(table: Table, username: str, password: str, audience: str, base: str, stats, gate):
    """Log in, open the page, and make the page's socket (not yet connected), all on the Daphne at `base`."""
    async with gate:
        browser = Browser(base)
        await log_in(browser, username, password)
        if audience == "storyguide":
            table.browser = browser
            await storyguide_page(table)
            seen = table.last_seq
        else:
            page = await read_page(browser, f"/encounters/{table.encounter}/arsmagica/play/")
            seen = int(LIVE_ROOT.search(page.body)[1])
            await browser.close()
    url = ws_url(base, f"/ws/encounters/{table.encounter}/")
    return Listener(table, audience, url, socket_headers(base, browser), seen, stats)


def seating(layout: list[dict], bases: list[str], together: bool = False) -> list[list[tuple[str, str, str]]]:
    """Who sits at which Daphne, table by table: (username, audience, base), storyguide first.

    The storyguides (and so the tables' posts) take the Daphnes in turn, and so do the players' sockets:
    with several Daphnes, every Daphne runs commands and most frames cross the channel layer. `together`
    seats each table's players at its storyguide's Daphne: no table's frame goes to two processes.
    """
    sockets = itertools.cycle(bases)
    return [
        [(entry["storyguide"], "storyguide", bases[index % len(bases)])]
        + [
            (name, "players", bases[index % len(bases)] if together else next(sockets))
            for name in entry["players"]
        ]
        for index, entry in enumerate(layout)
    ]


async def app_tables(
    layout: list[dict], password: str, bases: list[str], stats: Stats, together: bool = False
) -> list[Table]:
    """Everyone logged in, each page read, a socket ready for each page (storyguide's first; `seating`)."""
    gate = asyncio.Semaphore(SETUP_CONCURRENCY)
    tables = [Table(entry["encounter"], entry["combatants"]) for entry in layout]
    for table, people in zip(tables, seating(layout, bases, together), strict=True):
        table.listeners = list(
            await asyncio.gather(
                *(
                    join_person(table, name, password, audience, base, stats, gate)
                    for name, audience, base in people
                )
            )
        )
    return tables


async def correct_once(table: Table, stats: Stats) -> None:
    """Post one correction as htmx does; after a 200, wait for the storyguide's frame (its version)."""
    seq = table.last_seq + 1
    headers = {
        "HX-Request": "true",
        "HX-Target": "correct-error",
        "X-CSRFToken": table.csrf,
        "Origin": origin_of(table.browser.base),
        "HX-Current-URL": f"{table.browser.base}/encounters/{table.encounter}/",
    }
    form = table.correction()
    table.sent[seq] = time.monotonic()
    try:
        answer = await table.browser.request(
            "POST", f"/encounters/{table.encounter}/arsmagica/correct/", form, headers
        )
    except HttpError as error:
        stats.http_errors[str(error)] += 1
        del table.sent[seq]
        await resync(table, stats)
        return
    stats.statuses[answer.status] += 1
    stats.answer_ms.append((time.monotonic() - table.sent[seq]) * 1000)
    if answer.status == 503:  # refused before anything ran: the version stands, the next tick tries again
        stats.refused += 1
        stats.retry_after[(answer.headers.get("retry-after") or ["none"])[0]] += 1
        del table.sent[seq]
        return
    if answer.status != 200:
        del table.sent[seq]
        await resync(table, stats)
        return
    stats.done += 1
    table.done.add(seq)
    table.last_seq = seq
    if not await table.wait_for_seq(seq, VERSION_TIMEOUT):
        stats.late += 1
        await resync(table, stats)


async def warm_up(tables: list[Table]) -> None:
    """One command per table before the window (templates compiled, connections open); not counted."""
    await asyncio.gather(*(correct_once(table, Stats()) for table in tables))
    for table in tables:
        table.sent.clear()
        table.done.clear()


async def resync(table: Table, stats: Stats) -> None:
    """Read the page again for the version (after a refusal, an error, or no frame in time)."""
    try:
        await storyguide_page(table)
    except (HttpError, RuntimeError, TypeError) as error:
        stats.http_errors[f"reload: {type(error).__name__}"] += 1


async def every_tick(rate: float, start: float, until: float, action) -> None:
    """Call `action` `rate` times a second from `start` to `until`; ticks passed while busy are skipped."""
    period = 1.0 / rate
    tick = start
    while tick < until:
        delay = tick - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
        await action()
        now = time.monotonic()
        tick += period * max(1, math.ceil((now - tick) / period))


def asked(rate: float, offsets: list[float], start: float, until: float) -> int:
    """Commands the schedule asked for: the ticks of every table before the end."""
    return sum(max(0, math.ceil((until - (start + offset)) * rate)) for offset in offsets)


async def connect_all(tables: list[Table], timeout: float) -> None:
    """Open every socket, a few at a time as people arrive, each once it has had its replay."""
    gate = asyncio.Semaphore(SETUP_CONCURRENCY)

    async def arrive(listener: Listener) -> None:
        async with gate:
            listener.task = asyncio.create_task(listener.run())
            await asyncio.wait_for(listener.resumed.wait(), timeout)

    await asyncio.gather(*(arrive(listener) for table in tables for listener in table.listeners))


async def drain(tables: list[Table], timeout: float) -> None:
    """Wait until every socket has every posted seq, or the time is up."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if all(t.done <= l.received.keys() for t in tables for l in t.listeners):  # noqa: E741
            return
        await asyncio.sleep(0.1)


async def close_all(tables: list[Table]) -> None:
    """Close every socket and browser from our side."""
    for table in tables:
        for listener in table.listeners:
            await listener.stop()
            listener.task.cancel()
        if table.browser is not None:
            await table.browser.close()


@dataclass
class Window:
    """The measured window: commands, then the drain; CPU read at both ends by `cpu` (pid -> seconds)."""

    seconds: float
    rate: float
    drain: float
    cpu: object
    idle: float = 0.0
    hooks: list = field(default_factory=list)
    cpu_start: dict = field(default_factory=dict)
    cpu_end: dict = field(default_factory=dict)
    client_cpu: float = 0.0
    elapsed: float = 0.0
    asked: int = 0


async def measure(tables: list[Table], window: Window, action_for) -> None:
    """Run every table's commands for the window's seconds, then drain; fill in the window."""
    offsets = [index / len(tables) / window.rate for index in range(len(tables))]
    for begin, _ in window.hooks:
        begin()
    window.cpu_start = window.cpu()
    client = time.process_time()
    start = time.monotonic() + 0.2
    until = start + window.seconds
    await asyncio.gather(
        *(
            every_tick(window.rate, start + offset, until, action_for(table))
            for table, offset in zip(tables, offsets, strict=True)
        )
    )
    await drain(tables, window.drain)
    window.elapsed = time.monotonic() - start
    window.cpu_end = window.cpu()
    for _, end in window.hooks:
        end()
    window.client_cpu = time.process_time() - client
    window.asked = asked(window.rate, offsets, start, until)


async def run_app(
    layout, password, bases, window: Window, stats: Stats, together: bool = False
) -> list[Table]:
    """The app's run: log everyone in (`seating`), connect, command, drain, close."""
    tables = await app_tables(layout, password, bases, stats, together)
    try:
        await connect_all(tables, timeout=120)
        await warm_up(tables)
        await measure(tables, window, lambda table: lambda: correct_once(table, stats))
        await stay_idle(window.idle, stats)
    finally:
        await close_all(tables)
    return tables


async def run_app_windows(layout, password, bases, stats: Stats, windows) -> list[Table]:
    """Like `run_app`, but several measured windows on the same sessions and sockets: `windows(tables)` is
    an async generator that yields each window and its stats, and reads the figures between them."""
    tables = await app_tables(layout, password, bases, stats)
    try:
        await connect_all(tables, timeout=120)
        await warm_up(tables)
        async for window, window_stats in windows(tables):
            for table in tables:
                table.sent.clear()
                table.done.clear()
                for listener in table.listeners:
                    listener.stats = window_stats
            await measure(tables, window, lambda table, s=window_stats: lambda: correct_once(table, s))
    finally:
        await close_all(tables)
    return tables


async def stay_idle(seconds: float, stats: Stats) -> None:
    """Keep every socket open and silent for `seconds`; the closes meanwhile are idle drops."""
    if seconds <= 0:
        return
    before = Counter(stats.closes)
    await asyncio.sleep(seconds)
    stats.idle_closes = stats.closes - before


async def floor_command(table: Table, commander, stats: Stats) -> None:
    """The floor's command: one seq sent on the commander socket, broadcast by the floor."""
    seq = table.last_seq + 1
    table.sent[seq] = time.monotonic()
    await commander.send(str(seq))
    table.last_seq = seq
    table.done.add(seq)
    stats.done += 1


async def run_floor(port: int, shape: list[int], window: Window, stats: Stats) -> list[Table]:
    """The floor's run: the same sockets per table (shape: sockets per table) on the bare server."""
    base = f"http://127.0.0.1:{port}"
    tables = [Table(index, []) for index in range(len(shape))]
    for table, sockets in zip(tables, shape, strict=True):
        table.listeners = [
            Listener(
                table, "floor", ws_url(base, f"/ws/{table.encounter}/"), socket_headers(base, None), 0, stats
            )
            for _ in range(sockets)
        ]
    commanders = [await connect(ws_url(base, f"/cmd/{t.encounter}/"), compression=None) for t in tables]
    try:
        await connect_all_floor(tables)
        await measure(
            tables, window, lambda table: lambda: floor_command(table, commanders[table.encounter], stats)
        )
    finally:
        await close_all(tables)
        for commander in commanders:
            await commander.close()
    return tables


async def connect_all_floor(tables: list[Table]) -> None:
    """The floor sends no replay: start every socket and wait until each has sent its resume."""
    for table in tables:
        for listener in table.listeners:
            listener.task = asyncio.create_task(listener.run())
    while not all(listener.awaiting for table in tables for listener in table.listeners):
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.2)
