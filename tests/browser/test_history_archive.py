"""The history on a phone (390 x 844): a player filters the d6 demo saga by character and kind, pages
through a long saga, and downloads the archive and the recap, streamed by the real Daphne. Its headings keep
their words whole on a phone."""

import json
from io import StringIO

import pytest
from django.core.management import call_command
from playwright.sync_api import Page, expect

from campaign.models import Saga
from combat import services
from combat.archive.paging import PER_PAGE
from combat.models import Encounter, Event

from .people import PHONE, SPLIT_WORDS, outside_the_event_loop

pytestmark = pytest.mark.browser

FILLERS = 40  # encounters of set-up only, enough for a few pages


def long_demo_saga() -> Saga:
    """The d6 demo saga, its chase ready, with FILLERS more encounters of its characters."""
    call_command("load_demo_d6", stdout=StringIO())
    saga = Saga.objects.get(name="The chase through Ashford")
    characters = [c.pk for c in saga.characters.all()]
    for number in range(FILLERS):
        encounter = services.create_encounter(
            saga.storyguide, saga.pk, f"Market day {number}", saga.rule_system
        )
        services.add_combatants(saga.storyguide, encounter.pk, 1, characters, "Everyone")
    return saga


def no_sideways_scroll(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide on a {PHONE['width']} px phone"


def test_a_player_filters_pages_and_downloads_on_a_phone(table, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # load_demo_d6's logins
    saga = outside_the_event_loop(long_demo_saga)
    wren = saga.characters.get(name="Wren")
    player = table.person(wren.owner.username, viewport=PHONE)
    player.enter_as(wren.owner)
    page = player.goto(f"/sagas/{saga.pk}/history/")

    total = Event.objects.filter(encounter__saga=saga, storyguide_only=False).count()
    pages = -(-total // PER_PAGE)
    assert pages >= 3
    pager = page.get_by_test_id("pager").first
    expect(pager.get_by_test_id("pager-summary")).to_have_text(f"Page 1: entries 1 to {PER_PAGE}")
    expect(page.locator("li.event")).to_have_count(PER_PAGE)
    no_sideways_scroll(page)

    pager.get_by_test_id("page-next").click()
    summary = page.get_by_test_id("pager-summary").first
    expect(summary).to_have_text(f"Page 2: entries {PER_PAGE + 1} to {2 * PER_PAGE}")
    expect(page.locator("li.event")).to_have_count(PER_PAGE)
    for number in range(3, pages + 1):
        page.get_by_test_id("pager").first.get_by_test_id("page-next").click()
        expect(page.get_by_test_id("pager-summary").first).to_contain_text(f"Page {number}: ")
    expect(page.locator("li.event")).to_have_count(total - (pages - 1) * PER_PAGE)
    expect(page.get_by_test_id("pager").first.get_by_test_id("page-next")).to_have_count(0)
    no_sideways_scroll(page)

    filters = page.get_by_test_id("history-filters")
    filters.locator("select[name=character]").select_option(label="Wren")
    filters.locator("select[name=kind]").select_option(label="Combatant added")
    filters.get_by_role("button", name="Filter").click()
    lines = page.locator("li.event")
    expect(lines).to_have_count(FILLERS + 1)
    expect(lines.filter(has_text="Wren joins the fight")).to_have_count(FILLERS + 1)
    expect(page.get_by_test_id("pager-summary").first).to_have_text(f"Page 1: entries 1 to {FILLERS + 1}")
    expect(filters.locator("select[name=character]")).to_have_value(str(wren.pk))
    no_sideways_scroll(page)

    with page.expect_download() as download:
        page.get_by_test_id("archive-json").click()
    data = json.loads(open(download.value.path(), encoding="utf-8").read())
    assert data["audience"] == "players" and len(data["encounters"]) == FILLERS + 1
    with page.expect_download() as download:
        page.get_by_test_id("recap-md").click()
    recap = open(download.value.path(), encoding="utf-8").read()
    assert recap.startswith("# The chase through Ashford: session recap")
    entries = [line for line in recap.splitlines() if line.startswith("- ")]
    assert len(entries) == FILLERS + 1 and all("**Wren** joins the fight" in line for line in entries)


# 60 letters, one unbroken word: longer than a phone's line, so it alone may break.
LONG_ENCOUNTER = "TheAmbushAtAshfordshireTunbridgewellsworthingtonUnderhillsmy"


def d6_demo_with_a_long_encounter_name() -> tuple[Saga, Encounter]:
    call_command("load_demo_d6", stdout=StringIO())
    saga = Saga.objects.get(name="The chase through Ashford")
    encounter = services.create_encounter(saga.storyguide, saga.pk, LONG_ENCOUNTER, saga.rule_system)
    return saga, encounter


def lines_of(page: Page, selector: str) -> list[int]:
    """How many lines each element's text is drawn on."""
    return page.locator(selector).evaluate_all(
        """(elements) => elements.map((element) => {
          const range = document.createRange();
          range.selectNodeContents(element);
          const parts = [...range.getClientRects()].filter((rect) => rect.width > 0);
          return new Set(parts.map((rect) => Math.round(rect.top))).size;
        })"""
    )


def test_the_history_headings_keep_their_words_whole_on_a_phone(table, settings):
    """An encounter's heading on a phone: its name, its state, and its Print, Replay and Charts links. Each
    of the short words stays on one line, whatever the name's length; an unbroken name longer than the line
    breaks inside itself, and the page is no wider than the phone."""
    assert len(LONG_ENCOUNTER) == 60
    saga, _ = outside_the_event_loop(d6_demo_with_a_long_encounter_name)
    guide = table.person("storyguide", viewport=PHONE)
    guide.enter_as(saga.storyguide)
    page = guide.goto(f"/sagas/{saga.pk}/history/")
    headings = "[data-testid^=history-encounter-] h2"
    expect(page.locator(headings)).to_have_count(2)
    expect(page.locator(headings).last).to_contain_text(LONG_ENCOUNTER)
    states, links = lines_of(page, f"{headings} > span.muted"), lines_of(page, f"{headings} a.print-link")
    assert (states, links) == ([1] * 2, [1] * 6), "a state or a link drawn on more than one line"
    assert page.evaluate(SPLIT_WORDS) == []
    no_sideways_scroll(page)
