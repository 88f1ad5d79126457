"""Looks: axe-core finds no serious or critical violation on any page, in either theme, at phone and desktop
size, for the storyguide and for a player; no page is wider than a 390-px phone, even with 60-character names,
and none breaks a word that would fit on its line; the theme follows prefers-color-scheme and the toggle is
remembered.

One Daphne and one seeded saga serve every case: the module seeds the two demo sagas once (an Ars Magica round
with declarations open, a d6 chase and a d6 fight running, Wren having rolled on her turn), gives the player's
characters 60-character names, and keeps one browser context per person, size and theme. PAGES lists what is
checked, by path (filled in from the seeded ids) and, for an error state, the steps that put the page in it:
add a page by adding a line.
"""

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from io import StringIO
from unittest import mock

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from playwright.sync_api import Browser, BrowserContext, Page, expect

from arsmagica.services.declarations import open_declarations
from campaign import services as campaign_services
from campaign.models import Membership, Saga
from combat import services as combat_services
from combat.models import Encounter
from d6 import services as d6_services
from d6.models import Fight
from d6.services import dice as d6_dice

from .people import DESKTOP, PHONE, SPLIT_WORDS, TIMEOUT_MS, outside_the_event_loop, wait_until_true

pytestmark = pytest.mark.browser

SIZES = {"phone": PHONE, "desktop": DESKTOP}
THEMES = ("light", "dark")
SERIOUS = {"serious", "critical"}
# 60 characters each, one of them a single unbroken word: the longest names a phone must still fit.
LONG_NAMES = {
    "Sir Boris": "Sir Boris Aurelianus Maximilianus of the Ravenswoode Marches",
    "Wren": "WrenAshfordshireTunbridgewellsworthingtonUnderhillsmytheHall",
}
AXE = Axe()
# Counts the frames an encounter page's socket swaps in (htmx's websocket extension events).
LIVE_PROBE = """
window.__covenantLive = {frames: 0};
document.addEventListener("htmx:wsAfterMessage", () => { window.__covenantLive.frames += 1; });
"""


def _submit_unchecked(page: Page, form: str = "main form") -> None:
    """Send `form` past the browser's own checks (required, min), so the server's errors show."""
    page.locator(form).first.evaluate("(form) => { form.noValidate = true; }")
    page.locator(form).first.locator("button[type=submit]").last.click()
    page.wait_for_load_state()


def _wrong_password(page: Page) -> None:
    page.get_by_label("Username").fill(f"nobody-{uuid.uuid4().hex[:8]}")
    page.get_by_label("Password").fill("not-the-password")
    page.get_by_role("button", name="Log in").click()
    expect(page.locator(".form-errors, .errorlist").first).to_be_visible()


def _locked_out(page: Page) -> None:
    """Fail to log in as one username until django-axes locks it (the first case locks it for the rest)."""
    for _ in range(settings.AXES_FAILURE_LIMIT + 1):
        page.get_by_label("Username").fill("locked-out-person")
        page.get_by_label("Password").fill("not-the-password")
        page.get_by_role("button", name="Log in").click()
        page.wait_for_load_state()
        if page.get_by_test_id("locked-out").count():
            return
    raise AssertionError("the login was never locked out")


def _signup_mismatch(page: Page) -> None:
    page.get_by_label("Username").fill("someone-new")
    page.locator("input[type=password]").nth(0).fill("a-long-enough-password-1")
    page.locator("input[type=password]").nth(1).fill("a-different-password-2")
    _submit_unchecked(page)


def _troupe_refused(page: Page) -> None:
    """The lead sends "Make a storyguide" with no member chosen: the error beside the choice."""
    page.get_by_test_id("make-storyguide").click()
    expect(page.get_by_test_id("make-storyguide-form").locator(".error")).to_be_visible()


def _live(page: Page) -> None:
    """An encounter page: its socket's first frame has drawn the live state."""
    wait_until_true(page, "window.__covenantLive.frames >= 1")


@dataclass(frozen=True)
class Visit:
    """A page to check: who opens it, its path (str.format with the seeded ids), what to do there first."""

    name: str
    who: str  # "guest", "storyguide", "player" (the player of Sir Boris and Wren), "newcomer" (not in a saga)
    path: str
    then: Callable[[Page], None] | None = None
    status: int = 200
    # Answered by this process (DEBUG off, as in production) instead of the server, whose DEBUG shows Django's
    # technical 404 page: the page a real visitor gets.
    as_in_production: bool = False
    # The status the steps end on, where it is an error by design (the lockout's 429): the one console error.
    ends_on: int | None = None


