"""The people at the table, each in their own browser context (own cookies, own websocket)."""

import re
from pathlib import Path

from django.conf import settings
from django.test import Client
from playwright.sync_api import Browser, Page, expect

TIMEOUT_MS = 10_000
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


class Person:
    """One person with one browser context; `page` is their main tab."""

    def __init__(self, name: str, browser: Browser, base_url: str, viewport: dict):
        self.name = name
        self.base_url = base_url
        self.context = browser.new_context(base_url=base_url, viewport=viewport)
        self.context.set_default_timeout(TIMEOUT_MS)
        self.context.set_default_navigation_timeout(TIMEOUT_MS)
        self.page_errors: list[str] = []
        self._sockets: list[tuple[Page, object]] = []
        self.page = self.new_tab()

    def new_tab(self) -> Page:
        """A new tab in the same context: same session cookie, its own page load and socket."""
        page = self.context.new_page()
        page.on("pageerror", lambda error: self.page_errors.append(f"{page.url}: {error}"))
        page.on("websocket", lambda ws: self._sockets.append((page, ws)))
        return page

    # Getting in

    def enter_as(self, user) -> None:
        """Start logged in as `user`: a session made by Django's test client, set as this context's cookie."""
        client = Client()
        client.force_login(user)
        cookie = client.cookies[settings.SESSION_COOKIE_NAME]
        self.context.add_cookies(
            [{"name": settings.SESSION_COOKIE_NAME, "value": cookie.value, "url": self.base_url}]
        )

    def goto(self, path: str) -> Page:
        response = self.page.goto(path)
        status = response.status if response else None
        assert response is not None and response.ok, f"{self.name}: GET {path} gave {status}"
        return self.page

    # Staying on the page

    def mark_page(self, page: Page | None = None) -> None:
        """Tag the loaded document; a reload or navigation would lose the tag."""
        (page or self.page).evaluate("window.__covenantMarker = 1")

    def assert_not_reloaded(self, page: Page | None = None) -> None:
        marker = (page or self.page).evaluate("window.__covenantMarker")
        assert marker == 1, f"{self.name}'s page was reloaded or navigated away"

    def websockets(self, page: Page | None = None) -> list:
        """Every websocket the tab opened so far, oldest first, as Playwright saw them."""
        page = page or self.page
        return [ws for owner, ws in self._sockets if owner is page]

    def open_websockets(self, page: Page | None = None) -> list:
        return [ws for ws in self.websockets(page) if not ws.is_closed()]

    def close(self) -> None:
        self.context.close()


class Table:
    """Everyone a test needs, created on demand; closed (with screenshots on failure) by the fixture."""

    def __init__(self, browser: Browser, base_url: str):
        self.browser = browser
        self.base_url = base_url
        self.people: list[Person] = []

    def person(self, name: str, viewport: dict | None = None) -> Person:
        person = Person(name, self.browser, self.base_url, viewport or DESKTOP)
        self.people.append(person)
        return person

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
