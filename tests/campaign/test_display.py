"""What the campaign pages give a phone: tables whose rows become labelled cards (.stacks, each cell
carrying its column's name), saga cards that name who runs the saga."""

import re

from campaign.models import Character


def cells(page, name):
    """The cells of the table row whose first cell holds `name`."""
    row = re.search(rf"<tr>\s*<td class=\"row-title\">(?:<a [^>]*>)?{name}.*?</tr>", page, re.S).group(0)
    return re.findall(r'<td data-label="([^"]+)">([^<]*)</td>', row)


def test_the_saga_page_labels_each_characters_cells_for_the_phone_layout(saga, boris, bandit, as_storyguide):
    page = as_storyguide.get(f"/sagas/{saga.pk}/").content.decode()
    assert page.count('class="table-scroll stacks"') == 2  # player characters and NPCs
    assert cells(page, "Sir Boris") == [
        ("Player", "alice"),
        ("Fatigue level", "Fresh"),
        ("Body level", "Unhurt"),
    ]
    assert cells(page, "Bandit") == [("Fatigue level", "Fresh"), ("Body level", "Unhurt")]


def test_a_d6_saga_page_labels_the_fatigue(d6_saga, player, as_player):
    Character.objects.create(saga=d6_saga, owner=player, name="Wren", sheet={"fatigue": 3})
    page = as_player.get(f"/sagas/{d6_saga.pk}/").content.decode()
    assert cells(page, "Wren") == [("Player", "alice"), ("Fatigue", "3")]


def test_the_weapons_on_a_sheet_carry_their_column_names(boris, as_player):
    page = as_player.get(f"/characters/{boris.pk}/").content.decode()
    assert '<div class="table-scroll stacks">' in page
    assert cells(page, "Long sword") == [
        ("Initiative", "6"),
        ("Attack", "8"),
        ("Defense", "5"),
        ("Damage", "9"),
        ("Range", "Reach"),
        ("Missile", "—"),
    ]


def test_a_d6_sheets_abilities_carry_their_column_names(d6_saga, player, as_player):
    wren = Character.objects.create(
        saga=d6_saga,
        owner=player,
        name="Wren",
        sheet={
            "abilities": [{"name": "Running", "attribute": "stamina", "consistency": 1, "physical": True}]
        },
    )
    page = as_player.get(f"/characters/{wren.pk}/").content.decode()
    assert cells(page, "Running") == [("Attribute", "Stamina"), ("Consistency", "1"), ("Physical", "yes")]


def test_my_sagas_says_who_runs_each_saga_and_links_the_whole_card(saga, as_player):
    page = as_player.get("/sagas/").content.decode()
    assert "run by sg" in page
    assert f'<a class="stretched" href="/sagas/{saga.pk}/">Sir Boris and the bandits</a>' in page
