"""A d6 chase at the demo table, run to its end: the storyguide and two players, each in their own browser.

Issue 4's "done when": a chase with the storyguide and two players runs to its end (caught or escaped),
each player seeing every move without reloading. The demo's target, Wren, is player1's; Tobias (player2)
watches. The server rolls, so each screen is checked against what the server recorded, exchange by
exchange, before the storyguide rolls the next one.
"""

from io import StringIO

import pytest
from django.core.management import call_command
from playwright.sync_api import Page, expect

from campaign.models import Saga
from combat.models import Encounter, Event
from d6 import kinds
from d6.events import players_entry
from d6.models import Chase, Runner

from .people import PHONE, outside_the_event_loop

pytestmark = pytest.mark.browser

MAX_EXCHANGES = 60  # fatigue rises on low d6s and drops runners out long before this


def load_demo_chase():
    outside_the_event_loop(call_command, "load_demo_d6", stdout=StringIO())
    saga = Saga.objects.get(name="The chase through Ashford")
    encounter = Encounter.objects.get(saga=saga)
    return saga, encounter, Chase.objects.get(encounter=encounter)


def shows_the_chase(page: Page, chase: Chase, *, player: bool = False) -> None:
    """The page shows the chase as the database holds it: the exchange, each chaser's distance and state;
    a player's page shows an NPC runner's result behind the screen (the saga's default, results only)."""
    section = page.get_by_test_id("d6-chase")
    if chase.exchanges:
        expect(section.get_by_test_id("last-exchange")).to_have_attribute("data-number", str(chase.exchanges))
        for roll in players_exchange(chase) if player else chase.last_exchange["rolls"]:
            row = section.get_by_test_id(f"exchange-roll-{roll['runner']}")
            expect(row).to_contain_text(str(roll["result"]) if "result" in roll else roll["name"])
    for runner in chase.runners.filter(role=Runner.Role.CHASER):
        row = section.get_by_test_id(f"distance-{runner.combatant_id}")
        expect(row).to_have_attribute("data-distance", str(runner.distance))
        expect(row).to_have_attribute("data-status", runner.status)
        expect(section.get_by_test_id(f"grid-runner-{runner.combatant_id}")).to_have_attribute(
            "data-distance", str(runner.distance)
        )


def players_exchange(chase: Chase) -> list[dict]:
    """The last exchange's rolls as the saga's players see them."""
    players = {str(r.combatant_id) for r in chase.runners.all() if not r.combatant.character.is_npc}
    npc_rolls = chase.encounter.saga.npc_rolls
    return players_entry(kinds.EXCHANGE, chase.last_exchange, players, npc_rolls)["rolls"]


def test_a_chase_runs_to_its_end_and_both_players_see_every_move_live(table, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # load_demo_d6's logins
    saga, encounter, chase = load_demo_chase()
    wren = chase.runners.get(role=Runner.Role.TARGET).combatant
    tobias = encounter.combatants.get(character__name="Tobias")

    guide = table.person("storyguide")
    guide.enter_as(saga.storyguide)
    wren_player = table.person(wren.character.owner.username, viewport=PHONE)
    wren_player.enter_as(wren.character.owner)
    tobias_player = table.person(tobias.character.owner.username)
    tobias_player.enter_as(tobias.character.owner)
    players = [wren_player, tobias_player]
    everyone = [guide, *players]
    for person in everyone:
        person.goto(f"/encounters/{encounter.pk}/d6/")
    for person in everyone:
        person.wait_until_live()
        person.mark_page()
        expect(person.page.get_by_test_id("chase-grid")).to_be_visible()
        shows_the_chase(person.page, chase, player=person is not guide)

    # The storyguide offers the target the rooftops; only Wren's player may choose, and does.
    guide.page.get_by_test_id("offer").locator("summary").click()
    guide.page.get_by_test_id("offer-form").locator("input[name=offer][value='Rooftops']").check()
    guide.page.get_by_test_id("offer-submit").click()
    choose = wren_player.page.get_by_test_id("choose-terrain-form")
    expect(choose).to_be_visible()
    expect(tobias_player.page.get_by_test_id("waiting-for-choice")).to_be_visible()
    expect(tobias_player.page.get_by_test_id("choose-terrain-form")).to_be_hidden()
    choose.get_by_role("button", name="Rooftops").click()
    for person in everyone:
        expect(person.page.get_by_test_id("chase-terrain")).to_have_attribute("data-terrain", "Rooftops")
    chase.refresh_from_db()
    assert chase.stretches[-1]["name"] == "Rooftops" and not chase.offered

    # Exchanges until the chase ends; every screen shows each exchange before the next is rolled.
    for number in range(1, MAX_EXCHANGES + 1):
        guide.page.get_by_test_id("roll-exchange").click()
        for person in everyone:
            expect(person.page.get_by_test_id("last-exchange")).to_have_attribute("data-number", str(number))
        chase.refresh_from_db()
        assert chase.exchanges == number
        for person in players:
            shows_the_chase(person.page, chase, player=True)
        if not chase.ongoing:
            break
    assert chase.outcome in (Chase.Outcome.CAUGHT, Chase.Outcome.ESCAPED), f"still running after {number}"

    exchanges = Event.objects.filter(encounter=encounter, kind=kinds.EXCHANGE).order_by("seq")
    assert exchanges.count() == chase.exchanges
    ended = Event.objects.get(encounter=encounter, kind=kinds.CHASE_ENDED)
    for person in everyone:
        expect(person.page.get_by_test_id("chase-outcome")).to_have_attribute("data-outcome", chase.outcome)
        expect(person.page.get_by_test_id("roll-exchange")).to_have_count(0)
        log = person.page.get_by_test_id("event-log")
        expect(log.locator(f"#event-{ended.seq}")).to_be_visible()
        for event in exchanges:  # older entries may be folded away behind "Show the whole log"
            expect(log.locator(f"#event-{event.seq}")).to_be_attached()
        expect(log.get_by_test_id("chase-ended")).to_contain_text(
            "Caught!" if chase.outcome == Chase.Outcome.CAUGHT else "Escaped!"
        )
        person.assert_not_reloaded()
