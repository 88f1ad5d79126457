"""Issue 10, item 1: a refused command leaves the page in place and says why beside the control that sent it.

Each test runs twice: against the suite's Daphne, which runs with DEBUG true as `make dev` does (django-htmx's
`{% htmx_script %}` then installs its debug handler, which replaced the whole page with the answer to a 400,
403 or 404), and against a second Daphne with DEBUG false and the collected static files, as in production.
The ways a real table hit it: starting a round with no combatants, adding combatants with none ticked, and
11 botch dice on Recompute (Ars Magica); a chase started with no chasers and a player's typed dice that are
not dice (d6).
"""

import secrets

import pytest
from playwright.sync_api import Page, expect

from arsmagica.system import KEY as ARS_MAGICA
from campaign.models import Character
from combat import services as combat_services
from combat.models import Encounter
from d6 import services as d6_services
from d6.models import Fight, Fighter

from .encounter_page import declare, load_demo_table, phase_is, roll_with_the_options_open
from .people import PHONE, REFUSED, Person, Table, outside_the_event_loop
from .server import DaphneServer, database_url
from .test_d6_players_act import demo_encounter

pytestmark = pytest.mark.browser

PRODUCTION_KEY = secrets.token_urlsafe(50)
# docs/production.env on plain http at 127.0.0.1 (no TLS proxy here): no HTTPS redirect, no secure cookies.
PRODUCTION = {
    "DEBUG": "false",
    "SECRET_KEY": PRODUCTION_KEY,
    "SSL_REDIRECT": "false",
    "SECURE_COOKIES": "false",
    "HSTS_SECONDS": "0",
}


@pytest.fixture(scope="session")
def production_daphne(django_db_setup, collected_static, tmp_path_factory):
    """A Daphne with DEBUG false, after collectstatic as a deploy does (config.static needs it)."""
    from django.db import connections

    environment = {**PRODUCTION, "STATIC_ROOT": str(collected_static)}
    url = database_url(connections["default"].settings_dict)
    log = tmp_path_factory.mktemp("daphne-production") / "daphne.log"
    with DaphneServer(url, log, environment=environment) as server:
        yield server


@pytest.fixture(params=["DEBUG true", "DEBUG false"])
def people(request, chromium, transactional_db, settings):
    """The people at the table, on a server with DEBUG as the parameter says; JS errors fail the test."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # the demos' logins
    debug = request.param == "DEBUG true"
    if debug:
        server = request.getfixturevalue("daphne")
    else:
        server = request.getfixturevalue("production_daphne")
        settings.SECRET_KEY = PRODUCTION_KEY  # the sessions made here must be the server's
    table = Table(chromium, server.url)
    table.allow(REFUSED)  # each test is refused on purpose
    table.debug = debug
    log_start = server.log_size()
    yield table
    errors = table.page_errors()
    table.close()
    if errors:
        pytest.fail(
            "JavaScript errors in the pages:\n" + "\n".join(errors) + server.log_tail(since=log_start)
        )


def arrive(person: Person, path: str, debug: bool) -> Page:
    """Open the page, wait for its live socket, and check which DEBUG the server runs with."""
    page = person.goto(path)
    person.wait_until_live()
    handler = page.locator("script[data-debug='True']")  # django-htmx.js: its debug handler is on
    expect(handler).to_have_count(1 if debug else 0)
    return page


def refused_in_place(page: Page, control_testid: str, slot, words: str) -> None:
    """The refusal's words are in the slot beside the control, and the page around it is still there."""
    expect(slot).to_contain_text(words)
    expect(slot.get_by_role("alert")).to_be_visible()
    expect(page.get_by_test_id(control_testid)).to_be_visible()
    expect(page.locator("header.topbar")).to_be_visible()
    assert "Bad Request" not in page.content() and "Traceback" not in page.content()


