"""Issue 31's first evening, from nothing: a new storyguide signs up, makes an Ars Magica saga and its invite
link; three players open it on their phones, sign up and make their characters; the storyguide makes two
NPCs and an encounter, adds everyone and plays one round with them; then a player reads the evening's recap.
Each step asserts what the person at that screen would see."""

import re

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from arsmagica.presenters import level_labels
from combat.models import Combatant

from .encounter_page import acting_order_shown, declare, phase_is, shows_the_levels
from .people import PHONE, Person, wait_until
from .test_accounts import a_new_storyguide, sign_up, start_saga

pytestmark = pytest.mark.browser

SAGA = "The Covenant of the Ford"
# Each player: username, character, weapon (name, initiative, attack, defense, damage, missile paces or None).
PLAYERS = (
    ("aelia", "Aelia of Durenmar", ("Long sword", 2, 5, 3, 6, None)),
    ("brennus", "Brennus the Grog", ("Spear", 3, 4, 2, 5, None)),
    ("cassia", "Cassia the Huntress", ("Short bow", 1, 4, 0, 6, 30)),
)
NPCS = (("Bandit captain", ("Axe", 1, 4, 2, 7, None)), ("Wolf", ("Teeth", 4, 3, 2, 3, None)))


def fill_sheet(page: Page, name: str, weapon: tuple) -> None:
    """The sheet form as a new player or storyguide fills it: a name, one weapon, "Save sheet"."""
    expect(page.get_by_role("heading", level=1)).to_have_text(re.compile(r"^New (character|NPC)$"))
    page.get_by_label("Name:", exact=True).first.fill(name)
    page.get_by_label("Stamina").fill("1")
    row = page.locator("#weapons .row-card").first
    weapon_name, initiative, attack, defense, damage, paces = weapon
    row.get_by_label("Name").fill(weapon_name)
    scores = {"Initiative": initiative, "Attack": attack, "Defense": defense, "Damage": damage}
    for label, value in scores.items():
        row.get_by_label(label).fill(str(value))
    if paces:
        row.get_by_label("Missile").check()
        row.get_by_label("Paces").fill(str(paces))
        row.get_by_label("Fires twice").check()
    page.get_by_role("button", name="Save sheet").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(name)
    expect(page.get_by_text(f"{name} saved.")).to_be_visible()


def a_player_joins(player: Person, invite_url: str, username: str, character: str, weapon: tuple) -> None:
    """On a phone: the invite, "Join as a new player", sign up, the saga's first step, the character's sheet,
    and back to the saga page to wait for the fight."""
    page = player.page
    page.goto(invite_url)
    invite = page.get_by_test_id("invite")
    expect(invite.get_by_role("heading", name=SAGA)).to_be_visible()
    expect(invite.get_by_test_id("invite-storyguide")).to_have_text("tiberius")
    invite.get_by_role("link", name="Join as a new player").click()
    expect(page.get_by_test_id("invited-to")).to_contain_text(SAGA)
    sign_up(page, username)
    expect(page.get_by_role("heading", name=SAGA, level=1)).to_be_visible()
    expect(page.get_by_text("you are a player")).to_be_visible()
    first_step = page.get_by_test_id("first-step")
    expect(first_step.get_by_role("heading")).to_have_text("First step: make your character")
    first_step.get_by_role("link", name="Make your character").click()
    fill_sheet(page, character, weapon)
    page.locator(".crumbs").get_by_role("link", name=SAGA).click()
    expect(page.get_by_test_id("saga-characters")).to_contain_text(character)
    expect(page.get_by_test_id("first-step")).to_have_count(0)  # done: the first step has gone
    expect(page.get_by_test_id("encounter-list")).to_contain_text("No encounters yet.")
    player.mark_page()


def loaded_again(page: Page) -> bool:
    """The page has loaded again since it was marked, and its socket has answered (False meanwhile)."""
    try:
        return page.evaluate("!window.__covenantMarker && window.__covenantLive.replays >= 1")
    except PlaywrightError:  # navigating: the old document has gone
        return False


def card_mark(page: Page, combatant: Combatant) -> str:
    """What the storyguide reads after a combatant card's name: the presence mark drawn by the stylesheet."""
    return (
        page.get_by_test_id(f"combatant-{combatant.pk}")
        .locator(".name")
        .evaluate("(name) => getComputedStyle(name, '::after').content")
    )


