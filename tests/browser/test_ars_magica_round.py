"""A whole Ars Magica round at the demo table: the storyguide and three players, each in their own browser.

Issue 3's "done when": each player declares from their own page, each sees the Melee and Fatigue
results without reloading, and a player whose connection drops during Melee and comes back sees
exactly what a fresh page load shows. The server rolls the dice, so the test checks each screen against
the event log the server wrote, not against fixed numbers.
"""

import re

import pytest
from playwright.sync_api import expect

from arsmagica.events import Kind
from arsmagica.models import Phase
from combat.audience import as_players_see, player_ids
from combat.models import Event

from .encounter_page import (
    RECONNECT_MS,
    acting_order_shown,
    declare,
    event_seqs,
    live_text,
    load_demo_table,
    phase_is,
    resolve,
    shows_the_levels,
    shows_the_log,
)
from .people import PHONE

pytestmark = pytest.mark.browser


def test_a_whole_round_reaches_every_screen_live_and_a_dropped_player_catches_up(table, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # load_demo's four logins
    saga, encounter, combatants = load_demo_table()
    boris, anselm, marta = (combatants[n] for n in ("Sir Boris", "Brother Anselm", "Marta the Huntress"))
    bandits = [combatants[f"Bandit {n}"] for n in (1, 2, 3)]

    guide = table.person("storyguide")
    guide.enter_as(saga.storyguide)
    boris_player, anselm_player, marta_player = (
        table.person(companion.character.owner.username, viewport=viewport)
        for companion, viewport in ((boris, PHONE), (anselm, PHONE), (marta, None))
    )
    for player, companion in ((boris_player, boris), (anselm_player, anselm), (marta_player, marta)):
        player.enter_as(companion.character.owner)
    marta_line = marta_player.wire_live_socket()
    players = [boris_player, anselm_player, marta_player]
    everyone = [guide, *players]

    guide.goto(f"/encounters/{encounter.pk}/")
    for player in players:
        player.goto(f"/encounters/{encounter.pk}/arsmagica/play/")
    for person in everyone:
        person.wait_until_live()
        person.mark_page()

    # 1. The storyguide opens declarations; each player declares from their own page.
    guide.page.get_by_test_id("open-declarations").click()
    for person in everyone:
        phase_is(person.page, "declaring")
    declare(boris_player.page, boris, action="Fight hand to hand", weapon="Sword", engage=bandits[0])
    declare(anselm_player.page, anselm, action="Fight hand to hand", weapon="Mace", engage=bandits[1])
    declare(
        marta_player.page, marta, action="Shoot or throw", weapon="Short bow", engage=bandits[2], distance=20
    )
    for bandit, foe in zip(bandits, (boris, anselm, marta), strict=True):
        weapon = bandit.character.weapons.get().name
        declare(guide.page, bandit, action="Fight hand to hand", weapon=weapon, engage=foe)
    for person in everyone:  # everyone sees who has declared, live
        for combatant in combatants.values():
            expect(person.page.get_by_test_id(f"declared-{combatant.pk}")).to_have_class(
                re.compile(r"\bdone\b")
            )
    expect(guide.page.get_by_test_id("declared-count")).to_have_text("6 / 6")

    # 2. The storyguide closes declarations: initiative and engagements appear on every screen.
    guide.page.get_by_test_id("close-declarations").click()
    for person in everyone:
        phase_is(person.page, "first_missile")
        acting_order_shown(person.page)
        for combatant in combatants.values():
            expect(person.page.get_by_test_id(f"initiative-{combatant.pk}")).to_be_visible()
    movement = Event.objects.get(encounter=encounter, kind=Kind.MOVEMENT)
    assert movement.payload["engagements"], "three pairs declared against each other, nobody engaged"
    for person in everyone:
        expect(person.page.get_by_test_id("engagement")).to_have_count(len(movement.payload["engagements"]))

    # 3. First Missile.
    resolve(guide)
    for person in everyone:
        phase_is(person.page, "melee")

    # Melee: Marta's connection drops once the storyguide has rolled; the storyguide confirms meanwhile.
    # The line stays cut only until the confirmation has reached the storyguide's screen: the client's
    # backoff (htmx's full jitter, doubling up to 64 s) grows with every refused attempt.
    melee = re.compile("melee", re.IGNORECASE)
    roll = guide.page.get_by_test_id("preview-phase")
    expect(roll).to_contain_text(melee)  # the storyguide's controls have moved on, not only the status bar
    roll.click()
    expect(guide.page.get_by_test_id("confirm-phase")).to_contain_text(melee)
    marta_line.cut()
    expect(marta_player.page.get_by_test_id("reconnecting")).to_be_visible()
    guide.page.get_by_test_id("confirm-phase").click()
    phase_is(guide.page, "second_missile")
    phase_is(marta_player.page, "melee")  # cut off: she has not seen Melee resolved
    marta_line.restore()

    connected = [guide, boris_player, anselm_player]
    melee = list(Event.objects.filter(encounter=encounter, phase="melee").exclude(storyguide_only=True))
    assert any(event.kind == Kind.ATTACK for event in melee), "three engaged pairs made no attack"
    ids_of_players, characters = player_ids(encounter)
    players_melee = as_players_see(saga, melee, ids_of_players, characters=characters)  # NPCs' results only
    for person in connected:
        phase_is(person.page, "second_missile")
        shows_the_log(person.page, melee if person is guide else players_melee)
        shows_the_levels(person.page, combatants)

    marta_player.wait_until_live(replays=2, timeout=RECONNECT_MS)
    expect(marta_player.page.get_by_test_id("reconnecting")).to_be_hidden()
    phase_is(marta_player.page, "second_missile")
    shows_the_log(marta_player.page, players_melee)
    shows_the_levels(marta_player.page, combatants)
    fresh = marta_player.new_tab()
    marta_player.goto(f"/encounters/{encounter.pk}/arsmagica/play/", page=fresh)
    marta_player.wait_until_live(page=fresh)
    expect(fresh.get_by_test_id("my-declarations")).not_to_contain_text("Loading")
    assert event_seqs(marta_player.page) == event_seqs(fresh)
    assert live_text(marta_player.page) == live_text(fresh)
    fresh.close()

    # Second Missile (Marta's bow fires twice); Magic passes by itself, nobody casts; Fatigue.
    for after in ("fatigue", "round_over"):
        resolve(guide)
        for person in everyone:
            phase_is(person.page, after)
    fatigue = list(Event.objects.filter(encounter=encounter, phase="fatigue").exclude(storyguide_only=True))
    assert any(event.kind == Kind.PHASE_RESOLVED for event in fatigue)
    players_fatigue = as_players_see(saga, fatigue, ids_of_players, characters=characters)
    for person in everyone:
        shows_the_log(person.page, fatigue if person is guide else players_fatigue)
        shows_the_levels(person.page, combatants)
        expect(person.page.get_by_test_id("event-log")).to_contain_text("Fatigue resolved.")

    # Players see what the table sees: no controls, no storyguide-only previews; the storyguide sees all.
    previews = list(Event.objects.filter(encounter=encounter, storyguide_only=True))
    assert previews, "the storyguide previewed five phases"
    for player in players:
        expect(player.page.get_by_test_id("sg-controls")).to_have_count(0)
        expect(player.page.get_by_test_id("phase-preview")).to_have_count(0)
        for event in previews:
            expect(player.page.locator(f"#event-{event.seq}")).to_have_count(0)
    shows_the_log(guide.page, previews)

    for person in everyone:
        person.assert_not_reloaded()
    assert 1006 in marta_player.live()["closes"], "Marta's socket never dropped"
    encounter.refresh_from_db()
    assert encounter.phase == Phase.ROUND_OVER
    assert encounter.round_number == 1
