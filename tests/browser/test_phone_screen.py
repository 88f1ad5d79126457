"""Issue 32, item 4: a phone's screen for the game, not the chrome. At 390x844, for a player in each demo
saga: what stays pinned (the round and phase with the folded acting order, the latest result, the level
strip) takes at most a quarter of the height (211 px); a choice waiting on this player is scrolled into view
when it arrives and the top box names it; the fatigue track's numbers are at least 14 px; the pop-up reads
the server's sentence; a chart's labels are at least 14 px as drawn, the chart scrolling sideways in its
own box rather than the page."""

import os
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from combat.models import Encounter

from .encounter_page import load_demo_table, phase_is
from .people import PHONE, Person, wait_until_true
from .test_d6_chase import load_demo_chase

pytestmark = pytest.mark.browser

QUARTER = 211  # of 844
PINNED = ["#encounter-status", ".order-peek", "#latest-result", "#me-strip"]
# The height of each pinned part as drawn (0 when hidden).
PINNED_HEIGHTS = """(selectors) => selectors.map((s) => {
  const el = document.querySelector(s);
  if (!el || el.hidden || !el.getClientRects().length) { return [s, 0]; }
  return [s, el.getBoundingClientRect().height];
})"""
TRACK_SIZES = """Array.from(document.querySelectorAll('.track .cell'))
  .map((c) => parseFloat(getComputedStyle(c).fontSize))"""
# Each chart label's size as drawn: its font size times the chart's scale on the screen.
CHART_LABELS = """Array.from(document.querySelectorAll('svg.chart text'))
  .map((t) => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a)"""
SHOTS = Path(os.environ.get("COVENANT_LOOKS", "/tmp/covenant-looks"))


def pinned(page: Page) -> float:
    """The pinned parts' heights, summed; the connection chip lies within the level strip's band."""
    heights = dict(page.evaluate(PINNED_HEIGHTS, PINNED))
    if heights["#me-strip"]:
        strip = page.locator("#me-strip").bounding_box()
        chip = page.get_by_test_id("connection-chip").bounding_box()
        assert chip["y"] >= strip["y"] - 1, (chip, strip)
    return sum(heights.values())


def in_view_when_it_arrives(page: Page, testid: str) -> None:
    """The waiting choice `testid` is in the viewport, below the pinned status rather than under it."""
    choice = page.get_by_test_id(testid)
    expect(choice).to_be_visible()
    expect(choice).to_be_in_viewport()


def look(person: Person, name: str) -> None:
    """Screenshots at 390x844, light and dark, for docs/looks.md."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    person.page.wait_for_timeout(1000)  # a smooth scroll into view has settled
    for theme in ("light", "dark"):
        person.page.emulate_media(color_scheme=theme)
        person.page.evaluate("(t) => document.documentElement.dataset.theme = t", theme)
        person.page.screenshot(path=str(SHOTS / f"{name}-{theme}.png"))
    person.page.evaluate("delete document.documentElement.dataset.theme")


def seat(table, saga, combatant, path: str, players_page: str) -> tuple[Person, Person]:
    """The storyguide at `path` on a laptop; `combatant`'s player at `path` + `players_page` on a phone."""
    guide = table.person("storyguide")
    guide.enter_as(saga.storyguide)
    player = table.person(combatant.character.owner.username, viewport=PHONE)
    player.enter_as(combatant.character.owner)
    guide.goto(path)
    player.goto(path + players_page)
    for person in (guide, player):
        person.wait_until_live()
    return guide, player


def test_an_ars_magica_player_sees_the_game_and_the_declaration_wanted(table, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    saga, encounter, combatants = load_demo_table()
    guide, player = seat(table, saga, combatants["Sir Boris"], f"/encounters/{encounter.pk}/", "play/")
    page = player.page
    assert pinned(page) <= QUARTER
    expect(page.get_by_test_id("acting-order")).to_be_hidden()  # folded: a tap opens it

    # Scrolled to the log's end, the player is asked to declare: the form comes into view by itself.
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    wait_until_true(page, "window.scrollY > 100")
    guide.page.get_by_test_id("open-declarations").click()
    phase_is(page, "declaring")
    in_view_when_it_arrives(page, "my-declarations")
    expect(page.get_by_test_id("my-declarations").locator("h2")).to_have_text("Declare for Sir Boris")
    bar = page.get_by_test_id("latest-result")
    expect(bar).to_be_visible()
    expect(bar).to_contain_text("Round 1: declarations are open.")
    assert pinned(page) <= QUARTER, dict(page.evaluate(PINNED_HEIGHTS, PINNED))
    look(player, "phone-ars-magica-declare")
    assert table.page_errors() == []


def test_a_d6_runner_is_shown_where_to_run_and_reads_the_track(table, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    saga, encounter, chase = load_demo_chase()
    wren = chase.runners.get(role="target").combatant
    guide, player = seat(table, saga, wren, f"/encounters/{encounter.pk}/d6/", "")
    page = player.page
    assert pinned(page) <= QUARTER
    sizes = page.evaluate(TRACK_SIZES)
    assert sizes and min(sizes) >= 14, sizes

    # The storyguide offers a terrain change: the runner's box says a choice waits, and the choice is in view.
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    wait_until_true(page, "window.scrollY > 100")
    guide.page.get_by_test_id("offer").locator("summary").click()
    guide.page.get_by_test_id("offer-form").locator("input[name=offer][value='Rooftops']").check()
    guide.page.get_by_test_id("offer-submit").click()
    in_view_when_it_arrives(page, "choose-terrain-form")
    expect(page.get_by_test_id(f"your-run-heading-{wren.pk}")).to_have_text("Wren runs — choose where to run")
    bar = page.get_by_test_id("latest-result")
    expect(bar).to_contain_text("offers Wren a terrain change")
    assert pinned(page) <= QUARTER, dict(page.evaluate(PINNED_HEIGHTS, PINNED))
    look(player, "phone-d6-where-to-run")
    assert Encounter.objects.get(pk=encounter.pk).status == "running"
    assert table.page_errors() == []


def test_a_chart_reads_on_a_phone(table, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    saga, encounter, chase = load_demo_chase()
    wren = chase.runners.get(role="target").combatant
    player = table.person(wren.character.owner.username, viewport=PHONE)
    player.enter_as(wren.character.owner)
    page = player.goto(f"/encounters/{encounter.pk}/charts/")
    expect(page.locator("svg.chart").first).to_be_visible()
    sizes = page.evaluate(CHART_LABELS)
    assert sizes and min(sizes) >= 14, sizes
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # the chart scrolls, not the page
    assert table.page_errors() == []
