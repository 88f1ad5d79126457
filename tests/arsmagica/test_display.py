"""An Ars Magica saga's campaign pages on a phone: each character's cells (its levels) and each weapon's carry
their column's name (tests/campaign/test_display.py)."""

from tests.campaign.test_display import cells


def test_the_saga_page_labels_each_characters_cells_for_the_phone_layout(saga, boris, bandit, as_storyguide):
    page = as_storyguide.get(f"/sagas/{saga.pk}/").content.decode()
    assert page.count('class="table-scroll stacks"') == 2  # player characters and NPCs
    assert cells(page, "Sir Boris") == [
        ("Player", "alice"),
        ("Fatigue level", "Fresh"),
        ("Body level", "Unhurt"),
    ]
    assert cells(page, "Bandit") == [("Fatigue level", "Fresh"), ("Body level", "Unhurt")]


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
