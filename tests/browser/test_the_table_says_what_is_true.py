"""The table says what is true (issue 35, items 6 and 7), in the browser: an ended encounter reads as
ended for the storyguide and a player, in both systems, the moment the end arrives over the socket and
after a reload, and the replay's last step says so too; the storyguide's "every NPC not declared yet: same
as last round" says what it did and why it left out whom it left out.

Pictures of each page, light and dark, go to COVENANT_LOOKS (/tmp/covenant-looks) for a person to look at."""

import os
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from playwright.sync_api import Page, expect

from arsmagica import services
from campaign.models import Saga
from combat import services as combat_services
from combat.errors import InvalidCommand
from combat.models import Encounter
from d6 import services as d6_services
from d6.management.commands.load_demo_d6 import TERRAINS

from .encounter_page import everyone_engaged, load_demo_table, version
from .people import DESKTOP, PHONE, outside_the_event_loop

pytestmark = pytest.mark.browser
SHOTS = Path(os.environ.get("COVENANT_LOOKS", "/tmp/covenant-looks"))

# What a running table says of what comes next, in either system: none of it may stay once it has ended.
NEXT_STEPS = (
    "Initiative is rolled when",
    "next: exchange",
    "’s turn",
    "The fight waits",
    "Waiting for",
    "Close declarations",
)


def reads_as_ended(page: Page, *, player: bool) -> None:
    """The page says the encounter is over, and names no next step anywhere."""
    expect(page.get_by_test_id("status-ended")).to_have_text("Encounter over")
    if not player:
        expect(page.get_by_test_id("over-note")).to_contain_text("The encounter is over")
    for words in NEXT_STEPS:
        expect(page.locator("main")).not_to_contain_text(words)


