#!/usr/bin/env python3
"""Screenshots of every Covenant page at phone and desktop size, in both themes, to look at them.

Against a running server (`make run`, which loads both demo sagas), save full-page PNGs named
`<size>-<theme>-<who>-<page>.png` for each size (390x844, 1280x800), each theme (light, dark: the browser's
prefers-color-scheme, which the page follows) and each person:
- guest: the front page, log in (and a failed login), sign up (and its errors);
- storyguide: home, sagas, a new saga's form and its errors, the saga page, a new character's and a new NPC's
  sheet form, a character sheet and its form, the encounter's control panel (live, then offline: its socket
  cut), the history, the printable record, the replay, the encounter's and the saga's charts, the "manage"
  pages (rename, delete) of the saga, a character and the encounter, the d6 saga, its attributes form, the d6
  table, and a page that does not exist;
- player: sagas, the saga page, a new character's sheet form, their own character and its form, their
  encounter page (live, then offline), the history, the record, the replay and the charts, the evening's
  recap, the d6 saga, the d6 table and their d6 character;
- newcomer (a demo player not in the d6 saga): the d6 saga's invite page as a guest sees it and the sign-up
  page it leads to, then, logged in, the same invite with its one button; at the last size and theme they
  press it and shoot the saga page with its first step (make your character), which leaves them in the saga;
- the storyguide also shoots a player's password-link page, before and after making a link (which the saga's
  history then notes), and a guest the page that link opens, to choose a new password (not sent);
- host (with --host, a superuser's login, as `manage.py createsuperuser` makes one): the admin's index, its
  list of events and one event, read-only.

    .venv/bin/python scripts/screenshots.py --base-url http://127.0.0.1:8000 --out /tmp/covenant-shots

Pages are reached by following the links a person would click where there is one, so a renamed URL does not
break it. It prints every PNG saved, and on stderr every problem seen: a missing link, a page wider than the
phone, a page that got no live frame. Chromium is Debian's (/usr/bin/chromium, or COVENANT_CHROMIUM).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path

from playwright.sync_api import Browser, Page, WebSocketRoute, sync_playwright

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}
THEMES = ("light", "dark")
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
DEMO_NEWCOMER = "player3:covenant-p3-1220"
OFFLINE_WAIT_MS = 3_000  # longer than the 2 s within which the page must say the socket is lost


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
    parser.add_argument(
        "--newcomer",
        default=DEMO_NEWCOMER,
        help="USERNAME:PASSWORD of someone not in the d6 saga ('' for none)",
    )
    parser.add_argument(
        "--host", default="", help="USERNAME:PASSWORD of a superuser, for the admin ('' for none)"
    )
    parser.add_argument("--size", choices=[*SIZES, "all"], default="all")
    parser.add_argument("--theme", choices=[*THEMES, "all"], default="all")
    return parser.parse_args(argv)


class Shooter:
    """One person, one size, one theme: logs in, follows links, saves `<size>-<theme>-<who>-<page>.png`."""

    def __init__(self, browser: Browser, base_url: str, out: Path, size: str, theme: str, who: str):
        self.out = out
        self.prefix = f"{size}-{theme}-{who}"
        self.context = browser.new_context(base_url=base_url, viewport=SIZES[size], color_scheme=theme)
        self.context.set_default_timeout(10_000)
        self.context.add_init_script(LIVE_PROBE)
        self.page: Page = self.context.new_page()
        self.page.on(
            "pageerror", lambda error: self.problems.append(f"{self.prefix}: {self.page.url}: {error}")
        )
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

    def visit(self, path: str, name: str) -> None:
        self.page.goto(path)
        self.shoot(name)

    def follow(self, link_name: str | re.Pattern, scope: str = "main") -> bool:
        """Click the first link so named inside `scope`; False (noted) when there is none."""
        link = self.page.locator(scope).get_by_role("link", name=link_name).first
        if link.count() == 0:
            self.problems.append(f"{self.prefix}: no link {link_name!r} on {self.page.url}")
            return False
        link.click()
        self.page.wait_for_load_state()
        return True

    def submit_unchecked(self, name: str) -> None:
        """Send the page's form past the browser's own checks, so the server's errors show; shoot them."""
        form = self.page.locator("main form").first
        form.evaluate("(form) => { form.noValidate = true; }")
        form.locator("button[type=submit]").last.click()
        self.page.wait_for_load_state()
        self.shoot(name)

    def open_saga(self, saga: str) -> bool:
        self.page.goto("/sagas/")
        return self.follow(saga)

    def encounter_live_and_offline(self, name: str) -> None:
        """The encounter page live, then with its socket cut (as when the wifi goes) for a few seconds."""
        url = self.page.url
        cut = {"now": False}

        def connect(route: WebSocketRoute) -> None:
            if cut["now"]:
                route.close(code=1006, reason="offline")
            else:
                route.connect_to_server()

        self.page.route_web_socket(re.compile(r"/ws/"), connect)
        self.page.goto(url)
        self.wait_until_live()
        self.shoot(name)
        cut["now"] = True
        self.context.set_offline(True)
        self.page.wait_for_timeout(OFFLINE_WAIT_MS)
        self.page.screenshot(path=self.out / f"{self.prefix}-{name}-offline.png", full_page=True)
        self.saved.append(self.out / f"{self.prefix}-{name}-offline.png")
        self.context.set_offline(False)
        self.page.unroute_all()

    def close(self) -> None:
        self.context.close()


