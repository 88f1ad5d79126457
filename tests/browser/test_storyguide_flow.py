"""Fewer clicks and a way back, at the demo table: phases nobody acts in pass by themselves, the
storyguide drives the round from the keyboard (never while typing in a field) and undoes a confirmed
phase with a reason that every screen shows live; a player repeats last round's declaration in one
tap, the storyguide every NPC's; a shooter's missile fields stay put when their heading is tapped."""

import re

import pytest
from playwright.sync_api import expect

from arsmagica import services
from arsmagica.sheet import sheet_of

from .encounter_page import load_demo_table, phase_is
from .people import PHONE, outside_the_event_loop

pytestmark = pytest.mark.browser


def declare_melee(user, encounter, who, whom):
    values = {"action": "attack", "weapon_id": who.character.weapons.first().pk, "engage": [whom.pk]}
    outside_the_event_loop(services.declare, user, encounter.pk, who.pk, values)


def melee_declared():
    """The demo table in round 1, declarations closed: Sir Boris and Bandit 1, Brother Anselm and Bandit 2
    engaged hand to hand; First Missile has passed by itself and Melee waits to be rolled."""
    saga, encounter, combatants = load_demo_table()
    boris, anselm = combatants["Sir Boris"], combatants["Brother Anselm"]
    bandit1, bandit2 = combatants["Bandit 1"], combatants["Bandit 2"]
    outside_the_event_loop(services.open_declarations, saga.storyguide, encounter.pk, encounter.version)
    declare_melee(boris.character.owner, encounter, boris, bandit1)
    declare_melee(anselm.character.owner, encounter, anselm, bandit2)
    declare_melee(saga.storyguide, encounter, bandit1, boris)
    declare_melee(saga.storyguide, encounter, bandit2, anselm)
    encounter.refresh_from_db()
    outside_the_event_loop(services.close_declarations, saga.storyguide, encounter.pk, encounter.version)
    return saga, encounter, combatants


def back_on_their_feet(guide, player, encounter, combatants) -> None:
    """Whatever the dice did in Melee, the storyguide corrects each one hurt or tired to Fresh and
    Unhurt, so the next round can repeat every declaration (an Incapacitated bandit cannot act); both screens
    follow."""
    form = guide.page.get_by_test_id("correction-form")
    for combatant in combatants:
        combatant.character.refresh_from_db()
        sheet = sheet_of(combatant.character)
        if (sheet.fatigue_level, sheet.body_level) == ("fresh", "unhurt"):
            continue
        encounter.refresh_from_db()
        form.get_by_label("Combatant").select_option(str(combatant.pk))
        form.get_by_label("Fatigue level").select_option("fresh")
        form.get_by_label("Body level").select_option("unhurt")
        form.get_by_label("Reason").fill("Back on their feet")
        form.get_by_test_id("correct-submit").click()
        expect(guide.page.get_by_test_id("encounter-status")).not_to_have_attribute(
            "data-version", str(encounter.version)
        )
    encounter.refresh_from_db()
    for person in (guide, player):
        expect(person.page.get_by_test_id("encounter-status")).to_have_attribute(
            "data-version", str(encounter.version)
        )


