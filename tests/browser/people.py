"""The people at the table, each in their own browser context (own cookies, own websocket)."""

import re
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from django.conf import settings
from django.db import connections
from django.test import Client
from playwright.sync_api import Browser, Page, WebSocketRoute, expect

TIMEOUT_MS = 10_000
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


# Counts what the page's live socket does, through htmx's websocket extension events: opens, closes
# (with their codes), frames swapped in, and replays (the frame answering a resume after a (re)connect).
LIVE_PROBE = """
window.__covenantLive = {opens: 0, closes: [], frames: 0, replays: 0};
document.addEventListener("htmx:wsOpen", () => { window.__covenantLive.opens += 1; });
document.addEventListener("htmx:wsClose", (e) => { window.__covenantLive.closes.push(e.detail.event.code); });
document.addEventListener("htmx:wsAfterMessage", (e) => {
  window.__covenantLive.frames += 1;
  if (/data-replay="1"/.test(e.detail.message)) { window.__covenantLive.replays += 1; }
});
"""


# Words drawn on two lines or more although they would fit on a line of their own: each run of letters and
# digits in the page's text, measured as drawn, against the width of the line it sits in (the nearest box that
# is neither inline nor a flex or grid item, which a squeezed row may narrow); a name longer than that line
# may break, nothing shorter. Each as "word (its width of the line's, in TAG.class)".
SPLIT_WORDS = """() => {
  const lineOf = (el) => {
    for (; el && el !== document.body; el = el.parentElement) {
      const display = getComputedStyle(el).display;
      const item = el.parentElement && /flex|grid/.test(getComputedStyle(el.parentElement).display);
      if (!display.startsWith('inline') && display !== 'contents' && !item) return el;
    }
    return document.body;
  };
  const split = [];
  const texts = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let node = texts.nextNode(); node; node = texts.nextNode()) {
    if (!node.parentElement.getClientRects().length) continue;
    for (const word of node.data.matchAll(/[\\p{L}\\p{N}]+/gu)) {
      range.setStart(node, word.index);
      range.setEnd(node, word.index + word[0].length);
      const parts = [...range.getClientRects()].filter((rect) => rect.width > 0);
      if (new Set(parts.map((rect) => Math.round(rect.top))).size < 2) continue;
      const width = parts.reduce((sum, rect) => sum + rect.width, 0);
      const line = lineOf(node.parentElement);
      const style = getComputedStyle(line);
      const room = line.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      if (width <= room) {
        const where = `${node.parentElement.tagName}.${node.parentElement.className}`;
        split.push(`${word[0]} (${Math.round(width)} of ${Math.round(room)} px, in ${where})`);
      }
    }
  }
  return split;
}"""


# Console errors that are no fault: htmx logs "htmx:afterRequest" before the error that says what went wrong
# (sendError, timeout), which is reported; and a request that hx-sync="this:replace" cancelled, by design.
EXPECTED = (re.compile(r"^htmx:afterRequest\b"), re.compile(r"^htmx:sendAbort\b"))
# ... and ones a test causes on purpose, which it allows (Person.allow): Chromium's line for a refusal's
# answer (a 409 or 422, which htmx swaps into its slot; a busy server's 503, which commands.js shows); what
# a page logs when the test cuts the network or stops the server (a failed load, htmx's send error, a
# websocket that cannot connect and its error event).
REFUSED = re.compile(r"^Failed to load resource: the server responded with a status of (409|422|503) ")
CUT_OFF = re.compile(r"net::ERR_|^htmx:sendError\b|^WebSocket connection to .* failed|^\[object Event\]$")


def wait_until(page: Page, condition, what: str, timeout: float | None = None) -> None:
    """Poll `condition()` while the page's events (routes, sockets) go on being handled."""
    deadline = time.monotonic() + (TIMEOUT_MS if timeout is None else timeout) / 1000
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"still false after {timeout or TIMEOUT_MS} ms: {what}")
        page.wait_for_timeout(50)


def wait_until_true(page: Page, expression: str, timeout: float | None = None) -> None:
    """Poll `expression` in the page from here: Playwright's wait_for_function polls with eval(), which
    the Content-Security-Policy (no 'unsafe-eval') refuses; page.evaluate is not subject to it."""
    wait_until(page, lambda: page.evaluate(expression), expression, timeout)