def shoot(page: Page, name: str) -> None:
    """The page in both themes, for a person to look at (COVENANT_LOOKS, /tmp/covenant-looks)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for theme in ("light", "dark"):
        page.emulate_media(color_scheme=theme)
        page.screenshot(path=str(SHOTS / f"{name}-{theme}.png"), full_page=True)
    page.emulate_media(color_scheme="light")


def ended_live_then_after_a_reload(guide, player, name: str) -> None:
    """The storyguide ends the encounter from the page; both pages read as ended as the frame arrives,
    without a reload, and again after one."""
    for person in (guide, player):
        person.mark_page()
    guide.page.once("dialog", lambda dialog: dialog.accept())  # "End this encounter for everyone?"
    guide.page.get_by_test_id("end-encounter").click()
    for person in (guide, player):
        reads_as_ended(person.page, player=person is player)
        person.assert_not_reloaded()
    for person in (guide, player):
        person.page.reload()
        person.wait_until_live()
        reads_as_ended(person.page, player=person is player)
        shoot(person.page, f"{name}-ended-{person.name}")


def test_an_ars_magica_encounter_ended_at_declarations_reads_as_ended_live_after_a_reload_and_in_the_replay(
    table, settings
):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # load_demo's logins
    saga, encounter, combatants = load_demo_table()
    sg = saga.storyguide
    outside_the_event_loop(lambda: services.open_declarations(sg, encounter.pk, version(encounter)))
    boris = combatants["Sir Boris"]
    guide = table.person("storyguide", viewport=DESKTOP)
    guide.enter_as(saga.storyguide)
    player = table.person("player", viewport=PHONE)
    player.enter_as(boris.character.owner)
    guide.goto(f"/encounters/{encounter.pk}/")
    player.goto(f"/encounters/{encounter.pk}/arsmagica/play/")
    for person in (guide, player):
        person.wait_until_live()
        expect(person.page.get_by_test_id("order-note")).to_have_text(
            "Initiative is rolled when the storyguide closes declarations."
        )
    ended_live_then_after_a_reload(guide, player, "ars-magica")
    for person in (guide, player):
        expect(person.page.get_by_test_id("order-note")).to_have_text(
            "The encounter is over: no more Initiative is rolled."
        )

    last = outside_the_event_loop(lambda: Encounter.objects.get(pk=encounter.pk).last_seq)
    player.goto(f"/encounters/{encounter.pk}/replay/?seq={last}")
    expect(player.page.get_by_test_id("replay-over")).to_have_text("Encounter over")
    expect(player.page.get_by_test_id("replay-table")).not_to_contain_text("Declarations")
    shoot(player.page, "ars-magica-replay-last-step")


def fight_then_chase(saga) -> Encounter:
    """In the d6 demo's saga, a new encounter: a fight started (the server rolls initiative), then a chase
    while it waits (Wren runs from the watchmen)."""
    storyguide = saga.storyguide
    encounter = d6_services.create_encounter(storyguide, saga.pk, "The fight at the gate")
    characters = {c.name: c for c in saga.characters.all()}
    for names, side in ((("Wren", "Tobias"), "Players"), (("Watchman Hale", "Watchman Brock"), "Opponents")):
        chosen = [characters[name].pk for name in names]
        combat_services.add_combatants(storyguide, encounter.pk, version(encounter), chosen, side)
    d6_services.start_fight(storyguide, encounter.pk, version(encounter))
    by_name = {c.character.name: c for c in encounter.combatants.select_related("character")}
    chasers = [(by_name["Watchman Hale"].pk, 2), (by_name["Watchman Brock"].pk, 3)]
    wren = by_name["Wren"].pk
    d6_services.start_chase(storyguide, encounter.pk, version(encounter), wren, chasers, TERRAINS)
    return encounter


def test_a_d6_encounter_ended_mid_chase_reads_as_ended_live_after_a_reload_and_in_the_replay(table, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # load_demo_d6's logins
    outside_the_event_loop(call_command, "load_demo_d6", stdout=StringIO())
    saga = outside_the_event_loop(Saga.objects.get, name="The chase through Ashford")
    encounter = outside_the_event_loop(fight_then_chase, saga)
    wren = outside_the_event_loop(
        lambda: encounter.combatants.select_related("character__owner").get(character__name="Wren")
    )
    guide = table.person("storyguide", viewport=DESKTOP)
    guide.enter_as(saga.storyguide)
    player = table.person("player", viewport=PHONE)
    player.enter_as(wren.character.owner)
    for person in (guide, player):
        person.goto(f"/encounters/{encounter.pk}/d6/")
        person.wait_until_live()
        paused = person.page.get_by_test_id("fight-paused")
        expect(paused).to_have_text("The fight waits while the chase runs.")
        expect(person.page.get_by_test_id("chase-terrain")).to_contain_text("next: exchange 1")
    ended_live_then_after_a_reload(guide, player, "d6")
    for person in (guide, player):
        expect(person.page.get_by_test_id("fight-over")).to_contain_text("the fight stopped in round 1")
        expect(person.page.get_by_test_id("chase-outcome")).to_have_attribute("data-outcome", "stopped")

    last = outside_the_event_loop(lambda: Encounter.objects.get(pk=encounter.pk).last_seq)
    player.goto(f"/encounters/{encounter.pk}/replay/?seq={last}")
    step = player.page.get_by_test_id("replay-table")
    expect(player.page.get_by_test_id("replay-over")).to_have_text("Encounter over")
    expect(step).not_to_contain_text("(their turn)")
    expect(step.get_by_test_id("replay-chase")).to_contain_text("in the chase when it stopped")
    shoot(player.page, "d6-replay-last-step")


def into_round_two_with_bandit_1_dead(saga, encounter, combatants) -> None:
    """Round 1 through the services (the bandits engage Sir Boris, who engages Bandit 1), every phase
    confirmed, round 2 open; then everyone set back on their feet but Bandit 1, who is dead."""
    everyone_engaged(saga, encounter, combatants)
    sg = saga.storyguide
    boris, bandits = combatants["Sir Boris"], [c for c in combatants.values() if c.character.is_npc]
    while (phase := Encounter.objects.get(pk=encounter.pk).phase) != "round_over":
        services.preview_phase(sg, encounter.pk, version(encounter), phase)
        services.confirm_phase(sg, encounter.pk, version(encounter), phase)
    services.end_round(sg, encounter.pk, version(encounter))
    for who in [boris, *bandits]:
        levels = {"fatigue_level": "fresh", "body_level": "dead" if who is bandits[0] else "unhurt"}
        try:
            services.correct(sg, encounter.pk, version(encounter), who.pk, levels, "For the test")
        except InvalidCommand:
            pass  # already so


def test_every_npc_as_last_round_says_what_it_did_and_why_it_left_one_out(table, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # load_demo's logins
    saga, encounter, combatants = load_demo_table()
    outside_the_event_loop(into_round_two_with_bandit_1_dead, saga, encounter, combatants)
    guide = table.person("storyguide", viewport=PHONE)
    guide.enter_as(saga.storyguide)
    page = guide.goto(f"/encounters/{encounter.pk}/")
    guide.wait_until_live()
    bandit = combatants["Bandit 1"]
    expect(page.get_by_test_id(f"cannot-act-{bandit.pk}")).to_be_attached()
    page.get_by_test_id("npcs-as-before").click()
    report = page.get_by_test_id("npcs-as-before-report")
    expect(report).to_have_text(
        "Same as last round for 2 of 3 NPCs not declared yet: Bandit 2, Bandit 3. "
        "Left out: Bandit 1 is dead and cannot act."
    )
    for other in ("Bandit 2", "Bandit 3"):
        expect(page.get_by_test_id(f"declared-mark-{combatants[other].pk}")).to_be_attached()
    expect(report).to_be_visible()  # the frames of its declarations leave it in place
    report.scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "npcs-as-before-report-phone.png"))
    page.set_viewport_size(DESKTOP)
    shoot(page, "npcs-as-before-report")