def test_the_storyguide_keys_a_round_through_and_undoes_melee_for_everyone(table, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    saga, encounter, combatants = melee_declared()
    boris = combatants["Sir Boris"]
    bandit1, bandit2 = combatants["Bandit 1"], combatants["Bandit 2"]

    guide = table.person("storyguide")
    guide.enter_as(saga.storyguide)
    player = table.person("player1", viewport=PHONE)
    player.enter_as(boris.character.owner)
    guide.goto(f"/encounters/{encounter.pk}/")
    player.goto(f"/encounters/{encounter.pk}/arsmagica/play/")
    for person in (guide, player):
        person.wait_until_live()
        person.mark_page()
    page = guide.page

    # Nobody shoots: First Missile passed by itself, one line in the log; the round waits at Melee.
    phase_is(page, "melee")
    expect(page.get_by_test_id("phase-passed")).to_have_text(
        "First Missile: nothing happened (nobody acted in it)."
    )
    shortcuts = page.get_by_test_id("shortcuts")
    expect(shortcuts).to_contain_text("R roll the phase")
    expect(shortcuts).to_contain_text("C confirm it")
    expect(shortcuts).to_contain_text("E end the round")
    expect(shortcuts).to_contain_text("N next step")

    # A key typed into a field is only a letter in that field.
    reason = page.get_by_test_id("correction-form").get_by_label("Reason")
    reason.click()
    page.keyboard.type("rcn")
    expect(reason).to_have_value("rcn")
    page.wait_for_timeout(300)
    expect(page.get_by_test_id("confirm-phase")).to_have_count(0)

    # R rolls Melee, C confirms it; Second Missile and Magic pass by themselves.
    page.locator("h1").click()
    page.keyboard.press("r")
    expect(page.get_by_test_id("confirm-phase")).to_be_visible()
    page.keyboard.press("c")
    for person in (guide, player):
        phase_is(person.page, "fatigue")
        expect(person.page.get_by_test_id("phase-passed").filter(has_text="Magic")).to_have_count(1)

    # The storyguide undoes Melee with a reason: every screen shows it, and Melee waits to be confirmed again.
    undo = page.get_by_test_id("undo-form")
    expect(undo).to_contain_text("Takes back Melee (and Second Missile, Magic, which passed empty)")
    page.get_by_test_id("undo-reason").fill("Bandit 1 was meant to take advantage")
    page.get_by_test_id("undo-submit").click()
    for person in (guide, player):
        phase_is(person.page, "melee")
        line = person.page.get_by_test_id("phase-undone")
        expect(line).to_contain_text("Bandit 1 was meant to take advantage")
    expect(page.get_by_test_id("confirm-phase")).to_be_visible()  # the same dice, to check again

    # N is the next step, whatever it is: confirm Melee, roll Fatigue; C confirms it, E ends the round.
    page.locator("h1").click()
    page.keyboard.press("n")
    phase_is(page, "fatigue")
    expect(page.get_by_test_id("confirm-phase")).to_have_count(0)  # Melee's preview has gone
    page.keyboard.press("n")
    expect(page.get_by_test_id("confirm-phase")).to_have_text("Confirm Fatigue")
    page.keyboard.press("c")
    phase_is(page, "round_over")
    back_on_their_feet(guide, player, encounter, combatants.values())
    page.keyboard.press("e")
    for person in (guide, player):
        phase_is(person.page, "declaring")

    # Round 2: Sir Boris's player repeats last round's declaration in one tap.
    same = player.page.get_by_test_id(f"as-before-{boris.pk}")
    expect(same).to_contain_text("Same as last round: Fight hand to hand, ")
    same.click()
    expect(player.page.get_by_test_id(f"declared-mark-{boris.pk}")).to_be_visible()
    expect(page.get_by_test_id(f"declared-{boris.pk}")).to_have_class(re.compile(r"\bdone\b"))
    # ... and the storyguide every NPC declared last round, in one tap.
    page.get_by_test_id("npcs-as-before").click()
    for bandit in (bandit1, bandit2):
        expect(page.get_by_test_id(f"declared-mark-{bandit.pk}")).to_be_visible()
        expect(player.page.get_by_test_id(f"declared-{bandit.pk}")).to_have_class(re.compile(r"\bdone\b"))
    for person in (guide, player):
        person.assert_not_reloaded()


def test_a_shooters_missile_fields_stay_when_their_heading_is_tapped(table, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    saga, encounter, combatants = load_demo_table()
    marta = combatants["Marta the Huntress"]
    outside_the_event_loop(services.open_declarations, saga.storyguide, encounter.pk, encounter.version)
    player = table.person("player3", viewport=PHONE)
    player.enter_as(marta.character.owner)
    player.goto(f"/encounters/{encounter.pk}/arsmagica/play/")
    player.wait_until_live()
    form = player.page.get_by_test_id(f"declare-form-{marta.pk}")
    shooting = player.page.get_by_test_id(f"shooting-{marta.pk}")
    expect(form.get_by_label("Shoot in")).to_be_visible()
    shooting.get_by_text("Shooting or throwing").click()
    expect(form.get_by_label("Shoot in")).to_be_visible()
    expect(form.get_by_label("Target distance (paces)")).to_be_visible()