PAGES = [
    Visit("front", "guest", "/"),
    Visit("login", "guest", "/accounts/login/"),
    Visit("login-failed", "guest", "/accounts/login/", _wrong_password),
    Visit("locked-out", "guest", "/accounts/login/", _locked_out, ends_on=429),
    Visit("signup", "guest", "/accounts/signup/"),
    Visit("signup-errors", "guest", "/accounts/signup/", _signup_mismatch),
    Visit("offline", "guest", "/offline/"),
    Visit("home", "storyguide", "/"),
    Visit("sagas", "storyguide", "/sagas/"),
    Visit("sagas", "player", "/sagas/"),
    Visit("saga-form-errors", "storyguide", "/sagas/new/", _submit_unchecked),
    Visit("saga", "storyguide", "/sagas/{saga}/"),
    Visit("saga", "player", "/sagas/{saga}/"),
    Visit("saga-troupe-errors", "storyguide", "/sagas/{saga}/", _troupe_refused),
    Visit("d6-saga", "player", "/sagas/{d6_saga}/"),
    Visit("character", "storyguide", "/characters/{npc}/"),
    Visit("character", "player", "/characters/{character}/"),
    Visit("character-form", "player", "/characters/{character}/edit/"),
    Visit("character-form-errors", "storyguide", "/sagas/{saga}/characters/new/", _submit_unchecked),
    Visit("d6-character", "player", "/characters/{d6_character}/"),
    Visit("d6-character-form", "player", "/characters/{d6_character}/edit/"),
    Visit("join", "newcomer", "/join/{invite}/"),
    Visit("encounter", "storyguide", "/encounters/{encounter}/", _live),
    Visit("encounter", "player", "/encounters/{encounter}/arsmagica/play/", _live),
    Visit("d6-chase", "storyguide", "/encounters/{chase}/d6/", _live),
    Visit("d6-chase", "player", "/encounters/{chase}/d6/", _live),
    Visit("d6-fight", "storyguide", "/encounters/{fight}/d6/", _live),
    Visit("d6-fight", "player", "/encounters/{fight}/d6/", _live),
    Visit("history", "storyguide", "/sagas/{saga}/history/"),
    Visit("history", "player", "/sagas/{saga}/history/"),
    Visit("d6-history", "player", "/sagas/{d6_saga}/history/"),
    Visit("record", "storyguide", "/encounters/{encounter}/record/"),
    Visit("record", "player", "/encounters/{chase}/record/"),
    Visit("d6-attributes", "storyguide", "/sagas/{d6_saga}/attributes/"),
    Visit("replay", "storyguide", "/encounters/{encounter}/replay/"),
    Visit("replay", "player", "/encounters/{encounter}/replay/?seq=3"),
    Visit("d6-replay", "player", "/encounters/{chase}/replay/"),
    Visit("charts", "storyguide", "/encounters/{encounter}/charts/"),
    Visit("charts", "player", "/encounters/{chase}/charts/"),
    Visit("saga-charts", "storyguide", "/sagas/{saga}/charts/"),
    Visit("saga-charts", "player", "/sagas/{d6_saga}/charts/"),
    Visit("saga-manage", "storyguide", "/sagas/{saga}/manage/"),
    Visit("character-manage", "storyguide", "/characters/{npc}/manage/"),
    Visit("encounter-manage", "storyguide", "/encounters/{encounter}/manage/"),
    Visit("not-found", "player", "/sagas/999999/", status=404, as_in_production=True),
    Visit("forbidden", "player", "/sagas/{saga}/npcs/new/", status=403),
]


class EveryDieAtItsHighest:
    """Dice for the seeded fight's Initiative: every d6 shows 6 and every d10 a ten, so the higher Dexterity
    acts first: Wren (11), Watchman Hale (10), Tobias (6). The player's own turn comes first in every run
    (the server's dice left Hale first about 3 runs in 10), so both fight pages are always checked with the
    part the dice decided, the turn panel for Wren; otherwise a page is the same, less that panel. Wren's
    roll on her turn, in the seeding, is on these dice too."""

    def face(self, sides: int) -> int:
        return 0 if sides == 10 else sides  # a d10's ten shows 0