class Person:
    """One person with one browser context; `page` is their main tab."""

    def __init__(
        self, name: str, browser: Browser, base_url: str, viewport: dict, service_workers: str = "block"
    ):
        self.name = name
        self.base_url = base_url
        # The service worker is blocked unless a test is about it: page.route() does not see the requests of a
        # page the worker has claimed, so a test that holds a request back would race the worker's claim.
        self.context = browser.new_context(
            base_url=base_url, viewport=viewport, service_workers=service_workers
        )
        self.context.set_default_timeout(TIMEOUT_MS)
        self.context.set_default_navigation_timeout(TIMEOUT_MS)
        self.context.add_init_script(LIVE_PROBE)
        self.page_errors: list[str] = []
        self.allowed: list[re.Pattern] = []
        self.page = self.new_tab()

    def new_tab(self) -> Page:
        """A new tab in the same context: same session cookie, its own page load and socket."""
        page = self.context.new_page()
        page.on("pageerror", lambda error: self.page_errors.append(f"{page.url}: {error}"))
        page.on("console", lambda message: self._console_error(page, message))
        return page

    def _console_error(self, page: Page, message) -> None:
        """Every console error is a page error here (what the Content-Security-Policy blocked, an htmx target
        that is missing, a failed load, a script's console.error) but what the test allows (`allow`) and
        what htmx logs for a request that hx-sync="this:replace" cancelled for a newer one (a player's
        declarations panel, when two changes of phase cross)."""
        if message.type != "error" or any(p.search(message.text) for p in (*EXPECTED, *self.allowed)):
            return
        self.page_errors.append(f"{page.url}: {message.text}")

    def allow(self, *patterns: re.Pattern) -> None:
        """Let the console errors these match through: ones the test causes on purpose (REFUSED, CUT_OFF)."""
        self.allowed.extend(patterns)

    # Getting in

    def enter_as(self, user) -> None:
        """Start logged in as `user`: a session made by Django's test client, set as this context's cookie."""
        client = Client()
        client.force_login(user)
        cookie = client.cookies[settings.SESSION_COOKIE_NAME]
        self.context.add_cookies(
            [{"name": settings.SESSION_COOKIE_NAME, "value": cookie.value, "url": self.base_url}]
        )

    def goto(self, path: str, page: Page | None = None) -> Page:
        page = page or self.page
        response = page.goto(path)
        status = response.status if response else None
        assert response is not None and response.ok, f"{self.name}: GET {path} gave {status}"
        return page

    # Staying on the page

    def mark_page(self, page: Page | None = None) -> None:
        """Tag the loaded document; a reload or navigation would lose the tag."""
        (page or self.page).evaluate("window.__covenantMarker = 1")

    def assert_not_reloaded(self, page: Page | None = None) -> None:
        marker = (page or self.page).evaluate("window.__covenantMarker")
        assert marker == 1, f"{self.name}'s page was reloaded or navigated away"

    # The live socket

    def live(self, page: Page | None = None) -> dict:
        """What the page's live socket has done so far (see LIVE_PROBE)."""
        return (page or self.page).evaluate("window.__covenantLive")

    def wait_until_live(self, page: Page | None = None, replays: int = 1, timeout: float | None = None):
        """Wait until the page has (re)connected and swapped in the answer to its resume, `replays` times."""
        wait_until_true(page or self.page, f"window.__covenantLive.replays >= {replays}", timeout)

    def wire_live_socket(self, page: Page | None = None) -> "Line":
        """Route the page's encounter sockets through a line the test can cut; call before loading."""
        line = Line(self.name)
        (page or self.page).route_web_socket(re.compile(r"/ws/encounters/"), line.connect)
        return line

    def close(self) -> None:
        self.context.close()


class Line:
    """The wire between one page and the server's websocket: cut it like lost wifi, then restore it.

    While cut, the open socket dies with 1006 (an abnormal close, as when the network goes) and every
    reconnect attempt is refused the same way; the page's own client must keep retrying by itself.
    """

    def __init__(self, name: str):
        self.name = name
        self.is_cut = False
        self.refused = 0
        self._open: list[tuple[WebSocketRoute, WebSocketRoute]] = []

    def connect(self, route: WebSocketRoute) -> None:
        if self.is_cut:
            self.refused += 1
            route.close(code=1006, reason="the line is cut")
            return
        self._open.append((route, route.connect_to_server()))

    def cut(self) -> None:
        self.is_cut = True
        while self._open:
            page_side, server_side = self._open.pop()
            page_side.close(code=1006, reason="the line is cut")
            server_side.close()

    def restore(self) -> None:
        self.is_cut = False


def outside_the_event_loop(function, *args, **kwargs):
    """Run `function` in a thread of its own and return its result.

    Playwright's sync API keeps an event loop running in the test's thread, so code that calls
    async_to_sync (a service broadcasting on commit, through `call_command("load_demo")`) must run
    elsewhere. The thread's database connection is closed before returning.
    """

    def run():
        try:
            return function(*args, **kwargs)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(run).result()


class Table:
    """Everyone a test needs, created on demand; closed (with screenshots on failure) by the fixture."""

    def __init__(self, browser: Browser, base_url: str):
        self.browser = browser
        self.base_url = base_url
        self.people: list[Person] = []
        self.allowed: list[re.Pattern] = []

    def person(self, name: str, viewport: dict | None = None, service_workers: str = "block") -> Person:
        person = Person(name, self.browser, self.base_url, viewport or DESKTOP, service_workers)
        person.allow(*self.allowed)
        self.people.append(person)
        return person

    def allow(self, *patterns: re.Pattern) -> None:
        """Let the console errors these match through for everyone made from now on (Person.allow)."""
        self.allowed.extend(patterns)

    def screenshot_all(self, folder: Path) -> list[Path]:
        folder.mkdir(parents=True, exist_ok=True)
        saved = []
        for person in self.people:
            for index, page in enumerate(person.context.pages):
                path = folder / f"{_slug(person.name)}-{index}.png"
                try:
                    page.screenshot(path=path, full_page=True, timeout=5_000)
                except Exception as error:  # a crashed page must not hide the test's own failure
                    path = folder / f"{_slug(person.name)}-{index}.error.txt"
                    path.write_text(f"{page.url}\n{error}\n")
                saved.append(path)
        return saved

    def page_errors(self) -> list[str]:
        return [f"{person.name}: {error}" for person in self.people for error in person.page_errors]

    def close(self) -> None:
        for person in self.people:
            person.close()


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


expect.set_options(timeout=TIMEOUT_MS)
