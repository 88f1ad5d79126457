"""An undo reaches a page already open (issue 29, bug 2 on the live page): the storyguide undoes Melee, and
a player's page strikes Melee's lines through with the undo's reason, without a reload; the lines it shows
after that, Melee confirmed again, stand."""

import re

import pytest
from playwright.sync_api import expect

from combat.models import Event

from .encounter_page import fight_into_round_one, load_demo_table
from .people import PHONE, outside_the_event_loop

pytestmark = pytest.mark.browser

REASON = "Bandit 1 was meant to take advantage"
UNDONE = re.compile(r"\bundone\b")


def melee_blows(encounter) -> list[int]:
    """The sequence numbers of the attacks in the log, oldest first."""
    attacks = Event.objects.filter(encounter=encounter, kind="attack").order_by("seq")
    return list(attacks.values_list("seq", flat=True))


def test_a_players_open_page_strikes_melee_through_when_the_storyguide_undoes_it(table, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # load_demo's logins
    saga, encounter, combatants = load_demo_table()
    outside_the_event_loop(fight_into_round_one, saga, encounter, combatants)
    blows = outside_the_event_loop(melee_blows, encounter)
    assert blows
    boris = combatants["Sir Boris"]
    guide, player = table.person("storyguide"), table.person(boris.character.owner.username, viewport=PHONE)
    for person, user, page in ((guide, saga.storyguide, ""), (player, boris.character.owner, "play/")):
        person.enter_as(user)
        person.goto(f"/encounters/{encounter.pk}/{page}")
        person.wait_until_live()
        person.mark_page()
        for seq in blows:
            expect(person.page.locator(f"#event-{seq}")).not_to_have_class(UNDONE)

    guide.page.get_by_test_id("undo-reason").fill(REASON)
    guide.page.get_by_test_id("undo-submit").click()
    for person in (guide, player):
        expect(person.page.get_by_test_id("phase-undone")).to_contain_text(REASON)
        log = person.page.get_by_test_id("event-log")
        for seq in blows:
            line = log.locator(f"#event-{seq}")
            expect(line).to_have_count(1)  # in its place, not a second copy
            expect(line).to_have_class(UNDONE)
            note = line.get_by_test_id("undone-note")
            expect(note).to_contain_text(re.compile(rf"^undone( #\d+)?: {REASON}"))  # the storyguide: #seq
            expect(line).to_have_css("text-decoration-line", "line-through")

    guide.page.get_by_test_id("confirm-phase").click()  # Melee again, on the same dice: these lines stand
    expect(player.page.get_by_test_id("encounter-status")).not_to_have_attribute("data-phase", "melee")
    again = [seq for seq in outside_the_event_loop(melee_blows, encounter) if seq > blows[-1]]
    assert again
    for seq in again:
        expect(player.page.locator(f"#event-{seq}")).not_to_have_class(UNDONE)
    seqs = (
        player.page.get_by_test_id("event-log")
        .locator("li[data-seq]")
        .evaluate_all("items => items.map(item => Number(item.dataset.seq))")
    )
    assert seqs == sorted(seqs) and len(seqs) == len(set(seqs))  # the log's order, each line once
    for person in (guide, player):
        person.assert_not_reloaded()
