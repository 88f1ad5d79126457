#!/usr/bin/env python3
"""Screenshots of Covenant's main pages at phone and desktop size, to look at them.

Against a running server (`make run`, which loads the demo saga), log in as the demo storyguide and
a demo player and save, for each of them and each size (390x844 and 1280x800), full-page PNGs of:
the saga page, a character sheet, the encounter (the storyguide's control panel / the player's page)
and the saga's history.

    .venv/bin/python scripts/screenshots.py --base-url http://127.0.0.1:8000 --out /tmp/covenant-shots

Pages are reached by following the links a person would click, so a renamed URL does not break it.
Chromium is Debian's (/usr/bin/chromium, or COVENANT_CHROMIUM).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path

from playwright.sync_api import Browser, Page, sync_playwright

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
# Counts the frames the page's live socket swaps in (htmx's websocket extension events).
LIVE_PROBE = """
window.__covenantLive = {frames: 0};
document.addEventListener("htmx:wsAfterMessage", () => { window.__covenantLive.frames += 1; });
"""
DEMO_SAGA = "Sir Boris and the bandits"
DEMO_D6_SAGA = "The chase through Ashford"
DEMO_STORYGUIDE = "storyguide:covenant-sg-1220"
DEMO_PLAYER = "player1:covenant-p1-1220"


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base-url", default="http://127.0.0.1:8000")
    parser.add_argument("--out", type=Path, default=Path("/tmp/covenant-shots"))
    parser.add_argument("--saga", default=DEMO_SAGA, help="the Ars Magica saga's name, as its link shows it")
    parser.add_argument(
        "--d6-saga", default=DEMO_D6_SAGA, help="a d6 saga to shoot too, if the person is in it ('' for none)"
    )
    parser.add_argument("--storyguide", default=DEMO_STORYGUIDE, help="USERNAME:PASSWORD")
    parser.add_argument("--player", default=DEMO_PLAYER, help="USERNAME:PASSWORD")
    parser.add_argument("--size", choices=[*SIZES, "all"], default="all")
    return parser.parse_args(argv)


class Shooter:
    """One person at one size: logs in, follows links, saves `<size>-<who>-<page>.png`."""

    def __init__(self, browser: Browser, base_url: str, out: Path, size: str, who: str):
        self.out = out
        self.prefix = f"{size}-{who}"
        self.context = browser.new_context(base_url=base_url, viewport=SIZES[size])
        self.context.set_default_timeout(10_000)
        self.context.add_init_script(LIVE_PROBE)
        self.page: Page = self.context.new_page()
        self.saved: list[Path] = []
        self.problems: list[str] = []

    def wait_until_live(self) -> None:
        """An encounter page: wait for its socket's first frame, so the shot shows the live state."""
        # Polled with evaluate: wait_for_function polls with eval(), which the CSP refuses.
        for _ in range(200):
            if self.page.evaluate("window.__covenantLive.frames >= 1"):
                return
            self.page.wait_for_timeout(50)
        self.problems.append(f"{self.prefix}: {self.page.url} got no frame on its socket within 10 s")

    def log_in(self, credentials: str) -> None:
        username, _, password = credentials.partition(":")
        self.page.goto("/accounts/login/")
        self.page.get_by_label("Username").fill(username)
        self.page.get_by_label("Password").fill(password)
        self.page.get_by_role("button", name="Log in").click()
        self.page.wait_for_load_state()
        if self.page.get_by_role("button", name="Log out").count() == 0:
            raise SystemExit(f"Could not log in as {username!r}: is the demo loaded (make run)?")

    def shoot(self, name: str) -> None:
        self.page.wait_for_load_state("networkidle")
        path = self.out / f"{self.prefix}-{name}.png"
        self.page.screenshot(path=path, full_page=True)
        width = self.page.evaluate("document.documentElement.scrollWidth")
        viewport = self.page.viewport_size["width"]
        if width > viewport:
            self.problems.append(f"{path.name}: the page is {width}px wide in a {viewport}px viewport")
        self.saved.append(path)

    def follow(self, link_name: str | re.Pattern, scope: str = "main") -> bool:
        """Click the first link so named inside `scope`; False (noted) when there is none."""
        link = self.page.locator(scope).get_by_role("link", name=link_name).first
        if link.count() == 0:
            self.problems.append(f"{self.prefix}: no link {link_name!r} on {self.page.url}")
            return False
        link.click()
        self.page.wait_for_load_state()
        return True

    def open_saga(self, saga: str) -> bool:
        self.page.goto("/sagas/")
        return self.follow(saga)

    def close(self) -> None:
        self.context.close()


def saga_tour(shooter: Shooter, saga: str, prefix: str, *, own_character_of: str = "") -> None:
    """The saga page, a character sheet (the player's own), its first encounter, its history."""
    if not shooter.open_saga(saga):
        return
    saga_url = shooter.page.url
    shooter.shoot(f"{prefix}saga")
    rows = shooter.page.locator("#characters tbody tr")
    if own_character_of:
        rows = rows.filter(has_text=own_character_of)
    if rows.count():
        rows.first.get_by_role("link").first.click()
        shooter.page.wait_for_load_state()
        shooter.shoot(f"{prefix}character")
    else:
        shooter.problems.append(f"{shooter.prefix}: no character {own_character_of} on {saga_url}")
    shooter.page.goto(saga_url)
    if shooter.follow(re.compile(r"."), scope="#saga-encounters .encounter-list"):
        shooter.wait_until_live()
        shooter.shoot(f"{prefix}{'player-page' if own_character_of else 'control-panel'}")
    shooter.page.goto(saga_url)
    if shooter.follow(re.compile(r"history", re.I)):
        shooter.shoot(f"{prefix}history")


def tour(shooter: Shooter, args: argparse.Namespace, credentials: str, player: bool) -> None:
    shooter.log_in(credentials)
    username = credentials.partition(":")[0] if player else ""
    saga_tour(shooter, args.saga, "", own_character_of=username)
    if args.d6_saga:
        shooter.page.goto("/sagas/")
        if shooter.page.locator("main").get_by_role("link", name=args.d6_saga).count():
            saga_tour(shooter, args.d6_saga, "d6-", own_character_of=username)


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    executable = os.environ.get("COVENANT_CHROMIUM", "/usr/bin/chromium")
    sizes = list(SIZES) if args.size == "all" else [args.size]
    saved: list[Path] = []
    problems: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_ARGS)
        for size in sizes:
            for who, credentials in (("storyguide", args.storyguide), ("player", args.player)):
                shooter = Shooter(browser, args.base_url, args.out, size, who)
                try:
                    tour(shooter, args, credentials, player=who == "player")
                finally:
                    shooter.close()
                saved += shooter.saved
                problems += shooter.problems
        browser.close()
    for path in saved:
        print(path)
    for problem in problems:
        print(f"problem: {problem}", file=sys.stderr)
    return 0 if saved else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
