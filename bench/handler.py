"""A request's cost in Django's ASGI handler: Django's own (a thread started and joined per request) and
the site's (config.threads: a thread lent per request), taking turns, in this one process.

Run: `.venv/bin/python bench/handler.py` (`--requests 500 --rounds 3`). Each request is called as a server
calls the application (Channels' HttpCommunicator), one after another: the
storyguide's encounter page (bench/seed.py's table of 8 players and 3 bandits, declarations open), a
correction posted as htmx posts it (the session and CSRF cookies, `X-CSRFToken`, `expected_version`),
and a path that is not found (the least Django does). Before each correction the bench reads the
encounter's version, as a page has it (in a thread of asyncio's, the same for both). It prints the
process's CPU time a request (every thread's: the event loop's and Django's), the median of the rounds.
SQLite in a temporary folder, the in-memory channel layer, nobody listening. `make test` runs it at three
requests a round (tests/test_benches.py) to see that it still runs.

Instructions, which do not depend on the shared machine's speed of the minute, are the steadier measure of
a change to a request: drive `Browser` from a small script of your own (one kind of request, after twenty
to warm up) under `PYTHONHASHSEED=0 DEBUG=false valgrind --tool=callgrind --instr-atstart=no`, switch the
count on around the measured requests alone with `callgrind_control -i on` (and `off` after), and divide
the instructions (Ir) by the requests. Count the tree before a change and after it, each in its own
worktree (`git worktree add /tmp/wt-before REV`) with the same venv; without a fixed hash seed the same
tree varies by a few per cent.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import statistics
import sys
import tempfile
import time
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode

from channels.testing import HttpCommunicator

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


class Browser:
    """Calls an ASGI application as a server would (Channels' HttpCommunicator), keeping its cookies."""

    def __init__(self, app, cookies: dict[str, str]):
        self.app, self.cookies = app, dict(cookies)

    async def request(self, method: str, path: str, body: bytes = b"", headers=()) -> int:
        cookie = "; ".join(f"{name}={value}" for name, value in self.cookies.items()).encode()
        headers = [(b"host", b"testserver"), (b"cookie", cookie), *headers]
        communicator = HttpCommunicator(self.app, method, path, body, headers)
        response = await communicator.get_response(timeout=60)
        await communicator.wait(timeout=60)
        for name, value in response["headers"]:
            if name.lower() == b"set-cookie":
                for morsel in SimpleCookie(value.decode()).values():
                    self.cookies[morsel.key] = morsel.value
        return response["status"]


async def cpu_a_request(call, count: int) -> float:
    """CPU ms of the whole process a call, after a few to warm up."""
    for _ in range(5):
        await call()
    start = time.process_time()
    for _ in range(count):
        await call()
    return (time.process_time() - start) / count * 1000


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--requests", type=int, default=500, help="of each kind, each round")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="covenant-handler-") as folder:  # gone with the run
        measure(args, Path(folder) / "bench.sqlite3")


def measure(args, db: Path) -> None:
    """The requests, timed on a new database at `db`."""
    from bench.archive import setup_django
    from bench.seed import make_table

    setup_django(db)
    logging.getLogger("django.request").setLevel(logging.ERROR)  # the not-found path, said each time
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.handlers.asgi import ASGIHandler
    from django.test import Client

    from combat.models import Encounter
    from config.threads import RequestThreadsHandler

    settings.ALLOWED_HOSTS = ["testserver"]
    table = make_table("handler", 0, 8, 3)
    encounter, combatant = table["encounter"], table["combatants"][0]
    client = Client()
    client.force_login(get_user_model().objects.get(username=table["storyguide"]))
    # The page is another table's, which the corrections leave as it was (a log that grew would cost more).
    read = make_table("handler", 1, 8, 3)
    reader = Client()
    reader.force_login(get_user_model().objects.get(username=read["storyguide"]))
    page = f"/encounters/{read['encounter']}/"
    handlers = {"Django's (a thread each)": ASGIHandler(), "config.threads (lent)": RequestThreadsHandler()}
    session = {"sessionid": client.cookies["sessionid"].value}
    browsers = {name: Browser(app, session) for name, app in handlers.items()}
    session = {"sessionid": reader.cookies["sessionid"].value}
    readers = {name: Browser(app, session) for name, app in handlers.items()}
    first = next(iter(browsers.values()))
    asyncio.run(first.request("GET", f"/encounters/{encounter}/"))  # a CSRF cookie, shared by both
    csrf = first.cookies["csrftoken"]
    for browser in browsers.values():
        browser.cookies["csrftoken"] = csrf
    advantage = iter(range(10**9))

    def correction(browser: Browser):
        async def post():
            version = await asyncio.to_thread(lambda: Encounter.objects.get(pk=encounter).version)
            form = {"combatant": combatant, "fatigue_level": "", "body_level": "", "reason": "bench",
                    "advantage_attack": next(advantage) % 20 + 1, "advantage_defense": "",
                    "expected_version": version}  # fmt: skip
            headers = [(b"content-type", b"application/x-www-form-urlencoded"), (b"hx-request", b"true"),
                       (b"x-csrftoken", csrf.encode())]  # fmt: skip
            body = urlencode(form).encode()
            url = f"/encounters/{encounter}/arsmagica/correct/"
            status = await browser.request("POST", url, body, headers)
            assert status == 200, status
        return post

    kinds = {
        "the storyguide's page": lambda name: lambda: readers[name].request("GET", page),
        "a correction": lambda name: correction(browsers[name]),
        "a path not found": lambda name: lambda: browsers[name].request("GET", "/nothing-here/"),
    }
    figures: dict[tuple[str, str], list[float]] = {}
    for _ in range(args.rounds):
        for kind, make in kinds.items():
            for name in handlers:
                cpu = asyncio.run(cpu_a_request(make(name), args.requests))
                figures.setdefault((kind, name), []).append(cpu)
    python = sys.version.split()[0]
    print(f"CPU ms a request, the whole process, median of {args.rounds} rounds of {args.requests}; {python}")
    for (kind, name), values in figures.items():
        shown = ", ".join(f"{value:.2f}" for value in values)
        print(f"  {kind:22s} {name:26s} {statistics.median(values):6.2f}   ({shown})")


if __name__ == "__main__":
    main()
