"""What the d6 table shows on a small screen: runners told apart on the chase grid, the terrain choice
reading "Rooftops (Climbing)", the storyguide's offer as a list of checkboxes."""

import re

import pytest
from django.urls import reverse

from d6 import services
from d6.panels import shortcut_keys, token_label, token_labels

pytestmark = pytest.mark.django_db


def test_a_token_is_the_initials_of_the_names_capitalised_words():
    assert token_label("Watchman Hale") == "WH"
    assert token_label("Marta the Huntress") == "MH"
    assert token_label("Bandit 2") == "B2"
    assert token_label("Brother Anselm of Cluny") == "BAC"


def test_a_one_word_name_keeps_two_letters():
    assert token_label("Wren") == "Wr"
    assert token_label("wren") == "Wr"
    assert token_label("  ") == "?"


def test_runners_with_the_same_initials_get_numbers():
    assert token_labels(["Wren", "Watchman Hale", "Watchman Brock", "Walter Hart"]) == [
        "Wr",
        "WH1",
        "WB",
        "WH2",
    ]


def chase_page(client, user, table):
    client.force_login(user)
    return client.get(reverse("d6:table", args=[table.encounter.pk])).content.decode()


def start_chase(table):
    services.start_chase(
        table.storyguide,
        table.encounter.pk,
        table.v,
        table.marta.pk,
        [(table.bandits[0].pk, 2), (table.bandits[1].pk, 3)],
        [("Market streets", "Running"), ("The river", "Swimming")],
    )


def test_the_grid_tells_two_bandits_apart_and_names_each_token(client, table):
    start_chase(table)
    page = chase_page(client, table.bob, table)
    for bandit, label in zip(table.bandits, ("B1", "B2"), strict=True):
        token = re.search(rf'data-testid="grid-runner-{bandit.pk}".*?</g>', page, re.S).group(0)
        assert f"<title>{bandit.character.name}</title>" in token
        assert f">{label}</text>" in token
    target = re.search(rf'data-testid="grid-target-{table.bandits[0].pk}".*?</g>', page, re.S).group(0)
    assert "<title>Marta (the target)</title>" in target and ">Ma</text>" in target


def test_the_offered_terrain_reads_name_then_roll_for_the_player_and_the_storyguide(client, table):
    start_chase(table)
    page = chase_page(client, table.storyguide, table)
    offer_list = re.search(r'<fieldset class="offer-options">.*?</fieldset>', page, re.S)
    assert '<b>The river</b> <span class="muted">(Swimming)</span>' in offer_list.group(0)
    services.offer_terrain(table.storyguide, table.encounter.pk, table.v, [("The river", "Swimming")])
    page = chase_page(client, table.alice, table)
    button = re.search(r'data-testid="choose-terrain-0">(.*?)</button>', page, re.S).group(1)
    assert button == '<span>The river <span class="small">(Swimming)</span></span>'
    assert "offer-options" not in page  # the offer form is the storyguide's


def test_the_offer_list_is_left_out_when_the_route_has_no_other_terrain(client, table):
    services.start_chase(
        table.storyguide,
        table.encounter.pk,
        table.v,
        table.marta.pk,
        [(table.bandits[0].pk, 2)],
        [("Market streets", "Running")],
    )
    page = chase_page(client, table.storyguide, table)
    assert "offer-options" not in page and "A new terrain:" in page


def test_the_key_list_names_only_the_keys_of_the_buttons_shown():
    """S starts a fight only where its button is (before one, after a chase); a chase rolls its exchange."""
    assert shortcut_keys("") == [("S", "start the fight"), ("N", "next step")]
    assert shortcut_keys("chase") == [("R", "roll the exchange"), ("N", "next step")]
    assert ("S", "start the fight") not in shortcut_keys("fight")
    assert shortcut_keys("chase_over")[0] == ("S", "start the fight")
