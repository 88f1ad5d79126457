"""The history on a phone (390 x 844): a player filters the d6 demo saga by character and kind, pages
through a long saga, and downloads the archive and the recap, streamed by the real Daphne. Its headings keep
their words whole on a phone, and its dice are drawn as the table draws them, on screen and on paper, in both
rule systems."""

import json
from io import StringIO
from itertools import pairwise

import pytest
from django.core.management import call_command
from playwright.sync_api import Page, expect

from campaign.models import Saga
from combat import services
from combat.archive.paging import PER_PAGE
from combat.models import Encounter, Event
from d6 import services as d6_services

from .encounter_page import fight_into_round_one, load_demo_table
from .people import DESKTOP, PHONE, SPLIT_WORDS, outside_the_event_loop, wait_until_true

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


def test_the_history_filters_stay_on_one_row_at_desktop_size_whatever_the_names(table, settings):
    """A 60-letter encounter name in the Encounter list does not push the other lists or the Filter button
    onto a row of their own at desktop size: the closed list shows the name cut, the open list whole."""
    saga, _ = outside_the_event_loop(d6_demo_with_a_long_encounter_name)
    guide = table.person("storyguide", viewport=DESKTOP)
    guide.enter_as(saga.storyguide)
    page = guide.goto(f"/sagas/{saga.pk}/history/")
    filters = page.get_by_test_id("history-filters")
    expect(filters.locator("select[name=encounter] option", has_text=LONG_ENCOUNTER)).to_have_count(1)
    bottoms = filters.locator("select, button").evaluate_all(
        "(controls) => controls.map((control) => Math.round(control.getBoundingClientRect().bottom))"
    )
    assert len(bottoms) == 4 and len(set(bottoms)) == 1, f"the filters' bottoms: {bottoms}"


def a_roll_in_each_demo_saga() -> dict[str, tuple[Saga, Encounter]]:
    """The Ars Magica demo fight into Melee (its Initiative and attack dice), the d6 chase's first exchange
    (the runners' dice), both in their sagas' logs."""
    saga, encounter, combatants = load_demo_table()
    outside_the_event_loop(fight_into_round_one, saga, encounter, combatants)

    def chase():
        call_command("load_demo_d6", stdout=StringIO())
        d6_saga = Saga.objects.get(name="The chase through Ashford")
        chase = Encounter.objects.get(saga=d6_saga)
        d6_services.exchange(d6_saga.storyguide, chase.pk, chase.version)
        return d6_saga, chase

    return {"arsmagica": (saga, encounter), "d6": outside_the_event_loop(chase)}


# How a die face is drawn: its box (border, corners, face colour), its digit, its size.
DIE_LOOK = """(die) => {
  const style = getComputedStyle(die);
  const box = die.getBoundingClientRect();
  return {
    display: style.display, border: `${style.borderTopStyle} ${style.borderTopWidth} ${style.borderTopColor}`,
    radius: style.borderTopLeftRadius, face: style.backgroundColor, digit: style.color,
    font: `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`,
    width: Math.round(box.width), height: Math.round(box.height),
  };
}"""
TABLE_PAGE = {"arsmagica": "/encounters/{pk}/", "d6": "/encounters/{pk}/d6/"}


def die_looks(faces) -> dict[str, dict]:
    """Each kind of die face (its classes: a d6's, a d10's, a stress die's 1 or botch) as it is drawn."""
    return {face.get_attribute("class"): face.evaluate(DIE_LOOK) for face in faces.all()}


def test_the_history_draws_each_die_as_the_table_does(table, settings):
    """Each die face in the history is the box the live table's log draws for it (Ars Magica's stress dice,
    the d6's d6 and d10s), on a phone in either theme: the same style and size, each face beside the next."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    sagas = a_roll_in_each_demo_saga()
    guide = table.person("storyguide", viewport=PHONE)
    guide.enter_as(sagas["d6"][0].storyguide)
    for system, (saga, encounter) in sagas.items():
        live = guide.goto(TABLE_PAGE[system].format(pk=encounter.pk))
        guide.wait_until_live(live)
        history = guide.goto(f"/sagas/{saga.pk}/history/", guide.new_tab())
        faces = history.locator("[data-testid^=history-encounter-] .die")
        for theme in ("light", "dark"):
            for page in (live, history):
                page.emulate_media(color_scheme=theme)
                # theme.js hears the system's change in a task of its own: the theme is on once it has run
                wait_until_true(page, f"document.documentElement.dataset.theme === '{theme}'")
            at_the_table = die_looks(live.get_by_test_id("event-log").locator(".die"))
            in_the_history = die_looks(faces)
            as_at_the_table = {kind: at_the_table.get(kind) for kind in in_the_history}
            assert in_the_history == as_at_the_table, (system, theme)
            plain = at_the_table["die d6" if system == "d6" else "die"]
            assert plain["border"].startswith("solid") and plain["width"] >= 12, (system, plain)
        boxes = [face.bounding_box() for face in faces.all()]
        assert len(boxes) >= 2, system
        for one, after in pairwise(boxes):
            if abs(one["y"] - after["y"]) < 1:  # side by side on a line: apart, not overlapping
                assert one["x"] + one["width"] <= after["x"] + 0.5, (system, one, after)
        history.close()


def luminance(colour: str) -> float:
    """WCAG's relative luminance of "rgb(r, g, b)"."""
    channels = (int(part) / 255 for part in colour[colour.index("(") + 1 : -1].split(",")[:3])
    red, green, blue = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast(one: str, other: str) -> float:
    lighter, darker = sorted((luminance(one), luminance(other)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def test_the_printed_record_draws_each_die_as_a_box_with_dark_digits_on_white(table, settings):
    """The print view of an encounter (its Print link), as paper gets it from either theme: each die face a
    bordered box, its digit dark on a light face (a botched die keeps its red), in both rule systems."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    sagas = a_roll_in_each_demo_saga()
    guide = table.person("storyguide")
    guide.enter_as(sagas["d6"][0].storyguide)
    for theme in ("light", "dark"):
        guide.page.emulate_media(media="print", color_scheme=theme)
        for system, (_, encounter) in sagas.items():
            page = guide.goto(f"/encounters/{encounter.pk}/record/")
            faces = page.get_by_test_id("record").locator(".die")
            assert faces.count() >= 2, system
            for kind, drawn in die_looks(faces).items():
                assert drawn["border"].startswith("solid") and drawn["width"] >= 12, (system, theme, drawn)
                assert contrast(drawn["digit"], drawn["face"]) >= 4.5, (system, theme, drawn)
                if "die-botch" not in kind:  # paper-light, its digit darker (a runner out of a chase: grey)
                    assert luminance(drawn["face"]) > 0.8 > luminance(drawn["digit"]), (system, theme, drawn)
