"""The replay in a browser, on a phone (390 x 844) and at desktop size: a player steps through the demo
fight with next, previous and the scrubber, each step its own URL; while the fight runs, the replay
offers the newest step as the storyguide rolls on (ArM3 p163-p168)."""

import re

import pytest
from playwright.sync_api import expect

from arsmagica import services
from combat.models import Event

from .encounter_page import fight_into_round_one, load_demo_table, version
from .people import DESKTOP, PHONE, outside_the_event_loop, wait_until_true

pytestmark = pytest.mark.browser


def shown_seqs(encounter) -> list[int]:
    return list(
        Event.objects.filter(encounter=encounter, storyguide_only=False)
        .order_by("seq")
        .values_list("seq", flat=True)
    )


def no_sideways_scroll(page, width: int) -> None:
    scrolled = page.evaluate("document.documentElement.scrollWidth")
    assert scrolled <= width, f"the page is {scrolled} px wide in a {width} px window"


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_player_steps_through_the_fight_with_next_previous_and_the_scrubber(table, settings, viewport):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # load_demo's logins
    saga, encounter, combatants = load_demo_table()
    outside_the_event_loop(fight_into_round_one, saga, encounter, combatants)
    seqs = outside_the_event_loop(shown_seqs, encounter)
    boris = combatants["Sir Boris"]
    player = table.person(boris.character.owner.username, viewport=viewport)
    player.enter_as(boris.character.owner)
    url = f"/encounters/{encounter.pk}/replay/"
    page = player.goto(url)
    replay = page.get_by_test_id("replay")
    expect(replay).to_have_attribute("data-seq", str(seqs[0]))
    expect(page.get_by_test_id("replay-where")).to_contain_text(f"Step 1 of {len(seqs)}")
    expect(page.get_by_test_id("replay-table")).to_be_visible()
    no_sideways_scroll(page, viewport["width"])

    page.get_by_test_id("replay-next").click()
    expect(page).to_have_url(re.compile(rf"{url}\?seq={seqs[1]}$"))
    expect(page.get_by_test_id("replay-where")).to_contain_text("Step 2 of")
    page.get_by_test_id("replay-next").click()
    expect(page).to_have_url(re.compile(rf"\?seq={seqs[2]}$"))
    page.get_by_test_id("replay-previous").click()
    expect(page).to_have_url(re.compile(rf"\?seq={seqs[1]}$"))
    expect(page.get_by_test_id("replay-current")).to_be_visible()
    # The page and its stylesheets loaded (a computed style before them is the browser's default), and htmx
    # listens on the scrubber from here (on a busy machine it could be later).
    page.wait_for_load_state()
    marker = "li => getComputedStyle(li).listStyleType"  # "none": no stray "1."
    assert page.get_by_test_id("replay-current").locator("li").first.evaluate(marker) == "none"

    movement = outside_the_event_loop(lambda: Event.objects.get(encounter=encounter, kind="movement").seq)
    player.mark_page(page)
    page.get_by_test_id("replay-range").fill(str(movement))  # the scrubber: htmx swaps the step in
    expect(page).to_have_url(re.compile(rf"\?seq={movement}$"))
    expect(replay).to_have_attribute("data-seq", str(movement))
    player.assert_not_reloaded(page)
    expect(page.get_by_test_id("replay-order")).to_contain_text("Sir Boris")
    expect(page.get_by_test_id("replay-current")).to_contain_text("Sir Boris")
    no_sideways_scroll(page, viewport["width"])

    shared = player.goto(f"{url}?seq={seqs[-1]}", player.new_tab())  # a step's URL, shared
    expect(shared.get_by_test_id("replay")).to_have_attribute("data-seq", str(seqs[-1]))
    expect(shared.get_by_test_id("replay-next-here")).to_be_visible()
    assert table.page_errors() == []


def test_the_replay_of_a_running_fight_offers_the_newest_step(table, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    saga, encounter, combatants = load_demo_table()
    outside_the_event_loop(fight_into_round_one, saga, encounter, combatants)
    guide = table.person("storyguide", viewport=PHONE)
    guide.enter_as(saga.storyguide)
    page = guide.goto(f"/encounters/{encounter.pk}/replay/?seq=1")
    latest = page.get_by_test_id("replay-to-latest")
    before = outside_the_event_loop(lambda: Event.objects.filter(encounter=encounter).order_by("-seq")[0].seq)
    expect(latest).to_have_attribute("data-seq", str(before))

    def fatigue():  # Second Missile and Magic passed by themselves after Melee
        services.preview_phase(saga.storyguide, encounter.pk, version(encounter), "fatigue")
        services.confirm_phase(saga.storyguide, encounter.pk, version(encounter), "fatigue")
        return Event.objects.filter(encounter=encounter).order_by("-seq")[0].seq

    after = outside_the_event_loop(fatigue)
    assert after > before
    wait_until_true(
        page, f"document.querySelector('[data-testid=replay-to-latest]').dataset.seq === '{after}'", 12_000
    )
    page.get_by_test_id("replay-to-latest").click()
    expect(page.get_by_test_id("replay")).to_have_attribute("data-seq", str(after))
    expect(page.get_by_test_id("replay-current")).to_contain_text("Fatigue")
    assert table.page_errors() == []
