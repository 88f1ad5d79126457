"""An NPC's attack result is the number its target's defence must meet: under "results only" it goes to the
player of the defending character and to nobody else, in the players' version of the log (pages, frames,
pop-ups, downloads) and in the panels every player is sent alike (issue 35, item 10). Order (see
test_fight.INITIATIVE): Marta (Alice's), Bandit 2, Bandit 1, Brother Anselm (Bob's)."""

import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from campaign.models import NpcRolls
from combat import systems
from combat.audience import PLAYERS, STORYGUIDE
from combat.models import Event
from combat.sentences import sentence
from d6 import events, kinds, presenters, services
from d6 import sentences as said
from tests.archive.conftest import archive_of
from tests.audience_places import exported, line_of, pushed, replayed

from .test_fight import INITIATIVE

pytestmark = pytest.mark.django_db

RESULT = 9  # Bandit 2's attack result (a d6 6 and a d10 9, C1)
LANDS = f"(result {RESULT})"  # the awaiting line's number
VERSUS = f"vs <b>{RESULT}</b>"  # the defence line's number


@pytest.fixture
def attacked(table, dice):
    """Bandit 2 attacks Marta against a value of 2 and lands with 9: Marta must meet it."""
    dice(*INITIATIVE)
    services.start_fight(table.storyguide, table.encounter.pk, table.v)
    services.end_turn(table.storyguide, table.encounter.pk, table.v)  # Bandit 2's turn
    dice(6, 9)
    attack = services.roll(
        table.storyguide,
        table.encounter.pk,
        table.v,
        table.bandits[1].pk,
        "attribute:dexterity",
        value=2,
        target_id=table.marta.pk,
    )
    assert (attack["result"], attack["defence_needed"]) == (RESULT, True)
    return table


@pytest.fixture
def defended(attacked, dice):
    """Alice rolls Marta's defence (a 5 against the 9)."""
    dice(3, 5, 4)
    defence = services.roll(
        attacked.alice, attacked.encounter.pk, attacked.v, attacked.marta.pk, "attribute:dexterity"
    )
    assert (defence["value"], defence["attack_result"], defence["success"]) == (RESULT, RESULT, False)
    return attacked


def page(user, url) -> str:
    client = Client()
    client.force_login(user)
    response = client.get(url, follow=True)
    assert response.status_code == 200, (url, response.status_code)
    return response.content.decode()


def to_meet(table, user):
    client = Client()
    client.force_login(user)
    return client.get(reverse("d6:to_meet", args=[table.encounter.pk]))


def defence_event(table) -> Event:
    return Event.objects.filter(encounter=table.encounter, kind=kinds.ROLL).order_by("-seq").first()


# --- the players' version of an entry ------------------------------------------------------------

DEFENCE = {
    "combatant": "2",
    "name": "Marta",
    "defending": True,
    "defends_against": "4",
    "attacker_name": "Bandit 2",
    "attack_result": 9,
    "value": 9,
    "faces": [3, 5],
    "die_result": 5,
    "result": 5,
    "success": False,
}


@pytest.mark.parametrize(
    "npc_rolls, own, shown",
    [
        (NpcRolls.RESULTS, set(), False),  # every other player, and every frame
        (NpcRolls.RESULTS, {"2"}, True),  # Marta's player
        (NpcRolls.TOTALS, set(), True),  # NPC totals are everyone's at this setting
        (NpcRolls.EVERYTHING, set(), True),
    ],
)
def test_a_defence_against_an_npcs_attack_keeps_the_number_for_the_defenders_player(npc_rolls, own, shown):
    entry = events.players_entry(kinds.ROLL, DEFENCE, {"2"}, npc_rolls, own)
    assert ("value" in entry, "attack_result" in entry) == (shown, shown)
    assert (entry["faces"], entry["result"], entry["success"]) == ([3, 5], 5, False)  # Marta's own roll
    assert ("vs <b>9</b>" in presenters.roll_line(entry)) == shown
    assert (" vs 9" in said.roll(entry)) == shown


def test_a_defence_against_a_player_characters_attack_is_everyones():
    against_anselm = {**DEFENCE, "defends_against": "3", "attacker_name": "Brother Anselm"}
    assert (
        events.players_entry(kinds.ROLL, against_anselm, {"2", "3"}, NpcRolls.RESULTS) == against_anselm
    )


@pytest.mark.parametrize(
    "payload, own, hidden",
    [
        # an NPC's action, an NPC's defence; a player character's action; its defence against an NPC, read by
        # another or by its player; against a player character; logged before it named the roller; none set
        ({"value": 7, "name": "Bandit 2", "defence": False, "combatant": "4"}, set(), True),
        ({"value": 7, "name": "Bandit 2", "defence": True, "combatant": "4", "attacker": "2"}, set(), True),
        ({"value": 7, "name": "Marta", "defence": False, "combatant": "2"}, set(), False),
        ({"value": 7, "name": "Marta", "defence": True, "combatant": "2", "attacker": "4"}, set(), True),
        ({"value": 7, "name": "Marta", "defence": True, "combatant": "2", "attacker": "4"}, {"2"}, False),
        ({"value": 7, "name": "Marta", "defence": True, "combatant": "2", "attacker": "3"}, set(), False),
        ({"value": 7, "name": "Marta", "defence": False}, set(), True),
        ({"value": None, "name": "Bandit 2", "defence": False, "combatant": "4"}, set(), False),
    ],
)
def test_a_challenge_value_set_is_seen_as_the_roll_it_is_for(payload, own, hidden):
    players = {"2", "3"}
    shown = events.players_entry(kinds.VALUE_SET, payload, players, NpcRolls.RESULTS, own)
    assert ("value" not in shown) == hidden
    assert ("behind the screen" in presenters.value_set_line(shown)) == hidden
    words = sentence(systems.get("d6fatigue"), kinds.VALUE_SET, shown, {}, storyguide=False)
    assert ("behind the screen" in words) == hidden
    assert events.players_entry(kinds.VALUE_SET, payload, players, NpcRolls.TOTALS, own) == payload


