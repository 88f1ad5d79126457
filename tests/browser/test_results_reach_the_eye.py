"""Issue 10, item 4 (results reach the eye) and item 5's tab title and vibration, on both systems.

Each new result is highlighted for a few seconds and read out from an aria-live region; on a phone a bar at
the top shows the latest result, headed by the player's own character when it is named; the acting order
stays at the top of a player's page; when a move is wanted from a player, the tab's title says so and the
phone vibrates once (navigator.vibrate, recorded here).
"""

import re

import pytest
from playwright.sync_api import Page, expect

from d6.models import Fight, Fighter

from .encounter_page import declare, event_seqs, load_demo_table, phase_is
from .people import PHONE, wait_until_true
from .test_d6_players_act import demo_encounter, seat_everyone

pytestmark = pytest.mark.browser

VIBRATIONS = """
window.__vibrations = [];
Object.defineProperty(Navigator.prototype, "vibrate", {
  configurable: true, value: function (pattern) { window.__vibrations.push(pattern); return true; }
});
"""
FRESH_FOR_MS = 10_000  # "a few seconds": the highlight is gone by then


def vibrations(page: Page) -> int:
    return page.evaluate("window.__vibrations.length")


def a_new_result_shows(page: Page, seq: int, words: str, *, who: str) -> None:
    """Event `seq` is highlighted, read out, and (on a phone) shown at the top, headed by `who`: stuck to the
    top of the screen, or, with the page at its top, under the who-is-here row (it covers nothing there:
    test_phone_widths.py); in the upper half of the screen either way."""
    item = page.get_by_test_id("event-log").locator(f"#event-{seq}")
    expect(item).to_have_class(re.compile(r"\bfresh\b"))
    expect(page.get_by_test_id("live-announce")).to_contain_text(words)
    expect(page.get_by_test_id("live-announce")).to_have_attribute("aria-live", "polite")
    bar = page.get_by_test_id("latest-result")
    expect(bar).to_be_visible()
    expect(bar).to_contain_text(words)
    expect(bar.get_by_test_id("latest-who")).to_have_text(who)
    box = bar.bounding_box()
    height = page.viewport_size["height"]
    assert box is not None and 0 <= box["y"] and box["y"] + box["height"] < height / 2, (
        f"the latest result is not at the top: {box}"
    )


def newest_seq(page: Page) -> int:
    return max(event_seqs(page))


def test_ars_magica_results_are_marked_read_out_and_shown_at_the_top_of_a_phone(table, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    saga, encounter, combatants = load_demo_table()
    boris, bandit = combatants["Sir Boris"], combatants["Bandit 1"]
    guide = table.person("storyguide")
    guide.enter_as(saga.storyguide)
    player = table.person("player1", viewport=PHONE)
    player.enter_as(boris.character.owner)
    player.context.add_init_script(VIBRATIONS)
    guide.goto(f"/encounters/{encounter.pk}/")
    player.goto(f"/encounters/{encounter.pk}/arsmagica/play/")
    for person in (guide, player):
        person.wait_until_live()
    page = player.page
    title = page.title()
    assert not title.startswith("▶")

    # The acting order sits at the top with the round and phase, and stays there when the page scrolls; on a
    # phone it starts folded (issue 32, item 4) and opens on a tap.
    peek = page.get_by_test_id("order-peek")
    expect(peek.get_by_test_id("acting-order")).to_be_hidden()
    peek.locator("summary").click()
    expect(peek.get_by_test_id("acting-order")).to_be_visible()
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    wait_until_true(page, "window.scrollY > 200")
    expect(peek.locator("summary")).to_be_in_viewport()
    assert peek.locator("summary").bounding_box()["y"] < 200
    peek.locator("summary").click()  # it folds away with a tap, and a push leaves it folded
    expect(peek.get_by_test_id("acting-order")).to_be_hidden()

    # The storyguide opens declarations: a result for everyone, and a declaration wanted from Boris's player.
    guide.page.get_by_test_id("open-declarations").click()
    phase_is(page, "declaring")
    a_new_result_shows(page, newest_seq(page), "declarations are open", who="Latest")
    expect(peek.get_by_test_id("acting-order")).to_be_hidden()
    expect(page).to_have_title(f"▶ Declare for Sir Boris · {title}")
    assert vibrations(page) == 1
    expect(guide.page).not_to_have_title(re.compile("^▶"))  # the storyguide owns no one

    # Boris's own declaration: the bar names him.
    page.evaluate("window.scrollTo(0, 0)")
    declare(page, boris, action="Fight hand to hand", weapon="Sword", engage=bandit)
    a_new_result_shows(page, newest_seq(page), "Sir Boris has declared", who="Sir Boris")
    expect(page.get_by_test_id("latest-result")).to_have_class(re.compile(r"\bmine\b"))
    expect(page).to_have_title(title)  # nothing is wanted from him any more
    assert vibrations(page) == 1

    # For a few seconds only.
    seq = newest_seq(page)
    expect(page.get_by_test_id("event-log").locator(f"#event-{seq}")).not_to_have_class(
        re.compile(r"\bfresh\b"), timeout=FRESH_FOR_MS
    )
    expect(page.get_by_test_id("latest-result")).to_be_hidden(timeout=FRESH_FOR_MS)
    assert table.page_errors() == []


def test_d6_results_name_the_players_character_and_the_tab_says_whose_turn_it_is(table, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    saga, encounter, combatants = demo_encounter("Ambush at the gate")
    guide, wren_player, tobias_player = seat_everyone(table, saga, encounter, combatants)
    for player in (wren_player, tobias_player):
        player.context.add_init_script(VIBRATIONS)
        player.page.reload()
        player.wait_until_live()
    player_of = {"Wren": wren_player, "Tobias": tobias_player}
    titles = {name: player.page.title() for name, player in player_of.items()}

    guide.page.get_by_test_id("start-fight").click()
    expect(wren_player.page.get_by_test_id("d6-turn")).to_be_visible()
    a_new_result_shows(wren_player.page, newest_seq(wren_player.page), "The fight begins", who="Wren")

    fight = Fight.objects.get(encounter=encounter)
    fighters = Fighter.objects.filter(fight=fight).select_related("combatant__character").order_by("position")
    order = [fighter.combatant.character.name for fighter in fighters]
    for turn, name in enumerate(order):
        for person in (guide, wren_player, tobias_player):
            expect(person.page.get_by_test_id("turn-current")).to_have_text(name)
        for player_name, player in player_of.items():
            if player_name == name:
                expect(player.page).to_have_title(f"▶ Your turn: {name} · {titles[player_name]}")
                assert vibrations(player.page) == 1
            else:
                expect(player.page).to_have_title(titles[player_name])
        if name in player_of:
            break
        guide.page.get_by_test_id("end-turn").click()
        assert turn < len(order) - 1
    assert table.page_errors() == []