def guest_tour(shooter: Shooter) -> None:
    shooter.visit("/", "front")
    shooter.visit("/accounts/login/", "login")
    shooter.page.get_by_label("Username").fill("nobody-at-all")
    shooter.page.get_by_label("Password").fill("not-the-password")
    shooter.page.get_by_role("button", name="Log in").click()
    shooter.page.wait_for_load_state()
    shooter.shoot("login-failed")
    shooter.visit("/accounts/signup/", "signup")
    shooter.page.get_by_label("Username").fill("someone-new")
    shooter.page.locator("input[type=password]").nth(0).fill("a-long-enough-password-1")
    shooter.page.locator("input[type=password]").nth(1).fill("a-different-password-2")
    shooter.submit_unchecked("signup-errors")


def reset_link_made(shooter: Shooter) -> None:
    """On a player's password-link page: make the link and shoot it shown, then the page it opens for a guest
    (a context of its own, at the same size and theme), the new password not sent."""
    shooter.page.get_by_role("button", name=re.compile(r"^Make (a password|another) link$")).click()
    shooter.page.wait_for_load_state()
    shooter.shoot("reset-link-made")
    shown = shooter.page.locator("#reset-url")
    if not shown.count():
        shooter.problems.append(f"{shooter.prefix}: no link shown on {shooter.page.url}")
        return
    url, page = shown.input_value(), shooter.page
    guest = shooter.context.browser.new_context(
        viewport=page.viewport_size, color_scheme=shooter.prefix.split("-")[1]
    )
    try:
        shooter.page = guest.new_page()
        shooter.visit(url, "reset-password")
    finally:
        shooter.page = page
        guest.close()


def host_tour(shooter: Shooter) -> None:
    """The admin as the host sees it: its index, the list of events, and one event (read-only)."""
    shooter.visit("/admin/", "admin")
    if shooter.follow("Events", scope="#content-main"):
        shooter.shoot("admin-events")
        if shooter.follow(re.compile(r"."), scope="#result_list tbody th"):
            shooter.shoot("admin-event")