# --- the panels every player is sent, and the defender's own ---------------------------------------


def test_the_awaited_defence_shows_its_number_to_the_storyguide_and_the_defender_alone(attacked):
    attacked.with_npc_rolls(NpcRolls.RESULTS)
    encounter = attacked.refresh()
    frames = {audience: pushed(encounter, audience) for audience in (PLAYERS, STORYGUIDE)}
    assert LANDS in frames[STORYGUIDE]
    for html in (frames[PLAYERS], replayed(encounter, PLAYERS)):
        assert LANDS not in html and "lands with" not in html and 'data-testid="to-meet-value"' not in html
        assert "must defend against Bandit 2’s attack." in html
        assert 'hx-get="' + reverse("d6:to_meet", args=[encounter.pk]) in html  # the defender asks for it
    for user in (attacked.alice, attacked.bob):
        assert LANDS not in page(user, reverse("d6:table", args=[encounter.pk]))
    answers = {user: to_meet(attacked, user) for user in (attacked.storyguide, attacked.alice, attacked.bob)}
    assert all(answer.status_code == 200 for answer in answers.values())
    value = f'data-testid="to-meet-value">{RESULT}<'
    assert value in answers[attacked.alice].content.decode()
    assert value in answers[attacked.storyguide].content.decode()
    bob = answers[attacked.bob].content.decode()
    assert value not in bob and "Marta’s defence must meet its result" in bob
    assert to_meet(attacked, attacked.outsider).status_code == 404


def test_at_totals_every_player_sees_the_number_in_the_panels(attacked):
    attacked.with_npc_rolls(NpcRolls.TOTALS)
    frame = pushed(attacked.refresh(), PLAYERS)
    assert LANDS in frame and f'data-testid="to-meet-value">{RESULT}<' in frame
    assert f'data-testid="to-meet-value">{RESULT}<' in to_meet(attacked, attacked.bob).content.decode()


def test_no_defence_awaited_answers_without_a_number(table):
    answer = to_meet(table, table.alice)
    assert answer.status_code == 200 and "No defence is awaited now." in answer.content.decode()


# --- the defence's line: frames, pages, pop-ups, downloads -------------------------------------------


def test_the_defence_line_keeps_the_attack_result_from_every_other_player(defended):
    defended.with_npc_rolls(NpcRolls.RESULTS)
    encounter, defence = defended.refresh(), defence_event(defended)
    for html in (pushed(encounter, PLAYERS), replayed(encounter, PLAYERS)):
        line = line_of(html, defence.seq)
        assert VERSUS not in line and "defends against Bandit 2" in line and "the attack lands" in line
    assert VERSUS in line_of(pushed(encounter, STORYGUIDE), defence.seq)
    shown = {}
    for user in (defended.alice, defended.bob, defended.storyguide):
        replay = page(user, reverse("encounter_replay", args=[encounter.pk]) + f"?seq={defence.seq}")
        shown[user] = VERSUS in line_of(
            page(user, reverse("saga_history", args=[defended.saga.pk])), defence.seq
        )
        assert (VERSUS in replay) == shown[user], user
    assert shown == {defended.alice: True, defended.bob: False, defended.storyguide: True}


def test_a_pop_up_says_the_number_only_where_the_reader_may_see_it(defended):
    defended.with_npc_rolls(NpcRolls.RESULTS)
    encounter, defence = defended.refresh(), defence_event(defended)
    system = systems.of(defended.saga)
    players = {str(defended.marta.pk), str(defended.anselm.pk)}
    shown = system.log.players_payload(defence, set(), players, NpcRolls.RESULTS)
    words = sentence(system, defence.kind, shown, {}, storyguide=False)
    assert "defends against Bandit 2" in words and f"vs {RESULT}" not in words
    assert f"vs {RESULT}" in sentence(system, defence.kind, defence.payload, {}, storyguide=True)
    own = system.log.players_payload(defence, {str(defended.marta.pk)}, players, NpcRolls.RESULTS)
    assert f"vs {RESULT}" in sentence(system, defence.kind, own, {}, storyguide=False)
    said_in = {  # "die result 5 (the highest die) vs 7": how the die result was read, then the number to meet
        audience: bool(re.search(rf"result 5( \([^)]*\))? vs {RESULT}", pushed(encounter, audience)))
        for audience in (PLAYERS, STORYGUIDE)
    }
    assert said_in == {PLAYERS: False, STORYGUIDE: True}  # the frame's pop-up words


def test_downloads_keep_the_attack_result_for_the_defenders_player_alone(defended):
    defended.with_npc_rolls(NpcRolls.RESULTS)
    for user, kept in ((defended.alice, True), (defended.bob, False), (defended.storyguide, True)):
        (entry,) = [e["payload"] for e in exported(user, defended.encounter) if e["payload"].get("defending")]
        assert ("value" in entry, "attack_result" in entry) == (kept, kept), user
        archived = json.loads(archive_of(defended.saga, user))
        (event,) = [
            e
            for encounter in archived["encounters"]
            for e in encounter["events"]
            if e["payload"].get("defending")
        ]
        assert ("attack_result" in event["payload"]) == kept, user
        client = Client()
        client.force_login(user)
        recap = b"".join(
            client.get(reverse("saga_recap", args=[defended.saga.pk])).streaming_content
        ).decode()
        assert "defends against Bandit 2" in recap
        assert (f"vs {RESULT}" in recap or f"vs **{RESULT}**" in recap) == kept, (user, recap)
