"""A d6 saga's campaign pages on a phone: the fatigue and each ability carry their column's name
(tests/campaign/test_display.py)."""

from campaign.models import Character
from tests.campaign.test_display import cells


def test_a_d6_saga_page_labels_the_fatigue(d6_saga, player, as_player):
    Character.objects.create(saga=d6_saga, owner=player, name="Wren", sheet={"fatigue": 3})
    page = as_player.get(f"/sagas/{d6_saga.pk}/").content.decode()
    assert cells(page, "Wren") == [("Player", "alice"), ("Fatigue", "3")]


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
