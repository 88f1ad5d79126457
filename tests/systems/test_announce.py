"""Issue 32, item 4: a result's pop-up and read-out are sentences built from the event's fields (each rule
system's own `sentence`, `combat.sentences`), not the line's text run together: every kind the core and
each system declare (their registries, `event_kinds`), for the storyguide and for a player under "results
only", with an NPC's numbers left out of the player's."""

import html
import re
from types import SimpleNamespace

import pytest
from django.test import Client
from django.urls import reverse

from campaign.models import NpcRolls
from combat import sentences, systems
from combat.events import CORE_KINDS, check_payload
from combat.models import Event, SagaRecord
from tests.test_migrations import play_ars_magica_round, play_d6_fight_and_chase

pytestmark = pytest.mark.django_db

ITEM = re.compile(
    r'<li id="event-\d+" class="[^"]*" data-seq="\d+" data-kind="([^"]+)"(?: data-announce="([^"]*)")?'
)
RUN_TOGETHER = re.compile(
    r"[a-z)][A-Z]|\d[A-Za-z]{2}|[A-Za-z]{2}\d|\d{3}"
)  # "14Bandit", "screen)Sir", "Initiative14", three dice run together: "181"
STRESS = {"faces": [1, 9], "botch_faces": [], "value": 18, "botches": 0}
TEST = {
    "combatant": "7",
    "kind": "spell",
    "total": 4,
    "ease_factor": 9,
    "roll": {**STRESS, "faces": [4], "value": 4},
    "parts": [],
    "botch": False,
    "levels_lost": 1,
    "fatigue_level": "winded",
}
LEVELS = [{"combatant": "7", "fatigue_level": ["fresh", "winded"], "body_level": ["unhurt", "light_wounds"]}]
RESTED = {
    "character": 1,
    "name": "Sir Boris",
    "from": "winded",
    "to": "fresh",
    "steps": [],
    "rested_seconds": 60,
    "blocked_by_long_term": False,
}
# A payload of each kind the played sagas below do not write (each checked against its kind's type).
EXAMPLES = {
    "spell": {
        "phase": "magic",
        "caster": "7",
        "kind": "spontaneous",
        "spell": "Pilum of Fire",
        "casting_speed": 3,
        "casting_total": 23,
        "parts": [["Creo", 5]],
        "roll": STRESS,
        "fatigue_test": TEST,
    },
    "phase_undone": {"phase": "melee", "passed": ["magic"], "levels": LEVELS, "reason": "Wrong Soak"},
    "night_of_sleep": {"good_meal": True, "characters": [RESTED]},
    "time_passed": {
        "minutes": 30,
        "active": False,
        "characters": [
            {
                **RESTED,
                "character": 7,
                "name": "Bandit 1",
                "stamina": {
                    "face": 6,
                    "value": 6,
                    "stamina": 2,
                    "total": 8,
                    "ease_factor": 9,
                    "success": False,
                },
            }
        ],
    },
    "exertion": {
        "character": 1,
        "name": "Sir Boris",
        "what": "A day's march",
        "levels": 1,
        "from": "fresh",
        "to": "winded",
    },
    "d6_breather": {"combatant": "3", "name": "Marta", "fatigue_before": 4, "fatigue_after": 2, "round": 2},
    "d6_value_set": {"value": 8, "name": "Bandit 1", "defence": True},
    "d6_turn_ended": {
        "round": 1,
        "ended": "3",
        "ended_name": "Marta",
        "next": "4",
        "next_name": "Bandit 1",
        "new_round": True,
        "next_round": 2,
        "defence_lapsed": "Bandit 2",
    },
    "d6_chase_ended": {
        "chase": 1,
        "outcome": "caught",
        "target_name": "Marta",
        "caught_by_name": "Bandit 1",
        "acts_against_target": False,
        "moved_ahead": [],
        "exchanges": 3,
    },
    "d6_faces_in": {
        "chase": 1,
        "exchange": 2,
        "combatant": "4",
        "name": "Bandit 1",
        "rolled": "Running",
        "faces": [1, 8, 1],
    },
    "d6_pass_choice": {
        "chase": 1,
        "combatant": "4",
        "name": "Bandit 1",
        "target_name": "Marta",
        "move_ahead": True,
    },
    "combatant_removed": {"combatant": "7", "name": "Bandit 1"},
    "combatant_renamed": {"combatant": "7", "name": "Bandit the Bold", "was": "Bandit 1"},
    "reset_link_made": {"player": "alice"},
    "handed_over": {"character": 5, "combatant": "8", "name": "Sir Boris", "player": "bob", "was": "alice"},
    "seat_handed_over": {"by": "sg", "was": "sg", "to": "dora", "reason": "Dora runs the ambush"},
    "storyguide_made": {"by": "sg", "storyguide": "dora"},
    "storyguide_removed": {"by": "sg", "storyguide": "dora", "seats": ["Ambush", "The ford"]},
    "lead_passed": {"was": "sg", "to": "dora"},
    "coin_flip": {
        "turn": 1,
        "faces": {"1": "heads", "2": "tails"},
        "hits": {"1": 1, "2": 0},
        "names": {"1": "Ann", "2": "Bob"},
    },
    "coin_duel_won": {"winner": "1", "name": "Ann"},
}
NAMES = {"3": "Marta", "4": "Bandit 1", "7": "Bandit 1", "8": "Sir Boris"}


