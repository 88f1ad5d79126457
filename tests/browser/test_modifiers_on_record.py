"""Issue 31, item 7: a modifier the storyguide applied in a preview is part of the record. After Melee is
confirmed with Sir Boris +3 and Bandit 1 +2, every screen's log says so on the attack's line: both players
read Sir Boris's +3, and Bandit 1's as "a modifier behind the screen" (the saga shows NPCs' results only);
the storyguide reads both numbers."""

import pytest
from playwright.sync_api import Page, expect

from arsmagica.events import Kind
from campaign.models import NpcRolls
from combat.models import Event

from .encounter_page import phase_is, roll_with_the_options_open
from .people import PHONE
from .test_storyguide_flow import melee_declared

pytestmark = pytest.mark.browser


def attack_line(page: Page, attacker, defender):
    """The log's line for the attacker's roll on the defender, on this page."""
    attacks = Event.objects.filter(encounter=attacker.encounter_id, kind=Kind.ATTACK)
    pair = [str(attacker.pk), str(defender.pk)]
    (event,) = [e for e in attacks if [e.payload["attacker"], e.payload["defender"]] == pair]
    return page.get_by_test_id("event-log").locator(f"#event-{event.seq}")


def test_a_modifier_set_in_the_preview_stays_on_the_line_as_far_as_the_saga_shows(table, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # load_demo's logins
    saga, encounter, combatants = melee_declared()
    assert saga.npc_rolls == NpcRolls.RESULTS
    boris, anselm, bandit1 = combatants["Sir Boris"], combatants["Brother Anselm"], combatants["Bandit 1"]

    guide = table.person("storyguide")
    guide.enter_as(saga.storyguide)
    guide.goto(f"/encounters/{encounter.pk}/")
    players = []
    for fighter in (boris, anselm):
        player = table.person(fighter.character.owner.username, viewport=PHONE)
        player.enter_as(fighter.character.owner)
        player.goto(f"/encounters/{encounter.pk}/arsmagica/play/")
        players.append(player)
    for person in (guide, *players):
        person.wait_until_live()
    page = guide.page

    # The storyguide rolls Melee, opens the options, gives Sir Boris +3 and Bandit 1 +2, recomputes, confirms.
    phase_is(page, "melee")
    roll_with_the_options_open(page)
    page.get_by_test_id(f"modifier-{boris.pk}").fill("3")
    page.get_by_test_id(f"modifier-{bandit1.pk}").fill("2")
    drawn = page.get_by_test_id("preview-form").locator('[name="expected_version"]').input_value()
    page.get_by_test_id("recompute-phase").click()
    expect(page.get_by_test_id("event-log")).to_contain_text("rolled melee for a preview (options changed)")
    form = page.get_by_test_id("preview-form")  # drawn again on the same dice, the options kept
    expect(form.locator('[name="expected_version"]')).not_to_have_value(drawn)
    expect(page.get_by_test_id(f"modifier-{boris.pk}")).to_have_value("3")
    page.get_by_test_id("confirm-phase").click()
    for person in (guide, *players):
        phase_is(person.page, "fatigue")

    seen = {
        guide: "(set by the storyguide: Sir Boris +3; Bandit 1 +2)",
        **{
            player: "(set by the storyguide: Sir Boris +3; Bandit 1 a modifier behind the screen)"
            for player in players
        },
    }
    for person, words in seen.items():
        line = attack_line(person.page, boris, bandit1)
        expect(line.get_by_test_id("storyguide-options")).to_have_text(words)
    for player in players:  # and Bandit 1's own roll at Sir Boris, the same
        expect(attack_line(player.page, bandit1, boris).get_by_test_id("storyguide-options")).to_have_text(
            "(set by the storyguide: Bandit 1 a modifier behind the screen; Sir Boris +3)"
        )
