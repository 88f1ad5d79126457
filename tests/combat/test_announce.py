"""Issue 32, item 4: a result's pop-up and read-out are sentences built on the server from the line its
audience sees (`combat.announce`), not the line's text run together; for every event kind the played
sagas write, for the storyguide and for a player under "results only"."""

import html
import re

import pytest
from django.test import Client
from django.urls import reverse

from campaign.models import NpcRolls
from combat import systems
from combat.announce import sentence
from combat.events import CORE_KINDS
from tests.test_migrations import play_ars_magica_round, play_d6_fight_and_chase

pytestmark = pytest.mark.django_db

ITEM = re.compile(
    r'<li id="event-\d+" class="[^"]*" data-seq="\d+" data-kind="([^"]+)"(?: data-announce="([^"]*)")?'
)
RUN_TOGETHER = re.compile(
    r"[a-z)][A-Z]|\d[A-Za-z]{2}|[A-Za-z]{2}\d"
)  # "14Bandit", "screen)Sir", "Initiative14"
# Kinds that these played sagas do not write: a test of their own sentence is below.
NOT_PLAYED = {"reset_link_made", "combatant_removed", "combatant_renamed"}


def announced(saga, user) -> list[tuple[str, str]]:
    """(kind, sentence) of each line in the saga's history, as `user` reads it."""
    client = Client()
    client.force_login(user)
    response = client.get(reverse("saga_history", args=[saga.pk]), {"per_page": 500})
    assert response.status_code == 200
    return [(kind, html.unescape(said)) for kind, said in ITEM.findall(response.content.decode())]


def played(table, system_key):
    """Every line of the played saga, as the storyguide and as a player read it under "results only"."""
    table.saga.npc_rolls = NpcRolls.RESULTS
    table.saga.save(update_fields=["npc_rolls"])
    return {
        "storyguide": announced(table.saga, table.storyguide),
        "player": announced(table.saga, table.alice),
    }


def kinds_of(saga) -> set[str]:
    return {kind.name for kind in systems.of(saga).event_kinds} | {kind.name for kind in CORE_KINDS}


@pytest.mark.parametrize(
    "system_key, play", [("arsmagica", play_ars_magica_round), ("d6", play_d6_fight_and_chase)]
)
def test_every_kind_a_system_writes_has_a_sentence_with_its_words_apart(monkeypatch, system_key, play):
    table = play(monkeypatch)
    lines = played(table, system_key)
    for who, said in lines.items():
        for kind, text in said:
            assert text, f"{who}: {kind} has no sentence"
            assert not RUN_TOGETHER.search(text), f"{who}: {kind} runs words together: {text!r}"
            assert "Round " not in text.split(":")[0] or kind in {"declarations_opened", "round_ended"}, text
    written = {kind for kind, _ in lines["storyguide"]}
    assert kinds_of(table.saga) - written <= NOT_PLAYED | set(_sg_unseen(system_key)), (
        f"kinds without a played line: {sorted(kinds_of(table.saga) - written - NOT_PLAYED)}"
    )


def _sg_unseen(system_key):
    """Kinds these two played sagas leave out: tests/d6table/test_announce_kinds.py plays the d6 fight's and
    chase's others; the rest (an Ars Magica spell, exertion, time passing, an undone phase; a d6 chase's end)
    are read by the same `sentence` as every line, checked on its own below."""
    return {
        "arsmagica": {"exertion", "night_of_sleep", "phase_undone", "spell", "time_passed"},
        "d6": {
            "d6_breather",
            "d6_value_set",
            "d6_turn_ended",
            "encounter_ended",
            "d6_faces_in",
            "d6_pass_choice",
            "d6_chase_ended",
        },
    }[system_key]


def test_an_acting_order_reads_one_combatant_at_a_time(monkeypatch):
    said = dict(played(play_ars_magica_round(monkeypatch), "arsmagica")["storyguide"])
    assert "Bandit 1: 1 → 9 = 18, Initiative 23; Sir Boris: 8 = 8, Initiative 20;" in said["movement"]


def test_a_players_sentence_keeps_an_npcs_dice_behind_the_screen(monkeypatch):
    lines = played(play_ars_magica_round(monkeypatch), "arsmagica")
    mine = [text for kind, text in lines["player"] if kind == "movement"][0]
    theirs = [text for kind, text in lines["storyguide"] if kind == "movement"][0]
    assert "1 → 9 = 18" in theirs and "1 → 9" not in mine and "Sir Boris: 8 = 8" in mine


def test_d6_dice_are_numbers_of_their_own(monkeypatch):
    said = played(play_d6_fight_and_chase(monkeypatch), "d6")["storyguide"]
    rolls = [text for kind, text in said if kind == "d6_roll"]
    assert rolls and all(re.search(r"\d, \d", text) for text in rolls), rolls


@pytest.mark.parametrize(
    "line, words",
    [
        (
            '<span class="seq">Round 1 · Melee</span> <b>Wren</b> '
            '<span class="d6-faces"><span class="die d6">1</span>'
            '<span class="die d6">8</span><span class="die d6">1</span></span> = 8',
            "Wren 1, 8, 1 = 8",
        ),
        (
            '<ol class="order"><li><span class="order-who"><b>Bandit 1</b> '
            '<span class="roll">behind the screen</span></span>'
            '<span class="initiative">Initiative <b>14</b></span>'
            '</li><li><span class="order-who"><b>Sir Boris</b></span>'
            "</li></ol>",
            "Bandit 1: behind the screen, Initiative 14; Sir Boris",
        ),
        (
            "<p>Round 2 is over.</p><ul><li>Wren rests</li><li>Tobias rests</li></ul>",
            "Round 2 is over. Wren rests; Tobias rests",
        ),
        ('<span class="visually-hidden">hidden</span>Shown <script>x()</script>', "Shown"),
    ],
)
def test_a_line_read_as_a_sentence(line, words):
    assert sentence(line) == words