def saga_tour(
    shooter: Shooter, saga: str, prefix: str, *, own_character_of: str = "", guide: bool = False
) -> str:
    """The saga page, a new character's sheet form (and a new NPC's, for the storyguide), a character sheet
    (the player's own) and its form, its first encounter (live and offline), its history and the encounter's
    record; returns the saga's invite link, when shown."""
    if not shooter.open_saga(saga):
        return ""
    saga_url = shooter.page.url
    shooter.shoot(f"{prefix}saga")
    invite = shooter.page.locator("input[value*='/join/']")
    invite_url = invite.first.input_value() if invite.count() else ""
    if guide and prefix:
        shooter.visit(saga_url + "attributes/", f"{prefix}attributes")
    if guide and not prefix and shooter.follow(re.compile(r"password link", re.I), scope="#members"):
        shooter.shoot("reset-link")
        reset_link_made(shooter)
    new_sheets = [("New character", "character-new")] + ([("New NPC", "npc-new")] if guide else [])
    for link, name in new_sheets:
        shooter.page.goto(saga_url)
        if shooter.follow(link):
            shooter.shoot(f"{prefix}{name}")
    shooter.page.goto(saga_url)
    rows = shooter.page.locator("#characters tbody tr")
    if own_character_of:
        rows = rows.filter(has_text=own_character_of)
    if rows.count():
        rows.first.get_by_role("link").first.click()
        shooter.page.wait_for_load_state()
        shooter.shoot(f"{prefix}character")
        character_url = shooter.page.url
        shooter.visit(character_url + "edit/", f"{prefix}character-form")
        if guide:
            shooter.visit(character_url + "manage/", f"{prefix}character-manage")
    else:
        shooter.problems.append(f"{shooter.prefix}: no character {own_character_of} on {saga_url}")
    shooter.page.goto(saga_url)
    encounter_url = ""
    if shooter.follow(re.compile(r"."), scope="#saga-encounters .encounter-list"):
        encounter_url = shooter.page.url
        shooter.encounter_live_and_offline(
            f"{prefix}{'player-page' if own_character_of else 'control-panel'}"
        )
    shooter.page.goto(saga_url)
    if shooter.follow(re.compile(r"history", re.I)):
        shooter.shoot(f"{prefix}history")
    saga_id = re.search(r"/sagas/(\d+)/", saga_url)
    if saga_id:
        shooter.visit(f"/sagas/{saga_id.group(1)}/charts/", f"{prefix}saga-charts")
        shooter.visit(f"/sagas/{saga_id.group(1)}/evening/", f"{prefix}evening-recap")
        if guide:
            shooter.visit(f"/sagas/{saga_id.group(1)}/manage/", f"{prefix}saga-manage")
    if encounter_url:
        encounter_id = re.search(r"/encounters/(\d+)/", encounter_url)
        if encounter_id:
            encounter = f"/encounters/{encounter_id.group(1)}/"
            shooter.visit(f"{encounter}record/", f"{prefix}record")
            shooter.visit(f"{encounter}replay/", f"{prefix}replay")
            shooter.visit(f"{encounter}charts/", f"{prefix}charts")
            if guide:
                shooter.visit(f"{encounter}manage/", f"{prefix}encounter-manage")
    return invite_url


def tour(shooter: Shooter, args: argparse.Namespace, credentials: str, who: str, shared: dict) -> None:
    if who == "guest":
        guest_tour(shooter)
        return
    if who == "newcomer" and shared.get("invite"):  # the invite as a guest sees it, and its sign-up page
        shooter.visit(shared["invite"], "invite")
        if shooter.follow("Join as a new player"):
            shooter.shoot("invite-signup")
    shooter.log_in(credentials)
    if who == "host":
        host_tour(shooter)
        return
    if who == "newcomer":
        if shared.get("invite"):
            shooter.visit(shared["invite"], "join")
            if shared.get("last"):  # joining changes the demo: once, when no later shot needs the invite
                shooter.page.get_by_role("button", name="Join as player").click()
                shooter.page.wait_for_load_state()
                shooter.shoot("saga-first-step")
        else:
            shooter.problems.append(f"{shooter.prefix}: no invite link was seen on the d6 saga's page")
        return
    player = who == "player"
    username = credentials.partition(":")[0] if player else ""
    shooter.visit("/", "home")
    shooter.visit("/sagas/", "sagas")
    if not player:
        shooter.page.goto("/")
        if shooter.follow("Start a saga"):
            shooter.shoot("saga-form")
            shooter.submit_unchecked("saga-form-errors")
        shooter.visit("/sagas/999999/", "not-found")
    saga_tour(shooter, args.saga, "", own_character_of=username, guide=not player)
    if args.d6_saga:
        shooter.page.goto("/sagas/")
        if shooter.page.locator("main").get_by_role("link", name=args.d6_saga).count():
            invite = saga_tour(shooter, args.d6_saga, "d6-", own_character_of=username, guide=not player)
            shared.setdefault("invite", invite)


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    executable = os.environ.get("COVENANT_CHROMIUM", "/usr/bin/chromium")
    sizes = list(SIZES) if args.size == "all" else [args.size]
    themes = list(THEMES) if args.theme == "all" else [args.theme]
    people = [("guest", ""), ("storyguide", args.storyguide), ("player", args.player)]
    if args.newcomer:
        people.append(("newcomer", args.newcomer))
    if args.host:
        people.append(("host", args.host))
    saved: list[Path] = []
    problems: list[str] = []
    shared: dict = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_ARGS)
        for size in sizes:
            for theme in themes:
                shared["last"] = (size, theme) == (sizes[-1], themes[-1])
                for who, credentials in people:
                    shooter = Shooter(browser, args.base_url, args.out, size, theme, who)
                    try:
                        tour(shooter, args, credentials, who, shared)
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