def _seed() -> dict:
    call_command("load_demo", stdout=StringIO())
    call_command("load_demo_d6", stdout=StringIO())
    saga = Saga.objects.get(name="Sir Boris and the bandits")
    d6_saga = Saga.objects.get(name="The chase through Ashford")
    guide = saga.storyguide
    for old, new in LONG_NAMES.items():
        character = saga.characters.get(name=old) if old == "Sir Boris" else d6_saga.characters.get(name=old)
        character.name = new
        character.save(update_fields=["name"])
    encounter = Encounter.objects.get(saga=saga)
    open_declarations(guide, encounter.pk, encounter.version)  # a round under way
    # A troupe of two (issue 38): the saga page lists them and offers the lead's changes, the encounter's
    # page its seat's hand-over.
    dora = get_user_model().objects.create_user("dora")
    Membership.objects.create(saga=saga, user=dora, role=Membership.Role.PLAYER)
    campaign_services.make_storyguide(saga, dora, by=guide)
    chase = Encounter.objects.get(saga=d6_saga)
    fight = d6_services.create_encounter(guide, d6_saga.pk, "A scuffle at the Ashford gate")
    for side, names in (("Companions", ("Tobias", LONG_NAMES["Wren"])), ("The watch", ("Watchman Hale",))):
        fight.refresh_from_db()
        ids = list(d6_saga.characters.filter(name__in=names).values_list("pk", flat=True))
        combat_services.add_combatants(guide, fight.pk, fight.version, ids, side)
    fight.refresh_from_db()
    with mock.patch.object(d6_dice, "server_dice", EveryDieAtItsHighest):
        d6_services.start_fight(guide, fight.pk, fight.version)
    first = Fight.objects.get(encounter=fight).fighters.order_by("position").first()
    assert first.combatant.character.name == LONG_NAMES["Wren"], "the player's turn comes first"
    player = saga.characters.get(name=LONG_NAMES["Sir Boris"]).owner
    # Wren's player rolls on her turn, which stays current: the log has an entry labelled with her
    # unbroken name ("Round 1 · WrenAshfordshire…"), for both fight pages to fit on a phone.
    fight.refresh_from_db()
    with mock.patch.object(d6_dice, "server_dice", EveryDieAtItsHighest):
        d6_services.roll(player, fight.pk, fight.version, first.combatant_id, "attribute:dexterity")
    newcomer = get_user_model().objects.create_user("newcomer", password="a-long-enough-password-1")
    return {
        "ids": {
            "saga": saga.pk,
            "d6_saga": d6_saga.pk,
            "encounter": encounter.pk,
            "chase": chase.pk,
            "fight": fight.pk,
            "character": saga.characters.get(owner=player).pk,
            "npc": saga.characters.filter(owner__isnull=True).first().pk,
            "d6_character": d6_saga.characters.get(owner=player).pk,
            "invite": saga.invite_token,
        },
        "users": {"storyguide": guide, "player": player, "newcomer": newcomer},
        "cookies": {
            who: _session_cookie(user)
            for who, user in (("storyguide", guide), ("player", player), ("newcomer", newcomer))
        },
    }


def _session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


