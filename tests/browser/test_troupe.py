"""Troupe play in the browser (issue 38, items 2 and 5): the lead makes a player one of the saga's storyguides
from the saga page, whose open page loads again for her new place; at the encounter the lead hands her the
storyguide's seat with a reason: both their pages load again for their new places (their sockets closed with
4409), the players' page stays and reads the hand-over in its log, and presence names who runs the table."""

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from campaign.models import Membership

from .encounter_page import load_demo_table
from .people import PHONE, outside_the_event_loop, wait_until

pytestmark = pytest.mark.browser


def reloaded(page: Page, replays: bool = True) -> bool:
    """The page has loaded again since it was marked, and its socket is open (an encounter page's has
    answered its resume)."""
    try:
        done = "window.__covenantLive.replays >= 1" if replays else "window.__covenantLive.opens >= 1"
        return page.evaluate(f"!window.__covenantMarker && {done}")
    except PlaywrightError:  # navigating: the old document has gone
        return False


def a_player_who_joined(saga, name: str):
    user = get_user_model().objects.create_user(name)
    Membership.objects.create(saga=saga, user=user, role=Membership.Role.PLAYER)
    return user


def test_the_lead_makes_a_storyguide_and_hands_her_the_seat_and_each_page_follows(table):
    saga, encounter, combatants = outside_the_event_loop(load_demo_table)
    dora = outside_the_event_loop(a_player_who_joined, saga, "dora")
    guide, other, player = (
        table.person("storyguide"),
        table.person("dora", viewport=PHONE),
        table.person("player", viewport=PHONE),
    )
    lead = saga.storyguide.get_username()
    guide.enter_as(saga.storyguide)
    other.enter_as(dora)
    player.enter_as(combatants["Sir Boris"].character.owner)

    # 1. The saga page: the lead makes dora a storyguide; dora's open page loads again, one of them now.
    page = guide.goto(f"/sagas/{saga.pk}/")
    troupe = page.get_by_test_id("saga-troupe")
    expect(troupe.get_by_test_id(f"storyguide-{lead}")).to_contain_text("lead")
    hers = other.goto(f"/sagas/{saga.pk}/")
    expect(hers.get_by_text("you are a player")).to_be_visible()
    expect(hers.get_by_test_id("new-encounter-form")).to_have_count(0)
    wait_until(hers, lambda: hers.evaluate("window.__covenantLive.opens >= 1"), "dora's saga socket open")
    other.mark_page()
    form = page.get_by_test_id("make-storyguide-form")
    form.get_by_label("Make a storyguide of").select_option(label="dora")
    form.get_by_test_id("make-storyguide").click()
    expect(page.get_by_text("dora is one of the saga's storyguides now")).to_be_visible()
    expect(troupe.get_by_test_id("storyguide-dora")).to_contain_text("runs no encounter now")
    wait_until(hers, lambda: reloaded(hers, replays=False), "dora's saga page loaded again")
    expect(hers.get_by_text("you are one of its storyguides")).to_be_visible()
    expect(hers.get_by_test_id("new-encounter-form")).to_be_visible()
    made = f"{lead} makes dora one of the saga’s storyguides."
    expect(hers.get_by_test_id("troupe-records")).to_contain_text(made)
    expect(hers.get_by_test_id(f"seat-{encounter.pk}")).to_have_text(f"· run by {lead}")

    # 2. Everyone at the encounter: the lead at the controls, dora and a player on the players' page.
    fight = guide.goto(f"/encounters/{encounter.pk}/")
    guide.wait_until_live()
    other.goto(f"/encounters/{encounter.pk}/", hers)
    expect(hers).to_have_url(re.compile(r"/arsmagica/play/$"))
    other.wait_until_live(hers)
    phone = player.goto(f"/encounters/{encounter.pk}/arsmagica/play/")
    player.wait_until_live()
    expect(hers.get_by_test_id("seat-holder")).to_have_text(f"{lead} runs this table.")
    expect(hers.get_by_test_id("hand-over-seat")).to_have_count(0)
    expect(phone.get_by_test_id(f"presence-{lead}")).to_contain_text("runs the table")
    for person in (guide, other, player):
        person.mark_page(person.page if person is not other else hers)

    # 3. The lead hands dora the seat, with a reason.
    seat = fight.get_by_test_id("hand-over-seat")
    seat.locator("summary").click()
    seat.get_by_label("To").select_option("dora")
    seat.get_by_label("Why (everyone reads it in the log)").fill("Dora runs the ambush")
    seat.get_by_test_id("hand-over-seat-submit").click()

    # 4. Both pages load again for their new places; the player's stays, and reads it in the log.
    wait_until(fight, lambda: reloaded(fight), "the lead's page loaded again")
    expect(fight).to_have_url(re.compile(r"/arsmagica/play/$"))
    expect(fight.get_by_test_id("sg-controls")).to_have_count(0)
    expect(fight.get_by_test_id("seat-holder")).to_have_text("dora runs this table.")
    expect(fight.get_by_test_id("hand-over-seat")).to_have_count(1)  # the lead may take it back
    wait_until(hers, lambda: reloaded(hers), "dora's page loaded again")
    expect(hers).to_have_url(re.compile(rf"/encounters/{encounter.pk}/$"))
    expect(hers.get_by_test_id("sg-controls")).to_be_visible()
    expect(hers.get_by_test_id("seat-holder")).to_contain_text("You run this table")
    player.assert_not_reloaded()
    for reader in (phone, hers, fight):
        expect(reader.get_by_test_id("event-log")).to_contain_text(
            f"dora takes the storyguide’s seat from {lead}: Dora runs the ambush"
        )
    expect(phone.get_by_test_id("presence-dora")).to_contain_text("runs the table")
    expect(phone.get_by_test_id(f"presence-{lead}")).not_to_contain_text("runs the table")
