"""Issue 10, item 8 (the labels): the cards say what a level does, on the storyguide's and a player's page."""

import pytest
from playwright.sync_api import expect

from arsmagica.sheet import write

from .encounter_page import load_demo_table
from .people import PHONE
from .test_d6_players_act import demo_encounter

pytestmark = pytest.mark.browser


def test_ars_magica_cards_say_what_the_wounds_and_fatigue_do(table, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # load_demo's logins
    saga, encounter, combatants = load_demo_table()
    boris = combatants["Sir Boris"]
    write(boris.character, body_level="light_wounds", fatigue_level="weary")
    boris.character.save(update_fields=["sheet"])
    guide = table.person("storyguide")
    guide.enter_as(saga.storyguide)
    player = table.person(boris.character.owner.username, viewport=PHONE)
    player.enter_as(boris.character.owner)
    for person, path in (
        (guide, f"/encounters/{encounter.pk}/"),
        (player, f"/encounters/{encounter.pk}/arsmagica/play/"),
    ):
        card = person.goto(path).get_by_test_id(f"combatant-{boris.pk}")
        expect(card.get_by_test_id("body-level")).to_have_text("Light Wounds: −1 to rolls")
        expect(card.get_by_test_id("fatigue-level")).to_have_text("Weary: −1 to rolls")
        expect(card.get_by_test_id("penalty")).to_have_text("−2 to every roll but Soak")


def test_a_d6_track_says_where_a_breather_brings_it_back(table, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # load_demo_d6's logins
    saga, encounter, combatants = demo_encounter("Plain words")
    wren = combatants["Wren"]  # fatigue 6, base 3 (demo_encounter winds her)
    guide = table.person("storyguide")
    guide.enter_as(saga.storyguide)
    page = guide.goto(f"/encounters/{encounter.pk}/d6/")
    track = page.get_by_test_id(f"fatigue-{wren.pk}").first
    expect(track.get_by_role("img")).to_have_attribute(
        "aria-label", "Fatigue 6 of 20; a breather brings it back to 3"
    )
    expect(page.get_by_test_id(f"fatigue-text-{wren.pk}").first).to_contain_text(
        "Fatigue 6 (a breather brings it back to 3)"
    )
