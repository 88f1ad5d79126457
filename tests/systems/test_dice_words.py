"""Dice lines a newcomer reads without help (issue 35, item 12): each roll says what was rolled in words,
botch dice say how many were rolled and what came of them, and the page, the sentence, the Markdown recap
and history.json say the same (ArM3 p163; RULES.md Part 1 "Dice" and Part 2)."""

import re

import pytest
from django.template import Context, Template
from django.urls import reverse

from arsmagica import presenters, sentences
from arsmagica import services as ars
from campaign.models import NpcRolls
from combat.archive.markdown import line
from d6 import presenters as d6_presenters
from d6 import sentences as d6_sentences
from tests.arsmagica.conftest import P168_FACES
from tests.personas import login


def stress(faces, botch_faces=(), value=None, botches=0) -> dict:
    """A stress roll's record as the log keeps it."""
    return {"faces": list(faces), "botch_faces": list(botch_faces), "value": value, "botches": botches}


def words(roll, total=None) -> str:
    """The roll's words on the page (the tag's HTML as the recap reads it) and in its sentence: the same."""
    template = "{% load arsmagica_tags %}" + ("{% rolled r t %}" if total is not None else "{% roll r %}")
    page = line(Template(template).render(Context({"r": roll, "t": total})))
    said = sentences.rolled(roll, total) if total is not None else sentences.stress(roll)
    assert page.replace("**", "") == said
    return said


@pytest.mark.parametrize(
    "roll, total, said",
    [
        (stress([7], value=7), 17, "stress die 7 +10 = 17"),
        (stress([7], value=7), 5, "stress die 7 -2 = 5"),
        (
            stress([1, 9], value=18),
            19,
            "stress die 1 (a 1 doubles and rolls again): 9 ×2 = 18, +1 = 19",
        ),
        (
            stress([1, 1, 3], value=12),
            20,
            "stress die 1, 1 (each 1 doubles and rolls again): 3 ×4 = 12, +8 = 20",
        ),
        (
            stress([1, 0], value=20),
            25,
            "stress die 1 (a 1 doubles and rolls again): 0 (as 10) ×2 = 20, +5 = 25",
        ),
    ],
)
def test_a_stress_die_says_how_it_counted(roll, total, said):
    assert words(roll, total) == said


@pytest.mark.parametrize(
    "botch_faces, botches, total, said",
    [
        ((), 0, 4, "stress die 0, no botch dice, so it cannot botch, +4 = 4"),
        ((3,), 0, 3, "stress die 0, 1 botch die (3): not a 0, no botch, +3 = 3"),
        ((0,), 1, -2, "stress die 0, 1 botch die (0): a 0, a botch; total -2"),
        ((3, 5, 7, 2), 0, 0, "stress die 0, 4 botch dice (3 5 7 2): none came up 0, no botch, +0 = 0"),
        ((0, 4), 1, 0, "stress die 0, 2 botch dice (0 4): one 0, a botch; total 0"),
        ((0, 0, 5), 2, 0, "stress die 0, 3 botch dice (0 0 5): two 0s, a double botch; total 0"),
        ((0, 0, 0, 1), 3, 0, "stress die 0, 4 botch dice (0 0 0 1): three 0s, a triple botch; total 0"),
    ],
)
def test_botch_dice_say_how_many_were_rolled_and_what_came_of_them(botch_faces, botches, total, said):
    assert words(stress([0], botch_faces, 0, botches), total) == said


def test_a_roll_not_shown_is_its_total_or_the_screens_words():
    assert sentences.rolled(None, 12) == "12" and sentences.rolled(None, None) == "behind the screen"
    assert words(None) == "" and presenters.botch_label(5) == "5 botches"


def test_a_botch_is_marked_and_each_botch_die_boxed():
    html = Template("{% load arsmagica_tags %}{% rolled r -2 %}").render(
        Context({"r": stress([0], [0, 4], 0, 1)})
    )
    assert '<span class="roll botched" data-testid="roll">' in html
    assert (
        '(<span class="die die-botch">0</span> <span class="joined"><span class="die">4</span>):</span>'
        in html
    )
    assert '<strong class="botch" data-testid="botch">a botch</strong>; total <b>-2</b>' in html


BOTCHED_INITIATIVE = {**P168_FACES, "boris": {**P168_FACES["boris"], "initiative": [0, 0]}}


