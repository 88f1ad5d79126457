"""The record names each combatant as the encounter's log named it (combat.names), on the coin duel: a
character renamed mid-duel is logged in the open encounter, its earlier lines keep the old name and the
later ones the new, in the history, history.json, the recap and the print view, for the storyguide and a
player; once the encounter is over a rename leaves its record alone (Ars Magica's attacks and charts:
tests/arsmagica/test_record_names.py)."""

import pytest
from django.urls import reverse

from campaign.services import rename_character
from combat import services

from .conftest import HEADS, TAILS

pytestmark = pytest.mark.django_db


def views(client, table, user) -> dict[str, str]:
    """Every view of the record, as `user` reads it."""
    client.force_login(user)
    saga, encounter = table.saga.pk, table.encounter.pk
    return {
        "history": client.get(reverse("saga_history", args=[saga])).content.decode(),
        "recap": client.get(reverse("saga_recap", args=[saga])).getvalue().decode(),
        "record": client.get(reverse("encounter_record", args=[encounter])).content.decode(),
    }


@pytest.mark.parametrize("persona", ["storyguide", "alice"])
def test_a_rename_mid_duel_is_logged_and_each_line_keeps_the_name_it_was_written_with(client, table, persona):
    table.flip(HEADS, TAILS)
    rename_character(table.bruno_character, "Brutus", table.storyguide)
    renamed = table.refresh().events.order_by("-seq").first()
    assert (renamed.kind, renamed.payload["was"], renamed.payload["name"]) == (
        "combatant_renamed",
        "Bruno",
        "Brutus",
    )
    table.flip(TAILS, HEADS)
    for view, text in views(client, table, getattr(table, persona)).items():
        assert "Bruno flips tails" in text and "Brutus flips heads" in text, view
        assert "Bruno</b> is now called <b>Brutus" in text or "**Bruno** is now called **Brutus**" in text, (
            view
        )
    data = client.get(reverse("saga_history_json", args=[table.saga.pk])).json()
    listed = {c["id"]: c["name"] for c in data["encounters"][0]["combatants"]}
    assert listed[table.bruno.pk] == "Brutus" and listed[table.ada.pk] == "Ada"


def test_after_the_encounter_ends_a_rename_leaves_its_record_alone(client, table):
    table.flip(HEADS, TAILS)
    services.end_encounter(table.storyguide, table.encounter.pk, table.v)
    logged = table.refresh().last_seq
    rename_character(table.bruno_character, "Brutus", table.storyguide)
    assert table.refresh().last_seq == logged
    for view, text in views(client, table, table.alice).items():
        assert "Bruno flips tails" in text and "Brutus" not in text, view