def announced(saga, user) -> list[tuple[str, str]]:
    """(kind, sentence) of each line in the saga's history, as `user` reads it."""
    client = Client()
    client.force_login(user)
    response = client.get(reverse("saga_history", args=[saga.pk]), {"per_page": 500})
    assert response.status_code == 200
    return [(kind, html.unescape(said)) for kind, said in ITEM.findall(response.content.decode())]


def played(table):
    """Every line of the played saga, as the storyguide and as a player read it under "results only"."""
    table.saga.npc_rolls = NpcRolls.RESULTS
    table.saga.save(update_fields=["npc_rolls"])
    return {
        "storyguide": announced(table.saga, table.storyguide),
        "player": announced(table.saga, table.alice),
    }


def written() -> dict[str, list[dict]]:
    """The payloads of each kind the played sagas wrote, events and saga records."""
    found: dict[str, list[dict]] = {}
    for row in [*Event.objects.all(), *SagaRecord.objects.all()]:
        found.setdefault(row.kind, []).append(row.payload)
    return found


def said_to_players(system, kind: str, payload: dict) -> str:
    """The kind's sentence as a player reads it under "results only", everyone an NPC (the most screened)."""
    row = SimpleNamespace(kind=kind, payload=payload)
    shown = system.log.players_payload(row, set(), set(), NpcRolls.RESULTS)
    shown = system.log.players_record(SimpleNamespace(kind=kind, payload=shown), set(), NpcRolls.RESULTS)
    return sentences.sentence(system, kind, shown, NAMES, storyguide=False)


def test_every_kind_of_every_system_has_a_sentence_from_its_fields(monkeypatch):
    play_ars_magica_round(monkeypatch)
    play_d6_fight_and_chase(monkeypatch)
    examples = written()
    for kind, payload in EXAMPLES.items():
        check_payload(systems.event_kind(kind), payload)
        examples.setdefault(kind, []).append(payload)
    for system in systems.all_systems():
        for kind in [*CORE_KINDS, *system.event_kinds]:
            assert examples.get(kind.name), f"{system.key}: no example of {kind.name}: add one to EXAMPLES"
            for payload in examples[kind.name]:
                for text in (
                    sentences.sentence(system, kind.name, payload, NAMES, storyguide=True),
                    said_to_players(system, kind.name, payload),
                ):
                    assert text, f"{system.key}: {kind.name} has no sentence"
                    assert not RUN_TOGETHER.search(text), f"{kind.name} runs words together: {text!r}"


def test_a_kind_a_system_does_not_say_has_no_sentence():
    system = systems.get("coinduel")
    assert sentences.sentence(system, "coin_unknown", {}, {}, storyguide=True) == ""


