"""A d6 saga's charts from its finished encounters' summaries are the charts a fold of the whole log
draws, for the storyguide and a player, with a fight still running beside them (d6 seed)."""

import pytest

from campaign.models import Character, NpcRolls
from combat.models import EncounterSummary, Event
from d6 import kinds, services
from d6.models import Fight
from tests.arsmagica.test_chart_summaries import next_encounter, same_as_the_fold

from .test_replay import play, seeded  # noqa: F401 (the fixture)

pytestmark = pytest.mark.django_db


def next_d6_encounter(table, name: str, sheets: dict) -> None:
    """The next encounter of the same four, its combatants where `play` looks for them."""
    by_name = next_encounter(table, name, sheets)
    table.marta, table.anselm = by_name["Marta"], by_name["Brother Anselm"]
    table.bandits = [by_name["Bandit 1"], by_name["Bandit 2"]]


def test_the_saga_charts_from_the_summaries_are_the_charts_of_the_whole_log(table, seeded, client):  # noqa: F811
    sheets = dict(Character.objects.filter(saga=table.saga).values_list("pk", "sheet"))
    play(table)
    next_d6_encounter(table, "The bridge", sheets)
    play(table)
    next_d6_encounter(table, "The tannery", sheets)
    sg, encounter_id = table.storyguide, table.encounter.pk
    services.start_fight(sg, encounter_id, table.v)
    fight = Fight.objects.get(encounter=table.encounter)
    first, second = fight.fighters.order_by("position")[:2]
    services.roll(
        sg, encounter_id, table.v, first.combatant_id, "attribute:strength", value=3,
        target_id=second.combatant_id,
    )  # fmt: skip
    assert Event.objects.filter(encounter=table.encounter, kind=kinds.ROLL).exists()
    assert EncounterSummary.objects.filter(reader="storyguide").count() == 2
    users = [table.storyguide, table.alice]
    same_as_the_fold(client, users, table.saga.pk)
    table.saga.npc_rolls = NpcRolls.TOTALS
    table.saga.save(update_fields=["npc_rolls"])
    same_as_the_fold(client, users, table.saga.pk)
