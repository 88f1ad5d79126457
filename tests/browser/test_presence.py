"""Who is here (issue 32, item 3): the storyguide's panel shows Sir Boris's player here, away once the
phone's tab is hidden, and gone once the tab is closed; his card is then marked as a gone person's. The
saga page shows who has it open too.

Its own Daphne beats every second and lets a person go after 3 s, so the test takes seconds, not half a
minute (PRESENCE_HEARTBEAT_SECONDS, PRESENCE_EXPIRY_SECONDS)."""

import os
import re
from pathlib import Path

import pytest
from django.db import connections
from playwright.sync_api import expect

from .encounter_page import load_demo_table
from .people import PHONE, outside_the_event_loop, wait_until
from .server import DaphneServer, database_url

pytestmark = pytest.mark.browser
SHOTS = Path(os.environ.get("COVENANT_LOOKS", "/tmp/covenant-looks"))

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
    phone = player.goto(f"/encounters/{encounter.pk}/arsmagica/play/")
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
    expect(card).to_have_class(re.compile(r"\bowner-gone\b"))
    waits = guide.page.get_by_test_id("presence-waits")
    expect(waits).to_be_hidden()  # nothing waits on him yet

    # Declarations open: his is still to make, and he is gone. The top of the panel says so at a glance.
    guide.page.get_by_test_id("open-declarations").click()
    expect(waits).to_be_visible()
    gone_first = re.compile(r"^Waiting on someone not here: Sir Boris \(gone\), .*\(not here\)$")
    expect(waits).to_have_text(gone_first)  # then the players who have not opened the page
    expect(guide.page.get_by_test_id(f"declared-{boris.pk}")).to_have_class(re.compile(r"\bwaits-on-gone\b"))
    box = waits.bounding_box()
    assert box is not None and box["y"] < 800, f"not at a glance: {box}"
    shoot(guide.page, "presence-waiting-on-gone")


def shoot(page, name: str) -> None:
    """The storyguide's panel in both themes, for docs/looks.md (COVENANT_LOOKS, /tmp/covenant-looks)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for theme in ("light", "dark"):
        page.emulate_media(color_scheme=theme)
        page.screenshot(path=str(SHOTS / f"{name}-{theme}.png"))


def test_a_declaration_waiting_on_someone_away_is_named_and_closing_on_it_asks_first(table):
    """Issue 35, item 8: the phone in a pocket (its tab hidden) is away, not here for the table: "Waiting on"
    names Sir Boris (away) between the gone and those not come yet; closing declarations while he has not
    declared asks once, naming him, and a "no" leaves declarations open."""
    from arsmagica import services

    saga, encounter, combatants = outside_the_event_loop(load_demo_table)
    boris, bandit = combatants["Sir Boris"], combatants["Bandit 1"]

    def open_with_bandit_1_declared():
        services.open_declarations(saga.storyguide, encounter.pk, encounter.version)
        values = {"action": "attack", "weapon_id": bandit.character.weapons.first().pk, "engage": [boris.pk]}
        services.declare(saga.storyguide, encounter.pk, bandit.pk, values)

    outside_the_event_loop(open_with_bandit_1_declared)
    guide = table.person("storyguide")
    guide.enter_as(saga.storyguide)
    guide.goto(f"/encounters/{encounter.pk}/")
    guide.wait_until_live()
    player = table.person("player", viewport=PHONE)
    player.enter_as(boris.character.owner)
    phone = player.goto(f"/encounters/{encounter.pk}/arsmagica/play/")
    player.wait_until_live()
    waits = guide.page.get_by_test_id("presence-waits")
    expect(waits).not_to_contain_text("Sir Boris")  # he is here

    phone.evaluate(HIDE)
    expect(guide.page.get_by_test_id(f"presence-{boris.character.owner.get_username()}")).to_have_attribute(
        "data-state", "away"
    )
    away_first = re.compile(r"^Waiting on someone not here: Sir Boris \(away\), .*\(not here\)$")
    expect(waits).to_have_text(away_first)  # the away before those not come yet
    expect(guide.page.get_by_test_id(f"declared-{boris.pk}")).to_have_class(re.compile(r"\bwaits-on-gone\b"))

    asked = []
    guide.page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    guide.page.get_by_test_id("close-declarations").click()
    wait_until(guide.page, lambda: asked, "the confirmation")
    undeclared = "Brother Anselm, Marta the Huntress, Sir Boris, Bandit 2 and Bandit 3"
    said = "have not declared and will do nothing this round. Close declarations anyway?"
    assert asked[0] == f"{undeclared} {said}"
    expect(guide.page.get_by_test_id("encounter-status")).to_have_attribute("data-phase", "declaring")
    shoot(guide.page, "presence-waiting-on-away")