@pytest.mark.parametrize(
    "kind, storyguide_words, hidden",
    [
        (
            "spell",
            "casting total: stress die 1 (a 1 doubles and rolls again): 9 ×2 = 18, +5 = 23. "
            "Fatigue test: stress die 4 +0 = 4 vs ease factor 9: 1 Fatigue level lost.",
            "23",
        ),
        (
            "time_passed",
            "Bandit 1: Winded → fresh (Stamina roll: simple die 6 + Stamina 2 = 8 vs ease factor 9: no help)",
            "6 + Stamina 2",
        ),
        ("d6_faces_in", "Bandit 1 rolled Running for exchange 2: d6 1, d10s 8, 1.", "8, 1"),
    ],
)
def test_a_players_sentence_keeps_an_npcs_numbers_behind_the_screen(kind, storyguide_words, hidden):
    system = systems.get("d6fatigue" if kind.startswith("d6") else "arsmagica")
    mine = said_to_players(system, kind, EXAMPLES[kind])
    theirs = sentences.sentence(system, kind, EXAMPLES[kind], NAMES, storyguide=True)
    assert storyguide_words in theirs
    assert hidden not in mine and mine, mine


@pytest.mark.parametrize(
    "kind, words",
    [
        (
            "phase_undone",
            "Undone by the storyguide: Melee (and Magic, which passed empty) is taken back, to be "
            "confirmed again. Bandit 1: light wounds winded. “Wrong Soak”",
        ),
        ("night_of_sleep", "A night's sleep, after a good meal. Sir Boris: Winded → fresh."),
        ("exertion", "Sir Boris: A day's march, 1 Fatigue level lost to long-term exertion, Fresh → winded."),
        ("d6_chase_ended", "Caught! Marta is spent: Bandit 1 catches up."),
        ("d6_turn_ended", "Bandit 2 does not defend. End of Marta’s turn. Round 2 begins: Bandit 1 acts."),
        ("combatant_removed", "Bandit 1 leaves the fight."),
        ("combatant_renamed", "Bandit 1 is now called Bandit the Bold."),
        ("reset_link_made", "The storyguide made a one-time password link for alice."),
        ("handed_over", "Sir Boris is now played by bob."),
        ("seat_handed_over", "dora takes the storyguide's seat from sg: Dora runs the ambush"),
        ("storyguide_made", "sg makes dora one of the saga's storyguides."),
        ("storyguide_removed", "sg makes dora a player again; the seats of Ambush and The ford pass to sg."),
        ("lead_passed", "sg passes the saga's lead to dora."),
        ("coin_flip", "Ann flips heads, Bob flips tails."),
    ],
)
def test_each_kind_reads_as_its_sentence(kind, words):
    key = "d6fatigue" if kind.startswith("d6") else "coinduel" if kind.startswith("coin") else "arsmagica"
    assert sentences.sentence(systems.get(key), kind, EXAMPLES[kind], NAMES, storyguide=True) == words


@pytest.mark.parametrize("play", [play_ars_magica_round, play_d6_fight_and_chase])
def test_every_line_on_the_page_carries_its_sentence_for_its_audience(monkeypatch, play):
    lines = played(play(monkeypatch))
    for who, said in lines.items():
        assert said, who
        for kind, text in said:
            assert text, f"{who}: {kind} has no sentence"
            assert not RUN_TOGETHER.search(text), f"{who}: {kind} runs words together: {text!r}"


def test_an_acting_order_reads_one_combatant_at_a_time_and_a_players_keeps_npc_dice_out(monkeypatch):
    lines = played(play_ars_magica_round(monkeypatch))
    theirs = dict(lines["storyguide"])["movement"]
    mine = dict(lines["player"])["movement"]
    assert (
        "Bandit 1, Initiative: stress die 1 (a 1 doubles and rolls again): 9 ×2 = 18, +5 = 23; "
        "Sir Boris, Initiative: stress die 8 +12 = 20;"
    ) in theirs
    assert "stress die 1" not in mine and "Bandit 1, Initiative: behind the screen" in mine
    assert "Sir Boris, Initiative: stress die 8 +12 = 20" in mine


def test_d6_dice_are_numbers_of_their_own(monkeypatch):
    said = played(play_d6_fight_and_chase(monkeypatch))["storyguide"]
    rolls = [text for kind, text in said if kind == "d6_roll"]
    assert rolls and all(re.search(r"d6 \d, d10s? \d+(, \d+)*", text) for text in rolls), rolls
