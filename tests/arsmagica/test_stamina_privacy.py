"""An NPC's Stamina roll as time passes (ArM3 p177) reaches a player only as far as the saga's npc_rolls
setting shows an NPC's rolls, wherever a player reads it: the frame, the encounter page's log, the replay,
the history page, history.json, archive.json, the recap and the print view, and the records of time
passing between encounters (the history page, history.json, archive.json). A player character's roll
always shows (issue 29: the payload names characters by id, and every reader showed every roll)."""

import json
import re
from functools import partial
from unittest.mock import patch

import pytest
from channels.layers import get_channel_layer
from django.urls import reverse

from arsmagica import services
from arsmagica.rules import Exertion, FatigueState
from arsmagica.services.sheets import set_fatigue
from arsmagica.sheet import write
from campaign.models import Character, NpcRolls
from combat.audience import AUDIENCES, PLAYERS, STORYGUIDE
from combat.live import FRAME_TYPE
from combat.models import Encounter
from tests.audience_places import replayed
from tests.personas import login

from ..archive.conftest import archive_data

pytestmark = pytest.mark.django_db

FACES = {"boris": 7, "bandit": 8, "giles": 6}  # with Stamina 2, 3 and 1 against 9 (ArM3 p177)
SHOWN = {
    "boris": "Stamina roll: simple die 7 + Stamina 2 = 9 vs ease factor 9: rest takes half the time",
    "bandit": "Stamina roll: simple die 8 + Stamina 3 = 11 vs ease factor 9: rest takes half the time",
    "giles": "Stamina roll: simple die 6 + Stamina 1 = 7 vs ease factor 9: no help",
}
SCREENED = {
    NpcRolls.RESULTS: "Stamina roll (behind the screen): rest takes half the time",
    NpcRolls.TOTALS: "Stamina roll = 11 vs ease factor 9: rest takes half the time",
}
ALL_KEYS = {"face", "value", "stamina", "total", "ease_factor", "success"}
KEYS = {NpcRolls.RESULTS: {"ease_factor", "success"}, NpcRolls.TOTALS: {"total", "ease_factor", "success"}}


def winded(character, stamina: int) -> None:
    """One short-term Fatigue level down (Winded, no penalty), with the Stamina score given."""
    set_fatigue(character, FatigueState((Exertion.SHORT_TERM,)))
    write(character, stamina=stamina)
    character.save()


def scene(table, npc_rolls):
    """Sir Boris (Alice's) and Bandit 1 winded, the saga at its setting; the characters by persona."""
    table.saga.npc_rolls = npc_rolls
    table.saga.save()
    winded(table.boris_character, 2)
    winded(table.bandit_characters[0], 3)
    return {"boris": table.boris_character, "bandit": table.bandit_characters[0]}


def typed(characters) -> dict:
    """Each winded character's Stamina die, typed in as the table rolled it."""
    return {str(character.pk): str(FACES[persona]) for persona, character in characters.items()}


async def _sent(frames: dict, group: str, message: dict) -> None:
    if message["type"] == FRAME_TYPE:
        frames[group] = message["html"]


@pytest.fixture
def rested(table, request, django_capture_on_commit_callbacks):
    """Two minutes of rest on the encounter's page, each winded character's Stamina roll typed in; the
    frames its push sent, by audience."""
    characters = scene(table, request.param)
    frames = {}
    sending = patch.object(get_channel_layer(), "group_send", side_effect=partial(_sent, frames))
    with sending, django_capture_on_commit_callbacks(execute=True):
        event = services.pass_time(
            table.storyguide,
            2,
            stamina="typed",
            typed_faces=typed(characters),
            encounter_id=table.encounter.pk,
            expected_version=table.v,
        )
    table.frames = {a: frames[Encounter.group_name(table.encounter.pk, a)] for a in AUDIENCES}
    return table, characters, event


