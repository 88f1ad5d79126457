"""Players act for themselves at the d6 demo table: the storyguide and two players, each in their own browser.

The demo ("The chase through Ashford", `load_demo_d6`) opens on a chase that is still running, and a fight
cannot start while a chase runs, so each test sets up a second encounter in the demo saga with the same four
characters (Wren: player1, Tobias: player2, Watchman Hale and Watchman Brock: NPCs) through the services,
as the storyguide's setup form would. Everything after that is done on the pages:

- a fight: the storyguide rolls initiative; on a player character's turn that player picks the challenge on
  their own page and rolls it, and the other player sees the roll arrive without reloading; an NPC's attack
  on a player character is defended by that player from their own page, the only player's page given the
  number to meet (the saga keeps NPC results' numbers behind the screen); the other player takes a breather
  on their own turn and every screen's fatigue track drops to base fatigue;
- a chase: the storyguide starts it with Tobias one square behind Hale; Tobias's player chooses "Move ahead"
  on their page, and when the exchange carries Tobias past Hale every screen shows him run past and leave the
  chase while Brock runs on. The saga is switched to physical dice for the chase (a saga setting with no form
  after the saga is made), so the faces, and with them the pass, are the ones the test types.
"""

import re
from io import StringIO

import pytest
from django.core.management import call_command
from playwright.sync_api import Page, expect

from campaign.models import Saga
from combat import services as combat_services
from combat.models import Combatant, Encounter, Event
from d6 import kinds
from d6 import services as d6_services
from d6.models import Chase, Fight, Fighter, Runner
from d6.sheet import sheet_of as d6_sheet
from d6.sheet import write

from .people import PHONE, Person, outside_the_event_loop, wait_until

pytestmark = pytest.mark.browser

SIDES = (("Companions", ("Tobias", "Wren")), ("The watch", ("Watchman Brock", "Watchman Hale")))
ATTACKS_WITH = {"Wren": "attribute:dexterity", "Tobias": "ability:Swordplay"}
WINDED = {"Wren": 6, "Tobias": 5}  # above base (3 and 2): the breather has something to take back
MAX_TURNS = 8  # two rounds of four: every step below comes up in the first round or the second


def _demo_encounter(name: str, physical_dice: bool = False):
    call_command("load_demo_d6", stdout=StringIO())
    saga = Saga.objects.get(name="The chase through Ashford")
    if physical_dice:
        saga.physical_dice = True
        saga.save(update_fields=["physical_dice"])
    guide = saga.storyguide
    encounter = d6_services.create_encounter(guide, saga.pk, name)
    for side, names in SIDES:
        encounter.refresh_from_db()
        ids = list(saga.characters.filter(name__in=names).values_list("pk", flat=True))
        combat_services.add_combatants(guide, encounter.pk, encounter.version, ids, side)
    for character_name, fatigue in WINDED.items():
        character = saga.characters.get(name=character_name)
        write(character, fatigue=fatigue)
        character.save(update_fields=["sheet"])
    return saga.pk, encounter.pk


def demo_encounter(name: str, physical_dice: bool = False):
    """The demo loaded, and a new encounter of its saga with its four characters on two sides."""
    saga_id, encounter_id = outside_the_event_loop(_demo_encounter, name, physical_dice)
    encounter = Encounter.objects.get(pk=encounter_id)
    rows = Combatant.objects.filter(encounter=encounter).select_related("character", "character__owner")
    return Saga.objects.get(pk=saga_id), encounter, {row.character.name: row for row in rows}


def seat_everyone(table, saga, encounter, combatants) -> tuple[Person, Person, Person]:
    guide = table.person("storyguide")
    guide.enter_as(saga.storyguide)
    wren = combatants["Wren"].character.owner
    wren_player = table.person(wren.username, viewport=PHONE)
    wren_player.enter_as(wren)
    tobias = combatants["Tobias"].character.owner
    tobias_player = table.person(tobias.username)
    tobias_player.enter_as(tobias)
    everyone = (guide, wren_player, tobias_player)
    for person in everyone:
        person.goto(f"/encounters/{encounter.pk}/d6/")
    for person in everyone:
        person.wait_until_live()
        person.mark_page()
    return everyone


def latest(encounter, kind: str) -> Event:
    return Event.objects.filter(encounter=encounter, kind=kind).order_by("-seq").first()


def shows_the_roll(page: Page, event: Event) -> None:
    """The turn panel's last roll and the log show this roll as the server recorded it."""
    payload = event.payload
    last = page.get_by_test_id("d6-turn").get_by_test_id("last-roll")
    expect(last).to_contain_text(payload["name"])
    expect(last.get_by_test_id("die-result")).to_have_text(str(payload["die_result"]))
    entry = page.get_by_test_id("event-log").locator(f"#event-{event.seq}")
    expect(entry).to_be_visible()
    expect(entry).to_contain_text(payload["name"])