def add_to_the_fight(guide: Person, names: list[str], side: str) -> None:
    """The storyguide ticks characters under "Add to the fight", picks their side and adds them; the page
    loads again with them among the combatants."""
    page = guide.page
    guide.mark_page()
    form = page.get_by_test_id("add-combatants-form")
    for name in names:
        form.get_by_label(name).check()
    form.get_by_test_id(f"side-{side}").check()
    form.get_by_test_id("add-combatants").click()
    wait_until(page, lambda: loaded_again(page), "the page loaded again, live")
    for name in names:
        expect(page.get_by_test_id("combatants")).to_contain_text(name)


def test_a_new_group_plays_its_first_evening_from_the_invite_to_the_recap(table):
    # 1. The storyguide signs up, makes the saga, and copies its invite link.
    guide, page = a_new_storyguide(table)
    page.get_by_role("link", name="Start a saga").first.click()
    start_saga(page, SAGA)
    expect(page.get_by_text("you are the storyguide")).to_be_visible()
    expect(page.get_by_test_id("first-step")).to_have_count(0)  # a player's step, not the storyguide's
    invite_url = page.locator("#invite-url").input_value()
    assert re.search(r"/join/[^/]+/$", invite_url), invite_url
    saga_url = page.url
    guide.mark_page()

    # 2. Three players open the link on their phones, join, and make their characters; the storyguide's
    # saga page shows each one arrive.
    players = []
    for username, character, weapon in PLAYERS:
        player = table.person(username, viewport=PHONE)
        a_player_joins(player, invite_url, username, character, weapon)
        expect(page.get_by_test_id("saga-members")).to_contain_text(username)
        expect(page.get_by_test_id("saga-characters")).to_contain_text(character)
        players.append(player)
    guide.assert_not_reloaded()

    # 3. The storyguide makes two NPCs, then the encounter; the players' saga pages show it come.
    for name, weapon in NPCS:
        page.get_by_test_id("saga-npcs").get_by_role("link", name="New NPC").click()
        fill_sheet(page, name, weapon)
        guide.goto(saga_url)
        expect(page.get_by_test_id("saga-npcs")).to_contain_text(name)
    page.locator("#new-encounter-name").fill("Ambush at the ford")
    page.get_by_test_id("new-encounter").click()
    expect(page.get_by_role("heading", name="Ambush at the ford", level=1)).to_be_visible()
    guide.wait_until_live()
    for player in players:
        expect(player.page.get_by_test_id("encounter-list")).to_contain_text("Ambush at the ford")
        player.assert_not_reloaded()

    # 4. Everyone into the fight: the players' characters on the players' side, the NPCs as opponents.
    add_to_the_fight(guide, [character for _, character, _ in PLAYERS], "players")
    add_to_the_fight(guide, [name for name, _ in NPCS], "opponents")
    expect(page.get_by_test_id("setup")).to_contain_text("Every character of the saga is in this fight.")
    guide.mark_page()
    fighters = {c.character.name: c for c in Combatant.objects.select_related("character")}
    aelia, brennus, cassia = (fighters[character] for _, character, _ in PLAYERS)
    captain, wolf = fighters["Bandit captain"], fighters["Wolf"]
    for fighter in (aelia, brennus, cassia):  # still on the saga page: not here yet, not "gone"
        expect(page.get_by_test_id(f"combatant-{fighter.pk}")).to_have_class(re.compile(r"\bowner-absent\b"))
        assert card_mark(page, fighter) == '" (not here)"'

    # 5. Each player taps the encounter on the saga page and sees their own character's card, and no controls.
    for player, (_, character, _) in zip(players, PLAYERS, strict=True):
        player.page.get_by_test_id("encounter-list").get_by_role("link", name="Ambush at the ford").click()
        player.wait_until_live()
        expect(player.page.get_by_role("heading", name="Ambush at the ford", level=1)).to_be_visible()
        expect(player.page.get_by_test_id("sg-controls")).to_have_count(0)
        expect(player.page.get_by_test_id(f"combatant-{fighters[character].pk}")).to_be_visible()
        player.mark_page()
    for fighter in (aelia, brennus, cassia):  # here now: their cards are marked no more
        expect(page.get_by_test_id(f"combatant-{fighter.pk}")).not_to_have_class(re.compile(r"\bowner-"))
        assert card_mark(page, fighter) == "none"
    everyone = [guide, *players]

    # 6. Round 1: declarations open; each player declares from their phone, the storyguide for the NPCs.
    page.get_by_test_id("open-declarations").click()
    for person in everyone:
        phase_is(person.page, "declaring")
    aelia_phone, brennus_phone, cassia_phone = (player.page for player in players)
    expect(cassia_phone.get_by_test_id(f"declare-form-{cassia.pk}")).to_contain_text(
        "Short bow fires in First Missile and Second Missile, whichever is chosen."
    )
    declare(aelia_phone, aelia, action="Fight hand to hand", weapon="Long sword", engage=captain)
    declare(brennus_phone, brennus, action="Fight hand to hand", weapon="Spear", engage=wolf)
    declare(cassia_phone, cassia, action="Shoot or throw", weapon="Short bow", engage=captain, distance=20)
    declare(page, captain, action="Fight hand to hand", weapon="Axe", engage=aelia)
    declare(page, wolf, action="Fight hand to hand", weapon="Teeth", engage=brennus)
    expect(page.get_by_test_id("declared-count")).to_have_text("5 / 5")
    for person in everyone:
        for fighter in fighters.values():
            expect(person.page.get_by_test_id(f"declared-{fighter.pk}")).to_have_class(
                re.compile(r"\bdone\b")
            )

    # 7. Declarations close; each phase is rolled and confirmed, the players reading that it is being rolled.
    page.get_by_test_id("close-declarations").click()
    for person in everyone:
        phase_is(person.page, "first_missile")
        acting_order_shown(person.page)
        for fighter in fighters.values():
            expect(person.page.get_by_test_id(f"initiative-{fighter.pk}")).to_be_visible()
    for after in ("melee", "second_missile", "fatigue", "round_over"):
        page.get_by_test_id("preview-phase").click()
        expect(page.get_by_test_id("phase-preview")).to_contain_text("check before confirming")
        for phone in (aelia_phone, brennus_phone, cassia_phone):
            expect(phone.get_by_test_id("rolling-notice")).to_contain_text("The storyguide is rolling")
        page.get_by_test_id("confirm-phase").click()
        for person in everyone:
            phase_is(person.page, after)
        for phone in (aelia_phone, brennus_phone, cassia_phone):
            expect(phone.get_by_test_id("rolling-notice")).to_have_count(0)
    for person in everyone:
        expect(person.page.get_by_test_id("event-log")).to_contain_text("Fatigue resolved.")
        shows_the_levels(person.page, fighters)
    for phone in (aelia_phone, brennus_phone, cassia_phone):  # previews stay behind the screen
        expect(phone.get_by_test_id("phase-preview")).to_have_count(0)
        expect(phone.get_by_test_id("event-log")).not_to_contain_text("preview")

    # 8. The round ends; round 2's declarations wait for another evening.
    page.get_by_test_id("end-round").click()
    for person in everyone:
        phase_is(person.page, "declaring")
        person.assert_not_reloaded()

    # 9. The next day a player opens the evening's recap from the saga page: the players' version.
    phone = players[0].page
    players[0].goto(saga_url)
    phone.get_by_test_id("evening-link").click()
    recap = phone.get_by_test_id("evening-recap")
    expect(recap.get_by_role("heading", level=1)).to_contain_text(f"{SAGA}: the evening of")
    expect(phone.get_by_test_id("evening-version")).to_contain_text("The players’ version")
    sentences = phone.get_by_test_id("evening-sentences")
    expect(recap).to_contain_text("Ambush at the ford")
    expect(sentences).to_contain_text(
        "Aelia of Durenmar, Brennus the Grog and Cassia the Huntress (Players) fought Bandit captain and Wolf"
        " (Opponents); the fight goes on (round 2)."
    )
    expect(sentences).to_contain_text(re.compile(r"Attacks landed: .*Cassia the Huntress \d of \d"))
    expect(sentences).to_contain_text("Best roll: ")
    standing = phone.get_by_test_id("evening-standing")
    for fighter in fighters.values():  # each on the levels the round left them on
        fighter.character.refresh_from_db()
        (_, fatigue), (_, body) = level_labels(fighter.character)
        name = re.escape(fighter.character.name)
        levels = rf"{name} \({fighter.side}\): Fatigue level\s+{fatigue}, Body level\s+{body}"
        expect(standing).to_contain_text(re.compile(levels))
    expect(recap).not_to_contain_text("preview")
    expect(phone.get_by_test_id("evening-md")).to_be_visible()
    wide = phone.evaluate("document.documentElement.scrollWidth > document.documentElement.clientWidth")
    assert not wide, "the recap scrolls sideways on a phone"
