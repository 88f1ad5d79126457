"""Between the storyguide's Roll and Confirm, the players read "The storyguide is rolling Melee…" and whose
rolls these are (ArM3 p163): an NPC's dice only where the saga's NPC-rolls setting shows them, no total at
all. It is pushed with the preview, goes with the confirmation or the end of the encounter, and a reload
shows it."""

import re
from unittest.mock import patch

import pytest
from channels.layers import get_channel_layer
from django.test import Client
from django.urls import reverse

from arsmagica import services
from campaign.models import NpcRolls
from combat.audience import PLAYERS, STORYGUIDE
from combat.live import FRAME_TYPE
from combat.services.setup import end_encounter

from .conftest import P168_FACES

pytestmark = pytest.mark.django_db

NOTICE = re.compile(r'<p class="rolling" data-testid="rolling-notice">.*?</p>', re.S)
ROLL = re.compile(
    r'<span\s+class="rolling-roll" data-testid="rolling-roll">(.*?)</span>(?=<span\s+class="rolling|</p>)',
    re.S,
)


def _async(function):
    async def call(*args, **kwargs):
        return function(*args, **kwargs)

    return call


def frames(table, command, capture) -> dict[str, str]:
    """The frame each audience receives for `command()`, by audience."""
    sent = {}

    def group_send(group, message):
        if message["type"] == FRAME_TYPE:
            sent[group.rsplit("-", 1)[1]] = message["html"]

    with patch.object(get_channel_layer(), "group_send", side_effect=_async(group_send)):
        with capture(execute=True):
            command()
    return sent


def notice(html: str) -> str:
    """The rolling notice in a page or frame, "" when there is none."""
    found = NOTICE.search(html)
    return found.group(0) if found else ""


def rolls(html: str) -> dict[str, str]:
    """Each roll the notice names, as "Sir Boris attacks Bandit 1" → its dice as drawn (or "")."""
    shown = {}
    for row in ROLL.findall(notice(html)):
        words, _, dice = row.partition(":")
        faces = re.findall(r'class="die(?: die-again)?">(\d+)<', dice)
        shown[" ".join(re.sub(r"<[^>]+>", "", words).split())] = " ".join(faces)
    return shown


@pytest.fixture
def at_melee(table, scripted_dice):
    """Round one of p168, declarations closed: First Missile passed by itself, Melee waits to be rolled."""

    def at(npc_rolls):
        table.saga.npc_rolls = npc_rolls
        table.saga.save(update_fields=["npc_rolls"])
        scripted_dice(table, P168_FACES)
        services.open_declarations(table.storyguide, table.encounter.pk, table.v)
        table.declare_p168()
        services.close_declarations(table.storyguide, table.encounter.pk, table.v)
        assert table.refresh().phase == "melee"
        return table

    return at


def preview(table):
    return lambda: services.preview_phase(table.storyguide, table.encounter.pk, table.v, "melee")


def test_the_players_frame_says_the_storyguide_is_rolling_and_the_storyguides_does_not(
    at_melee, django_capture_on_commit_callbacks
):
    table = at_melee(NpcRolls.EVERYTHING)
    sent = frames(table, preview(table), django_capture_on_commit_callbacks)
    assert "The storyguide is rolling Melee…" in notice(sent[PLAYERS])
    assert rolls(sent[PLAYERS]) == {
        "Sir Boris attacks Bandit 1": "7",
        "Sir Boris attacks Bandit 2": "7",
        "Sir Boris attacks Bandit 3": "7",
        "Bandit 1 attacks Sir Boris": "3",
        "Bandit 2 attacks Sir Boris": "4",
    }
    assert "total" not in notice(sent[PLAYERS]).lower()  # the options may still change them
    assert notice(sent[STORYGUIDE]) == ""  # the storyguide has the preview itself
    assert "check before confirming" in sent[STORYGUIDE]


@pytest.mark.parametrize("npc_rolls", [NpcRolls.RESULTS, NpcRolls.TOTALS])
def test_behind_the_screen_the_notice_names_an_npcs_roll_without_its_dice(
    at_melee, django_capture_on_commit_callbacks, npc_rolls
):
    table = at_melee(npc_rolls)
    sent = frames(table, preview(table), django_capture_on_commit_callbacks)
    assert rolls(sent[PLAYERS]) == {
        "Sir Boris attacks Bandit 1": "7",  # a player character's roll is everyone's
        "Sir Boris attacks Bandit 2": "7",
        "Sir Boris attacks Bandit 3": "7",
        "Bandit 1 attacks Sir Boris (behind the screen)": "",
        "Bandit 2 attacks Sir Boris (behind the screen)": "",
    }


def test_the_notice_goes_with_the_confirmation_comes_back_with_an_undo_and_goes_with_the_end(
    at_melee, django_capture_on_commit_callbacks
):
    table = at_melee(NpcRolls.RESULTS)
    frames(table, preview(table), django_capture_on_commit_callbacks)

    def confirm():
        services.confirm_phase(table.storyguide, table.encounter.pk, table.v, "melee")

    assert notice(frames(table, confirm, django_capture_on_commit_callbacks)[PLAYERS]) == ""

    def undo():
        services.undo_phase(table.storyguide, table.encounter.pk, table.v, "Wrong bandit")

    back = frames(table, undo, django_capture_on_commit_callbacks)[PLAYERS]
    assert "The storyguide is rolling Melee…" in notice(back)  # Melee's dice, to check again

    def end():
        end_encounter(table.storyguide, table.encounter.pk, table.v)

    assert notice(frames(table, end, django_capture_on_commit_callbacks)[PLAYERS]) == ""


def test_a_players_page_reloaded_while_the_storyguide_rolls_shows_the_notice(at_melee):
    table = at_melee(NpcRolls.RESULTS)
    client = Client()
    client.force_login(table.alice)
    page = reverse("arsmagica:play", args=[table.encounter.pk])
    assert notice(client.get(page).content.decode()) == ""
    preview(table)()
    assert rolls(client.get(page).content.decode())["Bandit 1 attacks Sir Boris (behind the screen)"] == ""
    assert "The storyguide is rolling Melee…" in notice(client.get(page).content.decode())
    client.force_login(table.storyguide)
    assert notice(client.get(reverse("encounter_page", args=[table.encounter.pk])).content.decode()) == ""