def test_the_initiative_lines_say_the_die_what_is_added_and_the_total(client, table, scripted_dice):
    """Bandit 1's lucky 1 and Sir Boris's botched Initiative on the acting order, the log, the recap and
    history.json, in the same words."""
    scripted_dice(table, BOTCHED_INITIATIVE)
    ars.open_declarations(table.storyguide, table.encounter.pk, table.v)
    table.declare_p168()
    ars.close_declarations(table.storyguide, table.encounter.pk, table.v)
    login(client, table.storyguide)
    page = client.get(reverse("encounter_page", args=[table.encounter.pk])).content.decode()
    order = line("<section" + page.split('<section id="acting-order"')[1].split("</section>")[0])
    lucky = "**Bandit 1** stress die 1 (a 1 doubles and rolls again): 9 ×2 = 18, +5 = Initiative **23**"
    assert lucky in order
    assert "**Sir Boris** stress die 0, 1 botch die (0): a 0, **a botch** = Initiative **0**" in order
    recap = b"".join(client.get(reverse("saga_recap", args=[table.saga.pk])).streaming_content).decode()
    assert "**Sir Boris** stress die 0, 1 botch die (0): a 0, **a botch** = Initiative **0**" in recap
    assert "Bandit 3** stress die 8 +3 = Initiative **11**" in recap
    history = client.get(reverse("saga_history_json", args=[table.saga.pk])).json()
    said = [e["said"] for e in history["encounters"][0]["events"] if e["kind"] == "movement"][0]
    assert "Sir Boris, Initiative: stress die 0, 1 botch die (0): a 0, a botch; total 0." in said
    assert "Bandit 1, Initiative: stress die 1 (a 1 doubles and rolls again): 9 ×2 = 18, +5 = 23" in said


def test_a_players_history_json_says_an_npcs_roll_no_more_than_the_setting_shows(
    client, table, scripted_dice
):
    table.saga.npc_rolls = NpcRolls.RESULTS
    table.saga.save(update_fields=["npc_rolls"])
    scripted_dice(table, BOTCHED_INITIATIVE)
    ars.open_declarations(table.storyguide, table.encounter.pk, table.v)
    table.declare_p168()
    ars.close_declarations(table.storyguide, table.encounter.pk, table.v)
    login(client, table.alice)
    history = client.get(reverse("saga_history_json", args=[table.saga.pk])).json()
    said = [e["said"] for e in history["encounters"][0]["events"] if e["kind"] == "movement"][0]
    assert "Bandit 1, Initiative: behind the screen" in said and "stress die 1" not in said
    assert "Sir Boris, Initiative: stress die 0, 1 botch die (0)" in said  # his own


# --- d6: each die named, the score in words, how the die result was read (RULES.md Part 2) ---------------

CHALLENGE = {"name": "Marta", "rolled": "Dexterity", "consistency": 2, "physical": True, "value": 6}


@pytest.mark.parametrize(
    "consistency, faces, die_result, how",
    [
        (0, [4], 4, "the d6"),
        (2, [2, 7, 3], 7, "the highest die"),
        (2, [2, 10, 10], 11, "the highest die, +1 for the extra 10"),
        (3, [2, 10, 10, 10], 12, "the highest die, +2 for the extra 10s"),
        (-1, [5, 3], 3, "the lowest die"),
        (-2, [1, 1, 4], 0, "the lowest die, -1 for the extra 1"),
    ],
)
def test_a_d6_roll_names_its_dice_and_says_how_the_die_result_was_read(consistency, faces, die_result, how):
    roll = {**CHALLENGE, "consistency": consistency, "faces": faces, "die_result": die_result}
    roll |= {"result": die_result + 1, "potential": 1, "success": die_result + 1 >= 6}
    page = re.sub(r"<[^>]+>", "", str(d6_presenters.roll_line(roll)))
    dice = d6_presenters.dice_words(faces)
    assert f"Dexterity (Consistency {consistency}, Potential 1, physical)" in page
    assert f"→ die result {die_result} ({how}), +1 = result {die_result + 1} vs 6" in page
    said = d6_sentences.roll(roll)
    assert f"Dexterity (Consistency {consistency}, Potential 1, physical) {dice}: " in said
    assert f"die result {die_result} ({how}), +1 = result {die_result + 1} vs 6" in said


def test_what_a_terrain_rolls_reads_as_its_label():
    assert (
        d6_presenters.score_label("dexterity") == "Dexterity"
        and d6_presenters.score_label("Running") == "Running"
    )
    offered = {
        "target_name": "Wren",
        "chooser": "the target",
        "terrains": [{"name": "Rooftops", "rolled": "dexterity"}],
    }
    assert "Rooftops (Dexterity)" in str(d6_presenters.terrain_offered_line(offered))
    assert "Rooftops (Dexterity)" in d6_sentences.terrain_offered(offered)
    started = {"chasers": [], "target_name": "Wren", "terrain": {"name": "Market", "rolled": "stamina"}}
    assert "everyone rolls Stamina." in str(d6_presenters.chase_started_line(started))
    assert d6_presenters.roll_exchange_text(3, {"name": "Market", "rolled": "dexterity"}) == (
        "Roll exchange 3 (Dexterity on Market)"
    )
