"""What the encounter pages show and how a person acts on them: shared by the live-table browser tests."""

import re
from io import StringIO

from django.core.management import call_command
from playwright.sync_api import Page, expect

from arsmagica import services
from arsmagica.events import Kind
from arsmagica.presenters import SCREENED_WORDS, level_labels, said, stress_parts
from campaign.models import Saga
from combat.models import Combatant, Encounter

from .people import Person, outside_the_event_loop

RECONNECT_MS = 30_000  # a few refused attempts may push htmx's next retry several seconds out


def load_demo_table():
    outside_the_event_loop(call_command, "load_demo", stdout=StringIO())
    saga = Saga.objects.get(name="Sir Boris and the bandits")
    encounter = Encounter.objects.get(saga=saga)
    rows = Combatant.objects.filter(encounter=encounter).select_related("character", "character__owner")
    combatants = {combatant.character.name: combatant for combatant in rows}
    return saga, encounter, combatants


def version(encounter) -> int:
    """The encounter's version as the database has it now (what a service call expects)."""
    return Encounter.objects.values_list("version", flat=True).get(pk=encounter.pk)


def everyone_engaged(saga, encounter, combatants) -> None:
    """Declarations opened, the bandits attacking Sir Boris and he Bandit 1, declarations closed: through
    the services."""
    sg = saga.storyguide
    services.open_declarations(sg, encounter.pk, version(encounter))
    boris, bandits = combatants["Sir Boris"], [c for c in combatants.values() if c.character.is_npc]
    for who in [boris, *bandits]:
        foe = bandits[0] if who is boris else boris
        values = {"action": "attack", "weapon_id": who.character.weapons.first().pk, "engage": [foe.pk]}
        services.declare(who.character.owner or sg, encounter.pk, who.pk, values)
    services.close_declarations(sg, encounter.pk, version(encounter))


def fight_into_round_one(saga, encounter, combatants) -> None:
    """Everyone engaged, Movement rolled (nobody shoots: First Missile passes by itself), Melee confirmed."""
    everyone_engaged(saga, encounter, combatants)
    sg = saga.storyguide
    services.preview_phase(sg, encounter.pk, version(encounter), "melee")
    services.confirm_phase(sg, encounter.pk, version(encounter), "melee")


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


def acting_order_shown(page: Page) -> None:
    """Open the acting order where it starts folded (a phone's, issue 32 item 4): a tap on its summary."""
    peek = page.get_by_test_id("order-peek")
    if peek.count() and not peek.get_by_test_id("acting-order").is_visible():
        peek.locator("summary").click()


def resolve(guide: Person) -> None:
    """The storyguide rolls the phase, sees its preview, and confirms it."""
    guide.page.get_by_test_id("preview-phase").click()
    expect(guide.page.get_by_test_id("phase-preview")).to_contain_text("check before confirming")
    guide.page.get_by_test_id("confirm-phase").click()


def roll_with_the_options_open(page: Page) -> None:
    """The storyguide rolls the phase and, under its preview, opens the options (botch dice, modifiers)."""
    page.get_by_test_id("preview-phase").click()
    expect(page.get_by_test_id("phase-preview")).to_contain_text("check before confirming")
    options = page.get_by_test_id("preview-options")
    if options.get_attribute("open") is None:
        options.locator("summary").click()


def shows_the_log(page: Page, events) -> None:
    """Every given event is in the page's log, with the dice and totals the server recorded as far as the
    page's person sees them (pass a player the players' version, `combat.audience.as_players_see`); the
    newest of them is on screen (older entries may be folded away behind "Show the whole log")."""
    log = page.get_by_test_id("event-log")
    events = sorted(events, key=lambda event: event.seq)
    if events:
        expect(log.locator(f"#event-{events[-1].seq}")).to_be_visible()
    for event in events:
        item = log.locator(f"#event-{event.seq}")
        expect(item).to_be_attached()
        if event.kind == Kind.ATTACK:
            shows_the_totals(item, event.payload)


def shows_the_totals(item, attack: dict) -> None:
    """An attack's line: each total and the attack's die in words, or the screen's words where hidden."""
    for side in ("attack", "defense"):
        total = item.get_by_test_id(f"{side}-total")
        if f"{side}_total" in attack:
            expect(total).to_have_text(str(attack[f"{side}_total"]))
        else:
            expect(total).to_have_count(0)
    if attack.get("attack_roll"):
        expect(item.get_by_test_id("roll").first).to_contain_text(said(stress_parts(attack["attack_roll"])))
    if "attack_total" not in attack or "defense_total" not in attack:
        expect(item).to_contain_text(SCREENED_WORDS)


def shows_the_levels(page: Page, combatants: dict[str, Combatant]) -> None:
    """Each combatant card shows the fatigue and body levels the database now holds."""
    for combatant in combatants.values():
        character = combatant.character
        character.refresh_from_db()
        card = page.get_by_test_id(f"combatant-{combatant.pk}")
        (_, fatigue_level), (_, body_level) = level_labels(character)
        expect(card.get_by_test_id("fatigue-level")).to_contain_text(fatigue_level)
        expect(card.get_by_test_id("body-level")).to_contain_text(body_level)


def live_text(page: Page) -> str:
    """What the live area shows, whitespace collapsed."""
    return " ".join(page.get_by_test_id("live").inner_text().split())


def event_seqs(page: Page) -> list[int]:
    return [
        int(seq)
        for seq in page.get_by_test_id("event-log")
        .locator("li[data-seq]")
        .evaluate_all("items => items.map(item => item.dataset.seq)")
    ]
