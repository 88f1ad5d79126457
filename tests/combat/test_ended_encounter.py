"""An ended encounter takes no command but the archive's, on the coin duel: the core's set-up commands, the
end itself and the duel's flip are refused and write nothing; its closing line counts the turns played, in
old logs too; the archive still renames, archives, restores and deletes it (Ars Magica's round and pages:
tests/arsmagica/test_ended_encounter.py)."""

import pytest
from django.test import Client
from django.urls import reverse

from campaign.models import Character
from combat import services
from combat.errors import WrongPhase
from combat.models import Encounter, Event
from combat.rules.dice import ScriptedDice
from combat.services import setup
from tests.coinduel import services as coin
from tests.personas import login

pytestmark = pytest.mark.django_db


def refused_and_nothing_written(table, command) -> None:
    encounter = table.refresh()
    before = (encounter.version, encounter.last_seq, Event.objects.count())
    with pytest.raises(WrongPhase, match="This encounter is over."):
        command()
    encounter = table.refresh()
    assert (encounter.version, encounter.last_seq, Event.objects.count()) == before


def test_the_closing_line_counts_the_turns_played(client, table):
    table.flip()
    table.flip()
    services.end_encounter(table.storyguide, table.encounter.pk, table.v)
    assert table.refresh().events.get(kind="encounter_ended").payload == {"rounds": 2}
    page = login(client, table.storyguide).get(reverse("saga_history", args=[table.saga.pk]))
    assert "<b>The encounter is over</b> after 2 rounds." in page.content.decode()


def test_an_old_closing_line_still_reads(table):
    """A log written before the count changed keeps its payload and its words."""
    services.end_encounter(table.storyguide, table.encounter.pk, table.v)
    Event.objects.filter(kind="encounter_ended").update(payload={"rounds": 4})
    page = login(Client(), table.storyguide).get(reverse("saga_history", args=[table.saga.pk]))
    assert "<b>The encounter is over</b> after 4 rounds." in page.content.decode()


def test_after_the_end_every_command_is_refused_and_writes_nothing(table):
    table.flip()
    services.end_encounter(table.storyguide, table.encounter.pk, table.v)
    sg, pk, v = table.storyguide, table.encounter.pk, table.v
    carl = Character.objects.create(saga=table.saga, name="Carl", is_npc=True)
    commands = [
        lambda: coin.flip(sg, pk, v, ScriptedDice([2, 1])),
        lambda: services.add_combatants(sg, pk, v, [carl.pk], "Duellists"),
        lambda: services.remove_combatant(sg, pk, v, table.bruno.pk),
        lambda: services.end_encounter(sg, pk, v),
    ]
    for command in commands:
        refused_and_nothing_written(table, command)
    assert (
        list(table.refresh().events.order_by("seq").values_list("kind", flat=True))[-1] == "encounter_ended"
    )


def test_the_archive_still_renames_archives_restores_and_deletes_an_ended_encounter(table):
    sg, pk = table.storyguide, table.encounter.pk
    services.end_encounter(sg, pk, table.v)
    setup.rename_encounter(sg, pk, "The duel, remembered")
    setup.set_encounter_archived(sg, pk, True)
    assert table.refresh().archived_at is not None
    setup.set_encounter_archived(sg, pk, False)
    encounter = table.refresh()
    assert encounter.name == "The duel, remembered" and encounter.archived_at is None
    assert setup.delete_encounter(sg, pk, encounter.name)
    assert not Encounter.objects.filter(pk=pk).exists()