class Seats:
    """One browser context per (person, size, theme), made when first asked for and kept for the module.
    The page-by-page checks use the light seats and switch the system's scheme to dark on the same page
    (theme.js follows it), so each page is loaded once per size."""

    def __init__(self, browser: Browser, base_url: str, seeded: dict, blocker):
        self.browser, self.base_url, self.blocker = browser, base_url, blocker
        self.users, self.cookies = seeded["users"], seeded["cookies"]
        self.contexts: dict[tuple, BrowserContext] = {}
        self.errors: list[str] = []  # every page's errors and console errors, as "url: text"

    def page(self, who: str, size: str, theme: str) -> Page:
        key = (who, size, theme)
        if key not in self.contexts:
            # No service worker: it would answer the navigations _answer_as_in_production routes, and
            # page.route sees none of a worker's requests (test_installable.py checks the worker).
            context = self.browser.new_context(
                base_url=self.base_url, viewport=SIZES[size], color_scheme=theme, service_workers="block"
            )
            context.set_default_timeout(TIMEOUT_MS)
            context.add_init_script(LIVE_PROBE)
            if who in self.cookies:
                cookie = self.cookies[who]
                context.add_cookies(
                    [{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": self.base_url}]
                )
            self.contexts[key] = context
        context = self.contexts[key]
        if context.pages:
            return context.pages[0]
        page = context.new_page()
        page.on("pageerror", lambda error: self.errors.append(f"{page.url}: {error}"))
        page.on(
            "console",
            lambda message: message.type == "error" and self.errors.append(f"{page.url}: {message.text}"),
        )
        return page

    def close(self) -> None:
        for context in self.contexts.values():
            context.close()


@pytest.fixture(scope="module")
def db(daphne):
    """Named `db` so pytest-django creates the test database for these tests (it looks for the name); it
    stands for one database seeded per module, shared by every case, where pytest-django's own `db` or
    `transactional_db` would empty it after each case."""
    return daphne


@pytest.fixture(scope="module")
def seated(chromium, db, django_db_blocker):
    with django_db_blocker.unblock():
        seeded = outside_the_event_loop(_seed)
    seats = Seats(chromium, db.url, seeded, django_db_blocker)
    try:
        yield seats, seeded["ids"]
    finally:
        seats.close()
        with django_db_blocker.unblock():
            outside_the_event_loop(call_command, "flush", interactive=False, stdout=StringIO())


# The page has loaded and htmx has nothing left to fetch: no request in flight and no element still waiting to
# load its part (hx-trigger="load", swapped out by its answer). The pages fetch nothing else once loaded, so
# this is what Playwright's "networkidle" waited for, without its fixed half second of quiet on every page.
SETTLED = "document.readyState === 'complete' && !document.querySelector('.htmx-request, [hx-trigger=load]')"


def _open(seats: Seats, ids: dict, visit: Visit, size: str, theme: str) -> Page:
    page = seats.page(visit.who, size, theme)
    seats.errors.clear()
    path = visit.path.format(**ids)
    if visit.as_in_production:
        with seats.blocker.unblock():
            _answer_as_in_production(page, seats.users.get(visit.who), path)
    response = page.goto(path)
    assert response is not None and response.status == visit.status, (visit, response and response.status)
    if visit.then:
        visit.then(page)
    wait_until_true(page, SETTLED)
    assert page.evaluate("document.documentElement.dataset.theme") == theme
    assert not _unexpected(seats.errors, visit), seats.errors
    return page


def _unexpected(errors: list[str], visit: Visit) -> list[str]:
    """The console's errors but the one an error page's own status gives ("Failed to load resource: the
    server responded with a status of 404"), or the status its steps end on: that page is the case checked."""
    statuses = {status for status in (visit.status, visit.ends_on) if status and status != 200}
    expected = tuple(f"the server responded with a status of {status} " for status in statuses)
    return [error for error in errors if not any(words in error for words in expected)]


def _answer_as_in_production(page: Page, user, path: str) -> None:
    def render():
        client = Client(raise_request_exception=False)
        if user is not None:
            client.force_login(user)
        return client.get(path)

    assert not settings.DEBUG  # pytest-django runs the test process with DEBUG off
    response = outside_the_event_loop(render)
    body, status = response.content, response.status_code
    page.route(
        lambda url: url.endswith(path),
        lambda route: route.fulfill(status=status, body=body, content_type=response["Content-Type"]),
    )


def _case_id(visit: Visit) -> str:
    return f"{visit.name}-{visit.who}"


def _serious_violations(page: Page, size: str, theme: str) -> str:
    if not page.evaluate("window.axe !== undefined"):  # injected once a page: the dark run reuses it
        page.evaluate(AXE.axe_script)
    violations = page.evaluate("axe.run({resultTypes: ['violations']}).then((results) => results.violations)")
    serious = [v for v in violations if v.get("impact") in SERIOUS]
    return "\n".join(
        f"{page.url} ({size}, {theme}): {v['id']} ({v['impact']}): {v['help']}\n    "
        + "\n    ".join(
            f"{node['target']}: {node.get('failureSummary', '')[:300]}" for node in v["nodes"][:6]
        )
        for v in serious
    )


def _switch_theme(page: Page, theme: str) -> None:
    page.emulate_media(color_scheme=theme)
    wait_until_true(page, f"document.documentElement.dataset.theme === '{theme}'")


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("visit", PAGES, ids=_case_id)
def test_every_page_passes_axe_in_both_themes_fits_a_phone_and_has_44px_targets(seated, visit, size):
    """axe-core: no serious or critical violation, light then dark; at phone size, no page wider than the
    phone (60-character names), no word broken that would fit on its line, and no touch target under 44 px."""
    seats, ids = seated
    page = _open(seats, ids, visit, size, "light")
    problems = [_serious_violations(page, size, "light")]
    if size == "phone":
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > PHONE["width"]:
            wide = page.evaluate(WIDE_ELEMENTS)
            problems.append(f"{page.url} is {width}px wide on a {PHONE['width']}px phone: {wide}")
        split = page.evaluate(SPLIT_WORDS)
        if split:
            problems.append(f"{page.url}: words broken across lines: {split[:8]}")
        small = page.evaluate(SMALL_TARGETS)
        if small:
            problems.append(f"{page.url}: targets under 44 px: {small[:8]}")
    _switch_theme(page, "dark")
    try:
        problems.append(_serious_violations(page, size, "dark"))
    finally:
        _switch_theme(page, "light")
    problems.extend(_unexpected(seats.errors, visit))  # the switch to dark and back logged no error
    problems = [p for p in problems if p]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("visit", PAGES, ids=_case_id)
def test_every_page_opened_in_the_dark_theme_logs_no_console_error(seated, visit):
    """No Content-Security-Policy violation, missing htmx target or script error on a page loaded dark
    (theme.js draws it dark from the start), for the storyguide, a player and a guest (`_open` checks)."""
    seats, ids = seated
    page = _open(seats, ids, visit, "phone", "dark")
    page.wait_for_timeout(100)  # a live frame's swap after the page settled
    assert not _unexpected(seats.errors, visit), seats.errors


WIDE_ELEMENTS = """() => [...document.querySelectorAll('body *')]
    .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 0.5)
    .filter((el) => !el.closest('.table-scroll'))
    .slice(0, 5)
    .map((el) => `${el.tagName}.${el.className}: ${(el.textContent || '').trim().slice(0, 60)}`)"""


# Every control a finger presses (for a checkbox or radio, the label that carries it): [what, height].
SMALL_TARGETS = """() => [...document.querySelectorAll(
    'button, .button, select, summary, input:not([type=hidden]), textarea')]
  .filter((el) => el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden')
  .map((el) => ['checkbox', 'radio'].includes(el.type)
    ? (el.closest('label') || document.querySelector(`label[for="${el.id}"]`) || el) : el)
  .map((el) => [`${el.tagName}.${el.className}: ${(el.textContent || el.name || '').trim().slice(0, 40)}`,
                el.getBoundingClientRect().height])
  .filter(([, height]) => height < 43.5)"""


def test_long_names_are_the_seeded_60_characters():
    assert {len(name) for name in LONG_NAMES.values()} == {60}


def test_the_theme_follows_the_system_and_the_toggle_is_remembered(seated):
    seats, ids = seated
    page = seats.page("player", "phone", "dark")  # a dark system
    page.goto(f"/sagas/{ids['saga']}/")
    root = "document.documentElement"
    assert page.evaluate(f"{root}.dataset.theme") == "dark"
    dark_paper = page.evaluate("getComputedStyle(document.body).backgroundColor")
    toggle = page.locator(".theme-toggle")  # it names the theme it switches to, not the one on
    expect(toggle).to_have_accessible_name("Light theme")
    assert toggle.get_attribute("aria-pressed") is None  # an action, not a state pressed or not
    box = toggle.bounding_box()
    assert box["height"] >= 44, box

    toggle.click()
    assert page.evaluate(f"{root}.dataset.theme") == "light"
    expect(toggle).to_have_accessible_name("Dark theme")
    light_paper = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert light_paper != dark_paper

    page.goto(f"/sagas/{ids['saga']}/history/")  # another page, the choice kept over the system's
    assert page.evaluate(f"{root}.dataset.theme") == "light"
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == light_paper
    page.get_by_role("button", name="Dark theme").click()  # and back to dark
    assert page.evaluate("localStorage.getItem('covenant-theme')") == "dark"
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == dark_paper