@pytest.fixture
def between(table, request):
    """Two minutes of rest on the saga page, after the fight, for Sir Boris, Bandit 1 and Giles (Bob's,
    who never fought): a saga record."""
    services.end_encounter(table.storyguide, table.encounter.pk, table.v)
    characters = scene(table, request.param)
    characters["giles"] = Character.objects.create(saga=table.saga, name="Giles", owner=table.bob)
    winded(characters["giles"], 1)
    record = services.pass_time(
        table.storyguide,
        2,
        stamina="typed",
        typed_faces=typed(characters),
        saga_id=table.saga.pk,
        character_ids=[c.pk for c in characters.values()],
    )
    return table, characters, record


def expected(npc_rolls, personas=("boris", "bandit")) -> dict[str, str]:
    """What a player reads of each roll at the setting: an NPC's behind the screen as far as it says."""
    return {persona: screened(npc_rolls, persona, SCREENED, SHOWN[persona]) for persona in personas}


def expected_keys(npc_rolls, characters) -> dict[str, set[str]]:
    """The fields a player gets of each roll at the setting."""
    return {persona: screened(npc_rolls, persona, KEYS, ALL_KEYS) for persona in characters}


def screened(npc_rolls, persona, hidden: dict, shown):
    """The bandit's roll as the setting keeps it (`hidden` by setting), anyone else's as it is."""
    return hidden.get(npc_rolls, shown) if persona == "bandit" else shown


def lines_in(html: str, characters) -> dict[str, str]:
    """Each character's Stamina roll as a page's recovery line reads it (its text, tags gone)."""
    found = {}
    for persona, character in characters.items():
        (item,) = re.findall(rf'data-testid="recovery-{character.pk}">(.*?)</li>', html, re.S)
        text = " ".join(re.sub(r"<[^>]+>", "", item).split())
        found[persona] = re.search(r"Stamina roll.*(?=\))", text).group()
    return found


def keys_in(payload: dict, characters) -> dict[str, set[str]]:
    """The fields of each character's Stamina roll in an exported payload."""
    by_id = {row["character"]: row for row in payload["characters"]}
    return {persona: set(by_id[character.pk]["stamina"]) for persona, character in characters.items()}


def page(client, user, url_name, *args, query="") -> str:
    """What `user` gets from the page or download, as text."""
    login(client, user)
    response = client.get(reverse(url_name, args=args) + query)
    assert response.status_code == 200
    if response.streaming:
        return b"".join(response.streaming_content).decode()
    return response.content.decode()


def time_passed(events) -> dict:
    """The payload of the one time_passed entry among exported events."""
    (event,) = [event for event in events if event["kind"] == "time_passed"]
    return event["payload"]


# --- time passing on the encounter's page: an event ----------------------------------------------------


@pytest.mark.parametrize("rested", NpcRolls.values, indirect=True)
def test_the_pushed_frame_shows_an_npcs_stamina_roll_at_the_saga_setting(rested):
    table, characters, _ = rested
    assert lines_in(table.frames[PLAYERS], characters) == expected(table.saga.npc_rolls)
    assert lines_in(table.frames[STORYGUIDE], characters) == expected(NpcRolls.EVERYTHING)


@pytest.mark.parametrize("rested", NpcRolls.values, indirect=True)
def test_the_frame_a_reconnecting_player_gets_shows_an_npcs_stamina_roll_at_the_saga_setting(rested):
    table, characters, _ = rested
    assert lines_in(replayed(table.encounter, PLAYERS), characters) == expected(table.saga.npc_rolls)


# The encounter page's log, the saga's history page, the encounter's print view.
PAGES = pytest.mark.parametrize("url_name", ["arsmagica:play", "saga_history", "encounter_record"])


@PAGES
@pytest.mark.parametrize("rested", NpcRolls.values, indirect=True)
def test_a_players_page_shows_an_npcs_stamina_roll_at_the_saga_setting(client, rested, url_name):
    table, characters, _ = rested
    on = table.saga if url_name == "saga_history" else table.encounter
    html = page(client, table.alice, url_name, on.pk)
    assert lines_in(html, characters) == expected(table.saga.npc_rolls)


