"""Who is here (issue 32, item 3): the storyguide's panel shows Sir Boris's player here, away once the
phone's tab is hidden, and gone once the tab is closed; his card is then marked as a gone person's. The
saga page shows who has it open too.

Its own Daphne beats every second and lets a person go after 3 s, so the test takes seconds, not half a
minute (PRESENCE_HEARTBEAT_SECONDS, PRESENCE_EXPIRY_SECONDS)."""

import re

import pytest
from django.db import connections
from playwright.sync_api import expect

from .encounter_page import load_demo_table
from .people import PHONE, outside_the_event_loop
from .server import DaphneServer, database_url

pytestmark = pytest.mark.browser

HIDE = """() => {
  Object.defineProperty(document, "visibilityState", { value: "hidden", configurable: true });
  document.dispatchEvent(new Event("visibilitychange"));
}"""


@pytest.fixture(scope="module")
def daphne(django_db_setup, tmp_path_factory):
    """A Daphne of this module's own, with a 1-second heartbeat and a 3-second expiry."""
    url = database_url(connections["default"].settings_dict)
    environment = {"PRESENCE_HEARTBEAT_SECONDS": "1", "PRESENCE_EXPIRY_SECONDS": "3"}
    with DaphneServer(url, tmp_path_factory.mktemp("daphne") / "daphne.log", environment) as server:
        yield server


def test_the_storyguide_sees_a_player_here_then_away_then_gone(table):
    saga, encounter, combatants = outside_the_event_loop(load_demo_table)
    boris = combatants["Sir Boris"]
    name = boris.character.owner.get_username()
    guide = table.person("storyguide")
    guide.enter_as(saga.storyguide)
    guide.goto(f"/encounters/{encounter.pk}/")
    guide.wait_until_live()
    saga_page = guide.new_tab()
    guide.goto(f"/sagas/{saga.pk}/", saga_page)  # the saga page shows who has it open, for itself
    expect(saga_page.get_by_test_id(f"presence-{saga.storyguide.get_username()}")).to_have_attribute(
        "data-state", "here"
    )
    who = guide.page.get_by_test_id(f"presence-{name}")
    expect(who).to_have_attribute("data-state", "gone")  # not here yet: never seen
    expect(who).to_contain_text("not here")

    player = table.person("player", viewport=PHONE)
    player.enter_as(boris.character.owner)
    phone = player.goto(f"/encounters/{encounter.pk}/play/")
    player.wait_until_live()
    expect(who).to_have_attribute("data-state", "here")
    expect(phone.get_by_test_id(f"presence-{name}")).to_have_attribute("data-state", "here")

    phone.evaluate(HIDE)
    expect(who).to_have_attribute("data-state", "away")
    expect(who).to_contain_text("away")

    phone.close()
    expect(who).to_have_attribute("data-state", "gone")
    expect(who).to_contain_text("gone since")
    card = guide.page.locator(f"#combatants [data-owner='{boris.character.owner_id}']").first
    expect(card).to_have_class(re.compile(r"\bowner-gone\b"))  # whose turn waits on someone gone
