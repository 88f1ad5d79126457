"""A whole Ars Magica round at the demo table: the storyguide and three players, each in their own browser.

Issue 3's "done when": each player declares from their own page, each sees the Melee and Fatigue
results without reloading, and a player whose connection drops during Melee and comes back sees
exactly what a fresh page load shows. The server rolls the dice, so the test checks each screen against
the event log the server wrote, not against fixed numbers.
"""

import re
from io import StringIO

import pytest
from django.core.management import call_command
from playwright.sync_api import Page, expect

from campaign.models import Saga
from combat.models import Combatant, Encounter, Event

from .people import PHONE, Person, outside_the_event_loop

pytestmark = pytest.mark.browser

RECONNECT_MS = 30_000  # a few refused attempts may push htmx's next retry several seconds out


def load_demo_table():
    outside_the_event_loop(call_command, "load_demo", stdout=StringIO())
    saga = Saga.objects.get(name="Sir Boris and the bandits")
    encounter = Encounter.objects.get(saga=saga)
    rows = Combatant.objects.filter(encounter=encounter).select_related("character", "character__owner")
    combatants = {combatant.character.name: combatant for combatant in rows}
    return saga, encounter, combatants


def declare(page: Page, combatant: Combatant, *, action: str, weapon: str, engage: Combatant, distance=None):
    """Fill in one combatant's declaration on this page and send it."""
    form = page.get_by_test_id(f"declare-form-{combatant.pk}")
    form.get_by_label("Action").select_option(label=action)
    form.get_by_label("Weapon").select_option(label=weapon)
    form.get_by_label(re.compile(rf"{re.escape(engage.character.name)} \(")).check()
    if distance is not None:
        form.get_by_label("Target distance (paces)").fill(str(distance))
    form.get_by_test_id(f"declare-submit-{combatant.pk}").click()
    expect(page.get_by_test_id(f"declared-mark-{combatant.pk}")).to_be_visible()


def phase_is(page: Page, phase: str) -> None:
    expect(page.get_by_test_id("encounter-status")).to_have_attribute("data-phase", phase)


def resolve(guide: Person) -> None:
    """The storyguide rolls the phase, sees its preview, and confirms it."""
    guide.page.get_by_test_id("preview-phase").click()
    expect(guide.page.get_by_test_id("phase-preview")).to_contain_text("check before confirming")
    guide.page.get_by_test_id("confirm-phase").click()


def shows_the_log(page: Page, events) -> None:
    """Every given event is in the page's log, with the dice and totals the server recorded."""
    log = page.get_by_test_id("event-log")
    for event in events:
        item = log.locator(f"#event-{event.seq}")
        expect(item).to_be_visible()
        if event.kind == Event.Kind.ATTACK:
            expect(item.get_by_test_id("attack-total")).to_have_text(str(event.payload["attack_total"]))
            expect(item.get_by_test_id("defense-total")).to_have_text(str(event.payload["defense_total"]))
            faces = " → ".join(str(face) for face in event.payload["attack_roll"]["faces"])
            expect(item.get_by_test_id("roll").first).to_contain_text(faces)


def shows_the_levels(page: Page, combatants: dict[str, Combatant]) -> None:
    """Each combatant card shows the fatigue and body levels the database now holds."""
    for combatant in combatants.values():
        character = combatant.character
        character.refresh_from_db()
        card = page.get_by_test_id(f"combatant-{combatant.pk}")
        expect(card.get_by_test_id("fatigue-level")).to_contain_text(character.get_fatigue_level_display())
        expect(card.get_by_test_id("body-level")).to_contain_text(character.get_body_level_display())


def live_text(page: Page) -> str:
    """What the live area shows, whitespace collapsed."""
    return " ".join(page.get_by_test_id("live").inner_text().split())


def event_seqs(page: Page) -> list[int]:
    return [int(seq) for seq in page.get_by_test_id("event-log").locator("li[data-seq]").evaluate_all(
        "items => items.map(item => item.dataset.seq)"
    )]


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
        player.goto(f"/encounters/{encounter.pk}/play/")
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
            expect(person.page.get_by_test_id(f"declared-{combatant.pk}")).to_have_class(re.compile(r"\bdone\b"))
    expect(guide.page.get_by_test_id("declared-count")).to_have_text("6 / 6")

    # 2. The storyguide closes declarations: initiative and engagements appear on every screen.
    guide.page.get_by_test_id("close-declarations").click()
    for person in everyone:
        phase_is(person.page, "first_missile")
        for combatant in combatants.values():
            expect(person.page.get_by_test_id(f"initiative-{combatant.pk}")).to_be_visible()
    movement = Event.objects.get(encounter=encounter, kind=Event.Kind.MOVEMENT)
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
    guide.page.get_by_test_id("preview-phase").click()
    expect(guide.page.get_by_test_id("confirm-phase")).to_be_visible()
    marta_line.cut()
    expect(marta_player.page.get_by_test_id("reconnecting")).to_be_visible()
    guide.page.get_by_test_id("confirm-phase").click()
    phase_is(guide.page, "second_missile")
    phase_is(marta_player.page, "melee")  # cut off: she has not seen Melee resolved
    marta_line.restore()

    connected = [guide, boris_player, anselm_player]
    melee = list(Event.objects.filter(encounter=encounter, phase="melee").exclude(storyguide_only=True))
    assert any(event.kind == Event.Kind.ATTACK for event in melee), "three engaged pairs made no attack"
    for person in connected:
        phase_is(person.page, "second_missile")
        shows_the_log(person.page, melee)
        shows_the_levels(person.page, combatants)

    marta_player.wait_until_live(replays=2, timeout=RECONNECT_MS)
    expect(marta_player.page.get_by_test_id("reconnecting")).to_be_hidden()
    phase_is(marta_player.page, "second_missile")
    shows_the_log(marta_player.page, melee)
    shows_the_levels(marta_player.page, combatants)
    fresh = marta_player.new_tab()
    marta_player.goto(f"/encounters/{encounter.pk}/play/", page=fresh)
    marta_player.wait_until_live(page=fresh)
    expect(fresh.get_by_test_id("my-declarations")).not_to_contain_text("Loading")
    assert event_seqs(marta_player.page) == event_seqs(fresh)
    assert live_text(marta_player.page) == live_text(fresh)
    fresh.close()

    # Second Missile, Magic, Fatigue.
    for after in ("magic", "fatigue", "round_over"):
        resolve(guide)
        for person in everyone:
            phase_is(person.page, after)
    fatigue = list(Event.objects.filter(encounter=encounter, phase="fatigue").exclude(storyguide_only=True))
    assert any(event.kind == Event.Kind.PHASE_RESOLVED for event in fatigue)
    for person in everyone:
        shows_the_log(person.page, fatigue)
        shows_the_levels(person.page, combatants)
        expect(person.page.get_by_test_id("event-log")).to_contain_text("Fatigue resolved.")

    for person in everyone:
        person.assert_not_reloaded()
    assert 1006 in marta_player.live()["closes"], "Marta's socket never dropped"
    encounter.refresh_from_db()
    assert encounter.phase == Encounter.Phase.ROUND_OVER
    assert encounter.round_number == 1