@pytest.mark.parametrize("rested", NpcRolls.values, indirect=True)
def test_the_replay_shows_an_npcs_stamina_roll_at_the_saga_setting(client, rested):
    table, characters, event = rested
    html = page(client, table.bob, "encounter_replay", table.encounter.pk, query=f"?seq={event.seq}")
    assert lines_in(html, characters) == expected(table.saga.npc_rolls)


@pytest.mark.parametrize("rested", NpcRolls.values, indirect=True)
def test_the_recap_shows_an_npcs_stamina_roll_at_the_saga_setting(client, rested):
    table, _, _ = rested
    text = page(client, table.alice, "saga_recap", table.saga.pk)
    (entry,) = [line for line in text.splitlines() if "Stamina roll" in line]
    for persona, shown in expected(table.saga.npc_rolls).items():
        name = {"boris": "Sir Boris", "bandit": "Bandit 1"}[persona]
        assert f"**{name}**: Winded → **Fresh** ({shown})" in entry


@pytest.mark.parametrize("rested", NpcRolls.values, indirect=True)
def test_history_json_gives_a_player_an_npcs_stamina_roll_at_the_saga_setting(client, rested):
    table, characters, _ = rested
    data = json.loads(page(client, table.alice, "saga_history_json", table.saga.pk))
    payload = time_passed(data["encounters"][0]["events"])
    assert keys_in(payload, characters) == expected_keys(table.saga.npc_rolls, characters)
    data = json.loads(page(client, table.storyguide, "saga_history_json", table.saga.pk))
    payload = time_passed(data["encounters"][0]["events"])
    assert keys_in(payload, characters) == expected_keys(NpcRolls.EVERYTHING, characters)


@pytest.mark.parametrize("rested", NpcRolls.values, indirect=True)
def test_archive_json_gives_a_player_an_npcs_stamina_roll_at_the_saga_setting(rested):
    table, characters, _ = rested
    payload = time_passed(archive_data(table.saga, table.bob)["encounters"][0]["events"])
    assert keys_in(payload, characters) == expected_keys(table.saga.npc_rolls, characters)


# --- time passing on the saga page: a saga record -------------------------------------------------------


@pytest.mark.parametrize("between", NpcRolls.values, indirect=True)
def test_the_history_page_shows_an_npcs_stamina_roll_between_encounters_at_the_saga_setting(client, between):
    table, characters, _ = between
    html = page(client, table.alice, "saga_history", table.saga.pk)
    assert lines_in(html, characters) == expected(table.saga.npc_rolls, characters)
    html = page(client, table.storyguide, "saga_history", table.saga.pk)
    assert lines_in(html, characters) == expected(NpcRolls.EVERYTHING, characters)


@pytest.mark.parametrize("between", NpcRolls.values, indirect=True)
def test_history_json_between_encounters_gives_a_player_an_npcs_stamina_roll_at_the_saga_setting(
    client, between
):
    table, characters, _ = between
    data = json.loads(page(client, table.alice, "saga_history_json", table.saga.pk))
    (record,) = data["between_encounters"]
    assert keys_in(record["payload"], characters) == expected_keys(table.saga.npc_rolls, characters)


@pytest.mark.parametrize("between", NpcRolls.values, indirect=True)
def test_archive_json_records_give_a_player_an_npcs_stamina_roll_at_the_saga_setting(between):
    table, characters, _ = between
    (record,) = archive_data(table.saga, table.bob)["records"]
    assert keys_in(record["payload"], characters) == expected_keys(table.saga.npc_rolls, characters)
    (record,) = archive_data(table.saga, table.storyguide)["records"]
    assert keys_in(record["payload"], characters) == expected_keys(NpcRolls.EVERYTHING, characters)