def no_errors(person: Person) -> None:
    for slot in person.page.locator("[data-testid=yours-error], [data-testid=d6-error]").all():
        expect(slot).to_have_text("")


def test_players_roll_their_own_turn_and_defence_and_take_a_breather(table, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # load_demo_d6's logins
    saga, encounter, combatants = demo_encounter("Ambush at the gate")
    guide, wren_player, tobias_player = everyone = seat_everyone(table, saga, encounter, combatants)
    player_of = {"Wren": wren_player, "Tobias": tobias_player}
    user_of = {name: combatants[name].character.owner_id for name in player_of}

    guide.page.get_by_test_id("start-fight").click()
    for person in everyone:
        expect(person.page.get_by_test_id("d6-turn")).to_be_visible()
    fight = Fight.objects.get(encounter=encounter)
    fighters = list(
        Fighter.objects.filter(fight=fight).select_related("combatant__character").order_by("position")
    )
    for person in everyone:  # an NPC's initiative is behind the screen for players (results only)
        for fighter in fighters:
            if person is guide or not fighter.combatant.character.is_npc:
                expect(person.page.get_by_test_id(f"initiative-{fighter.combatant_id}")).to_contain_text(
                    str(fighter.initiative["result"])
                )
            else:
                expect(person.page.get_by_test_id(f"initiative-{fighter.combatant_id}")).to_have_count(0)

    attacked_by_player = defended_by_player = breather_taken = None
    for _ in range(MAX_TURNS):
        fight.refresh_from_db()
        current = fighters[fight.turn].combatant
        name = current.character.name
        for person in everyone:
            expect(person.page.get_by_test_id("turn-current")).to_have_text(name)

        if name in player_of and attacked_by_player is None:
            # That player picks the challenge on their own page and attacks a watchman with it.
            player, other = player_of[name], next(p for n, p in player_of.items() if n != name)
            panel = player.page.get_by_test_id(f"your-turn-{current.pk}")
            expect(panel).to_be_visible()
            expect(other.page.get_by_test_id(f"your-turn-{current.pk}")).to_be_hidden()
            before = other.live()["frames"]
            panel.get_by_test_id("player-roll-score").select_option(ATTACKS_WITH[name])
            panel.get_by_test_id("player-roll-target").select_option(label="Watchman Hale")
            panel.get_by_test_id("player-roll-submit").click()
            expect(player.page.get_by_test_id("d6-turn").get_by_test_id("last-roll")).to_contain_text(name)
            roll = latest(encounter, kinds.ROLL)
            assert roll.payload["combatant"] == str(current.pk) and roll.actor_id == user_of[name]
            assert roll.payload["rolled"] == ATTACKS_WITH[name].partition(":")[2].title()
            assert roll.payload["target_name"] == "Watchman Hale"
            for person in everyone:
                shows_the_roll(person.page, roll)
            assert other.live()["frames"] > before  # it came over the other player's socket
            other.assert_not_reloaded()
            if roll.payload["defence_needed"]:  # an NPC's defence is the storyguide's to roll
                guide.page.get_by_test_id("defence-form").get_by_test_id("defence-score").select_option(
                    "ability:Swordplay"
                )
                guide.page.get_by_test_id("defence-submit").click()
                for person in everyone:
                    expect(person.page.get_by_test_id("awaiting-defence")).to_have_count(0)
            attacked_by_player = name
            expect(panel.get_by_test_id("player-end-turn")).to_be_visible()
            panel.get_by_test_id("player-end-turn").click()

        elif name in player_of and breather_taken is None:
            # The other player takes a breather on their own turn: fatigue back to base everywhere.
            player = player_of[name]
            character = current.character
            character.refresh_from_db()
            base = next(f.base_fatigue for f in fighters if f.combatant_id == current.pk)
            assert d6_sheet(character).fatigue > base
            panel = player.page.get_by_test_id(f"your-turn-{current.pk}")
            expect(panel).to_be_visible()
            panel.get_by_test_id("player-breather").click()
            for person in everyone:
                expect(person.page.get_by_test_id("turn-breather")).to_be_visible()
                track = person.page.get_by_test_id("d6-fighters").get_by_test_id(f"fatigue-{current.pk}")
                expect(track).to_have_attribute("data-fatigue", str(base))
                expect(track).to_have_attribute("data-base", str(base))
                expect(track.get_by_test_id("track-now")).to_have_text(str(base))
                expect(person.page.get_by_test_id(f"fatigue-text-{current.pk}")).to_contain_text(
                    f"Fatigue {base}"
                )
            character.refresh_from_db()
            assert d6_sheet(character).fatigue == base
            breather = latest(encounter, kinds.BREATHER)
            assert breather.actor_id == user_of[name] and breather.payload["fatigue_after"] == base
            breather_taken = name
            panel.get_by_test_id("player-end-turn").click()

        elif name not in player_of and defended_by_player is None:
            # The storyguide's watchman attacks Tobias (not a physical roll: it cannot fail outright, so it
            # lands); Tobias's player rolls the defence from their own page.
            defender = combatants["Tobias"]
            form = guide.page.get_by_test_id("roll-form")
            form.get_by_test_id("roll-score").select_option("ability:Swordplay")
            form.get_by_test_id("roll-target").select_option(label="Tobias")
            form.get_by_test_id("roll-physical").select_option("no")
            form.get_by_test_id("roll-submit").click()
            defend = tobias_player.page.get_by_test_id(f"your-defence-{defender.pk}")
            expect(defend).to_be_visible()
            expect(wren_player.page.get_by_test_id(f"your-defence-{defender.pk}")).to_be_hidden()
            attack = latest(encounter, kinds.ROLL)
            assert attack.payload["defence_needed"] and attack.payload["target_name"] == "Tobias"
            # Under "results only" the watchman's result is the number Tobias's defence must meet: his page
            # asks for it, and it reaches no other player's page (issue 35, item 10).
            result = str(attack.payload["result"])
            expect(defend.get_by_test_id("to-meet-value")).to_have_text(result)
            expect(defend.get_by_test_id("to-meet")).to_have_count(1)  # the answer replaced the line drawn
            expect(wren_player.page.get_by_test_id("to-meet-value")).to_have_count(0)
            expect(guide.page.get_by_test_id("awaiting-defence")).to_contain_text(f"(result {result})")
            for person in everyone:
                expect(person.page.get_by_test_id("awaiting-defence")).to_contain_text("Tobias")
            for person in (wren_player, tobias_player):
                expect(person.page.get_by_test_id("awaiting-defence")).not_to_contain_text("(result")
            defend.get_by_test_id("player-defence-score").select_option("ability:Swordplay")
            defend.get_by_test_id("player-defence-submit").click()
            for person in everyone:
                expect(person.page.get_by_test_id("awaiting-defence")).to_have_count(0)
            defence = latest(encounter, kinds.ROLL)
            assert defence.actor_id == user_of["Tobias"]
            assert defence.payload["defends_against"] == str(current.pk)
            assert defence.payload["value"] == attack.payload["result"]
            for person in everyone:
                shows_the_roll(person.page, defence)
                expect(person.page.get_by_test_id("d6-turn").get_by_test_id("last-roll")).to_contain_text(
                    f"defends against {name}"
                )
            defended_by_player = name
            guide.page.get_by_test_id("end-turn").click()

        else:
            guide.page.get_by_test_id("end-turn").click()

        following = fighters[(fight.turn + 1) % len(fighters)].combatant.character.name
        for person in everyone:
            expect(person.page.get_by_test_id("turn-current")).to_have_text(following)
        ended = latest(encounter, kinds.TURN_ENDED)
        assert ended.payload["ended_name"] == name and ended.payload["next_name"] == following
        for person in everyone:
            expect(person.page.get_by_test_id("event-log").locator(f"#event-{ended.seq}")).to_be_attached()
        if attacked_by_player and defended_by_player and breather_taken:
            break
    assert attacked_by_player and defended_by_player and breather_taken, "not every step came up"
    assert attacked_by_player != breather_taken

    for person in everyone:
        no_errors(person)
        person.assert_not_reloaded()


def test_a_player_chaser_one_square_behind_moves_ahead_and_every_screen_shows_it(table, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # load_demo_d6's logins
    saga, encounter, combatants = demo_encounter("Over the rooftops", physical_dice=True)
    guide, wren_player, tobias_player = everyone = seat_everyone(table, saga, encounter, combatants)
    tobias, hale, brock = combatants["Tobias"], combatants["Watchman Hale"], combatants["Watchman Brock"]

    # The storyguide starts the chase: Hale runs, Tobias one square behind, Brock three.
    form = guide.page.get_by_test_id("chase-form")
    form.get_by_test_id("chase-target").select_option(label="Watchman Hale")
    form.get_by_test_id(f"chase-distance-{tobias.pk}").fill("1")
    form.get_by_test_id(f"chase-distance-{brock.pk}").fill("3")
    form.get_by_test_id("terrain-name-0").fill("Market streets")
    form.get_by_test_id("terrain-rolled-0").select_option("Running")
    form.get_by_test_id("start-chase").click()
    for person in everyone:
        expect(person.page.get_by_test_id("chase-grid")).to_be_visible()
        expect(person.page.get_by_test_id(f"at-target-{tobias.pk}")).to_have_attribute("data-choice", "act")
    chase = Chase.objects.get(encounter=encounter)

    # Only Tobias's player (and the storyguide) gets the choice; Tobias's player moves ahead.
    run = tobias_player.page.get_by_test_id(f"your-run-{tobias.pk}")
    expect(run).to_be_visible()
    expect(wren_player.page.get_by_test_id(f"your-run-{tobias.pk}")).to_be_hidden()
    expect(guide.page.get_by_test_id(f"at-target-form-{tobias.pk}")).to_be_visible()
    run.get_by_test_id(f"player-at-target-ahead-{tobias.pk}").click()
    choice = None
    for person in everyone:
        expect(person.page.get_by_test_id(f"at-target-{tobias.pk}")).to_have_attribute(
            "data-choice", "move_ahead"
        )
        expect(person.page.get_by_test_id(f"at-target-{tobias.pk}")).to_contain_text("moves ahead")
        choice = choice or latest(encounter, kinds.PASS_CHOICE)
        expect(person.page.get_by_test_id("event-log").locator(f"#event-{choice.seq}")).to_contain_text(
            "Tobias, if the roll would pass Watchman Hale: moves ahead of them"
        )
    assert choice.actor_id == tobias.character.owner_id and choice.payload["move_ahead"] is True
    expect(guide.page.get_by_test_id(f"at-target-ahead-{tobias.pk}")).to_have_attribute(
        "aria-pressed", "true"
    )
    expect(run.get_by_test_id(f"player-at-target-ahead-{tobias.pk}")).to_have_attribute(
        "aria-pressed", "true"
    )

    # Tobias's player types his dice (a 10: die result 10); the storyguide types the watchmen's and rolls.
    # Its answer is kept back until its frame is in: the redrawn field is not filled in again.
    answers, page = [], tobias_player.page
    page.route(re.compile(r"/chase/faces/$"), lambda route: answers.append((route, route.fetch())))
    faces = run.get_by_test_id(f"player-chase-faces-{tobias.pk}")
    faces.fill("6 10")
    run.get_by_test_id(f"player-chase-faces-submit-{tobias.pk}").click()
    for person in everyone:
        expect(person.page.get_by_test_id(f"dice-in-{tobias.pk}")).to_have_text("dice in")
    expect(faces).to_have_value("")
    wait_until(page, lambda: answers, "the dice sent")
    answers[0][0].fulfill(response=answers[0][1])
    expect(run.get_by_test_id(f"player-chase-typed-{tobias.pk}")).to_contain_text("6")
    expect(faces).to_have_value("")
    guide.page.get_by_test_id(f"exchange-faces-{hale.pk}").fill("4 4")
    guide.page.get_by_test_id(f"exchange-faces-{brock.pk}").fill("4 4")
    guide.page.get_by_test_id("roll-exchange").click()

    for person in everyone:
        section = person.page.get_by_test_id("d6-chase")
        expect(section.get_by_test_id("last-exchange")).to_have_attribute("data-number", "1")
        expect(section.get_by_test_id(f"exchange-roll-{tobias.pk}")).to_contain_text("moves ahead")
        expect(section.get_by_test_id("exchange-moves")).to_contain_text(
            "Tobias moves ahead of the target instead of acting against them"
        )
        tobias_row = section.get_by_test_id(f"distance-{tobias.pk}")
        expect(tobias_row).to_have_attribute("data-status", Runner.Status.AHEAD.value)
        expect(tobias_row).to_contain_text("moved ahead of the target")
        expect(section.get_by_test_id(f"grid-runner-{tobias.pk}")).to_have_attribute(
            "data-status", Runner.Status.AHEAD.value
        )
        brock_row = section.get_by_test_id(f"distance-{brock.pk}")  # the others run on
        expect(brock_row).to_have_attribute("data-status", Runner.Status.RUNNING.value)
        expect(brock_row).to_have_attribute("data-distance", "3")
        expect(section.get_by_test_id("chase-outcome")).to_have_count(0)
        expect(person.page.get_by_test_id(f"your-run-{tobias.pk}")).to_have_count(0)
    chase.refresh_from_db()
    assert chase.exchanges == 1 and chase.outcome == Chase.Outcome.ONGOING
    rows = {runner.combatant_id: runner for runner in chase.runners.all()}
    assert rows[tobias.pk].status == Runner.Status.AHEAD and rows[tobias.pk].moves_ahead
    assert rows[brock.pk].status == Runner.Status.RUNNING and rows[brock.pk].distance == 3
    rolls = {roll["runner"]: roll for roll in chase.last_exchange["rolls"]}
    assert rolls[str(tobias.pk)]["faces"] == [6, 10] and rolls[str(hale.pk)]["faces"] == [4, 4]
    exchange = latest(encounter, kinds.EXCHANGE)
    assert exchange.payload["moved_ahead"] == ["Tobias"]

    for person in everyone:
        no_errors(person)
        person.assert_not_reloaded()