def test_the_storyguides_refused_commands_stay_beside_their_controls(people):
    saga, encounter, combatants = load_demo_table()
    guide = people.person("storyguide")
    guide.enter_as(saga.storyguide)
    Character.objects.create(saga=saga, name="Wolf", is_npc=True)  # someone left to add to the fight

    # Start round 1 with no combatants, from a page drawn while two sides were still there: the
    # button is enabled as it was then, and the server refuses.
    empty = outside_the_event_loop(
        combat_services.create_encounter, saga.storyguide, saga.pk, "An empty clearing", ARS_MAGICA
    )
    page = arrive(guide, f"/encounters/{empty.pk}/", people.debug)
    start = page.get_by_test_id("open-declarations")
    expect(start).to_be_disabled()
    start.evaluate("button => { button.disabled = false; }")
    start.click()
    refused_in_place(
        page,
        "open-declarations",
        page.locator("#control-error"),
        "A fight needs combatants on at least two sides",
    )
    assert Encounter.objects.get(pk=empty.pk).status == "preparing"
    # The encounter is removed meanwhile (by another tab, say): the next command is refused in place too.
    outside_the_event_loop(lambda: Encounter.objects.filter(pk=empty.pk).delete())
    start.click()
    refused_in_place(
        page, "open-declarations", page.locator("#control-error"), "This encounter is not open to you"
    )

    # Add combatants with none ticked.
    page = arrive(guide, f"/encounters/{encounter.pk}/", people.debug)
    page.get_by_test_id("add-combatants-form").get_by_test_id("side-opponents").check()
    page.get_by_test_id("add-combatants").click()
    refused_in_place(page, "add-combatants", page.locator("#add-error"), "Pick at least one")

    # 11 botch dice on Recompute, once Melee is rolled (nobody shoots: First Missile passes by itself).
    bandit, boris = combatants["Bandit 1"], combatants["Sir Boris"]
    page.get_by_test_id("open-declarations").click()
    phase_is(page, "declaring")
    weapon = bandit.character.weapons.get().name
    declare(page, bandit, action="Fight hand to hand", weapon=weapon, engage=boris)
    page.once("dialog", lambda dialog: dialog.accept())  # "Sir Boris … have not declared … anyway?"
    page.get_by_test_id("close-declarations").click()
    phase_is(page, "melee")
    roll_with_the_options_open(page)
    page.get_by_test_id(f"botch-dice-{boris.pk}").fill("11")
    page.get_by_test_id("recompute-phase").click()
    refused_in_place(page, "recompute-phase", page.locator("#preview-error"), "botch dice go from 0 to")
    expect(page.get_by_test_id(f"botch-dice-{boris.pk}")).to_have_value("11")  # what was typed stays


def test_a_refused_time_passes_stays_on_the_saga_page(people):
    saga, encounter, combatants = load_demo_table()
    guide = people.person("storyguide")
    guide.enter_as(saga.storyguide)
    page = guide.goto(f"/sagas/{saga.pk}/")
    expect(page.locator("script[data-debug='True']")).to_have_count(1 if people.debug else 0)
    panel = page.get_by_test_id("saga-time")
    for box in panel.locator("input[name=characters]:checked").all():
        box.uncheck()
    panel.get_by_test_id("sleep").click()
    refused_in_place(page, "sleep", page.get_by_test_id("saga-time"), "Choose who is in the scene")


def _fight_at_a_players_turn(saga, encounter):
    """Start the fight and pass the turns until a player's character acts; then the saga types its dice."""
    guide = saga.storyguide
    d6_services.start_fight(guide, encounter.pk, Encounter.objects.get(pk=encounter.pk).version)
    fight = Fight.objects.get(encounter=encounter)
    order = list(
        Fighter.objects.filter(fight=fight).select_related("combatant__character").order_by("position")
    )
    while order[fight.turn].combatant.character.is_npc:
        d6_services.end_turn(guide, encounter.pk, Encounter.objects.get(pk=encounter.pk).version)
        fight.refresh_from_db()
    saga.physical_dice = True
    saga.save(update_fields=["physical_dice"])
    return order[fight.turn].combatant


def test_d6_refusals_stay_beside_their_controls_for_the_storyguide_and_a_player(people):
    saga, encounter, combatants = demo_encounter("A refused ambush")
    guide = people.person("storyguide")
    guide.enter_as(saga.storyguide)

    # The storyguide starts a chase with nobody chasing.
    page = arrive(guide, f"/encounters/{encounter.pk}/d6/", people.debug)
    page.get_by_test_id("terrain-name-0").fill("Market streets")
    page.get_by_test_id("start-chase").click()
    slot = page.get_by_test_id("d6-error")
    expect(slot).not_to_be_empty()
    refused_in_place(page, "start-chase", slot, slot.inner_text())
    assert not Fight.objects.filter(encounter=encounter).exists()

    # A player types dice that are not dice on their own turn.
    acting = outside_the_event_loop(_fight_at_a_players_turn, saga, encounter)
    player = people.person(acting.character.owner.username, viewport=PHONE)
    player.enter_as(acting.character.owner)
    page = arrive(player, f"/encounters/{encounter.pk}/d6/", people.debug)
    turn = page.get_by_test_id(f"your-turn-{acting.pk}")
    turn.get_by_test_id("player-roll-faces").fill("zz")
    turn.get_by_test_id("player-roll-submit").click()
    slot = turn.get_by_test_id("yours-error")
    expect(slot).not_to_be_empty()
    refused_in_place(page, "player-roll-submit", slot, slot.inner_text())
    expect(turn.get_by_test_id("player-roll-faces")).to_have_value("zz")

    # The storyguide removes the encounter meanwhile: the player's next roll is refused in place too.
    Encounter.objects.filter(pk=encounter.pk).delete()
    turn.get_by_test_id("player-roll-submit").click()
    refused_in_place(page, "player-roll-submit", slot, "This encounter is not open to you")
