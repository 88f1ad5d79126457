"""A finished encounter's story is kept for the saga's charts (combat.archive.summaries): the charts
drawn from the summaries are the charts a fold of the whole log draws, for the storyguide and a player,
and whatever changes what a summary was folded from (the log, the NPC-rolls setting, a delete and a
restore from the archive) has it folded again (ArM3 p163-p177)."""

import json
from collections import Counter
from unittest import mock

import pytest
from django.db import DatabaseError

from arsmagica import services
from arsmagica.events import Kind
from campaign.models import Character, NpcRolls, Saga
from campaign.services import rename_character
from combat import services as combat_services
from combat.archive import summaries
from combat.archive.charts import Story, saga_stories
from combat.archive.importer import import_saga
from combat.archive.reading import reader_for
from combat.archive.tagged import TaggedDecoder, tagged
from combat.models import EncounterSummary, Event
from combat.services.log import EventLog, lock_encounter

from .test_replay import play_a_fight, seeded  # noqa: F401 (the fixture)

pytestmark = pytest.mark.django_db


def charts_page(client, user, saga_id) -> str:
    """The saga's charts page as `user` sees it: its <main> (the page's head carries a new CSRF token)."""
    client.force_login(user)
    response = client.get(f"/sagas/{saga_id}/charts/")
    assert response.status_code == 200
    html = response.content.decode()
    return html[html.index("<main>") : html.index("</main>")]


def folded_page(client, user, saga_id) -> str:
    """The saga's charts page drawn from a fold of every event of the saga, no summary read."""
    with mock.patch.object(summaries, "saga_stories_kept", saga_stories):
        return charts_page(client, user, saga_id)


def same_as_the_fold(client, users, saga_id) -> None:
    """For each user: the page that writes the summaries it lacks, and the page that reads them, are
    the page of the whole log's fold."""
    for user in users:
        whole = folded_page(client, user, saga_id)
        assert charts_page(client, user, saga_id) == whole, user.username
        assert charts_page(client, user, saga_id) == whole, user.username


def next_encounter(table, name: str, sheets: dict) -> dict:
    """A new encounter of the saga's characters, each back as before the first fight: the player
    characters as the companions, the NPCs as the bandits; its combatants by name."""
    characters = list(Character.objects.filter(saga=table.saga).order_by("pk"))
    for character in characters:
        character.sheet = sheets[character.pk]
        character.save(update_fields=["sheet"])
    saga = table.saga
    table.encounter = combat_services.create_encounter(table.storyguide, saga.pk, name, saga.rule_system)
    for side, npc in (("Companions", False), ("Bandits", True)):
        chosen = [c.pk for c in characters if c.is_npc == npc]
        combat_services.add_combatants(table.storyguide, table.encounter.pk, table.v, chosen, side)
    return {c.character.name: c for c in table.refresh().combatants.select_related("character")}


def next_ars_encounter(table, name: str, sheets: dict) -> None:
    """The next encounter, its combatants where `play_a_fight` looks for them."""
    by_name = next_encounter(table, name, sheets)
    table.boris, table.anselm = by_name["Sir Boris"], by_name["Brother Anselm"]
    table.bandits = [by_name[f"Bandit {n}"] for n in (1, 2, 3)]


def a_saga_of_three(table):
    """Two fights played to their end, and a third still running in its first round's Melee."""
    sheets = dict(Character.objects.filter(saga=table.saga).values_list("pk", "sheet"))
    play_a_fight(table)
    first = table.encounter
    next_ars_encounter(table, "The mill", sheets)
    play_a_fight(table)
    next_ars_encounter(table, "The ford", sheets)
    sg, encounter_id = table.storyguide, table.encounter.pk
    services.open_declarations(sg, encounter_id, table.v)
    table.declare_p168()
    services.close_declarations(sg, encounter_id, table.v)
    services.preview_phase(sg, encounter_id, table.v, table.refresh().phase)
    services.confirm_phase(sg, encounter_id, table.v, table.refresh().phase)
    return first


def test_the_saga_charts_from_the_summaries_are_the_charts_of_the_whole_log(table, seeded, client):  # noqa: F811
    a_saga_of_three(table)
    assert table.refresh().status == "running"
    kept = EncounterSummary.objects.values_list("encounter__name", "reader")
    assert sorted(kept) == [("Forest road", "storyguide"), ("The mill", "storyguide")]  # the end wrote them
    same_as_the_fold(client, [table.storyguide, table.alice, table.bob], table.saga.pk)
    assert EncounterSummary.objects.filter(reader=f"player {table.alice.pk}").count() == 2  # not the ford's
    reader = reader_for(table.alice, table.saga.pk, sheets=False)
    kept, whole = summaries.saga_stories_kept(reader), saga_stories(reader)
    assert [pk for pk, _ in kept] == [pk for pk, _ in whole] and len(kept) == 3
    for (_, story), (_, folded) in zip(kept, whole, strict=True):
        story.marks = folded.marks = []  # the saga's charts draw no timeline: a summary keeps none
        assert story == folded


def test_a_correction_to_a_finished_encounter_is_in_its_charts(table, seeded, client):  # noqa: F811
    """The log of an ended encounter grows (as an import or a correction would make it): its summary,
    folded at the end, is folded again."""
    first = a_saga_of_three(table)
    same_as_the_fold(client, [table.storyguide, table.alice], table.saga.pk)
    before = folded_page(client, table.storyguide, table.saga.pk)
    with_corrections = Event.objects.filter(encounter=first, kind=Kind.CORRECTION)
    payload = {**with_corrections.last().payload, "reason": "Found dead in the ditch"}
    payload["changes"] = {"body_level": [payload["changes"]["body_level"][1], "dead"]}
    encounter = lock_encounter(first.pk, None, after_end=True)  # no command writes there: the log alone
    log = EventLog(encounter, table.storyguide)
    log.append(Kind.CORRECTION, payload)
    log.save()
    assert folded_page(client, table.storyguide, table.saga.pk) != before  # a bandit died after all
    same_as_the_fold(client, [table.storyguide, table.alice], table.saga.pk)
    seq = EncounterSummary.objects.get(encounter=first, reader="storyguide").inputs["seq"]
    assert seq == encounter.last_seq


def test_the_players_summaries_follow_the_npc_rolls_setting(table, seeded, client):  # noqa: F811
    a_saga_of_three(table)
    same_as_the_fold(client, [table.alice], table.saga.pk)
    table.saga.npc_rolls = NpcRolls.EVERYTHING
    table.saga.save(update_fields=["npc_rolls"])
    same_as_the_fold(client, [table.alice, table.storyguide], table.saga.pk)
    made = EncounterSummary.objects.filter(reader=f"player {table.alice.pk}").values_list("inputs", flat=True)
    assert {inputs["npc_rolls"] for inputs in made} == {NpcRolls.EVERYTHING}


def test_renames_archiving_and_deleting_keep_the_charts_those_of_the_log(table, seeded, client):  # noqa: F811
    first = a_saga_of_three(table)
    users = [table.storyguide, table.alice]
    same_as_the_fold(client, users, table.saga.pk)
    bandit = Character.objects.get(pk=table.bandit_characters[0].pk)
    rename_character(bandit, "Ragnar the Red", table.storyguide)  # logged in the ford, still running
    combat_services.rename_encounter(table.storyguide, first.pk, "The forest road, at dusk")
    combat_services.set_encounter_archived(table.storyguide, first.pk, True)
    same_as_the_fold(client, users, table.saga.pk)
    combat_services.set_encounter_archived(table.storyguide, first.pk, False)
    same_as_the_fold(client, users, table.saga.pk)
    assert "Ragnar the Red" in charts_page(client, table.storyguide, table.saga.pk)
    assert combat_services.delete_encounter(table.storyguide, first.pk, "The forest road, at dusk")
    assert not EncounterSummary.objects.filter(encounter_id=first.pk).exists()
    same_as_the_fold(client, users, table.saga.pk)


def test_a_saga_restored_from_its_archive_draws_the_charts_of_its_log(table, seeded, client):  # noqa: F811
    """Deleted and imported again: no summary outlives its encounter, and the imported
    encounters' summaries are folded by the first page that reads them."""
    from tests.archive.conftest import archive_of

    a_saga_of_three(table)
    users = [table.storyguide, table.alice]
    same_as_the_fold(client, users, table.saga.pk)
    pages = {user.pk: charts_page(client, user, table.saga.pk) for user in users}
    data, old = json.loads(archive_of(table.saga, table.storyguide)), table.saga.pk
    table.saga.delete()
    assert not EncounterSummary.objects.exists()
    saga = import_saga(data, storyguide=table.storyguide)
    Saga.objects.filter(pk=saga.pk).update(name=table.saga.name)  # the pages name it; its own says imported
    same_as_the_fold(client, users, saga.pk)
    again = {user.pk: charts_page(client, user, saga.pk) for user in users}
    assert again == {pk: page.replace(f"/sagas/{old}/", f"/sagas/{saga.pk}/") for pk, page in pages.items()}
    assert EncounterSummary.objects.filter(reader="storyguide").count() == 2


def test_a_summary_gives_back_the_story_it_keeps_each_part_of_its_type():
    story = Story(names={"3": "Sir Boris"}, rounds=[0, 1], steps=9, ended=True)
    story.levels = {0: {"3": {"fatigue": 0}}, 1: {"3": {"fatigue": 2, "body": 1}}}
    story.tally["3"].update(attacks=2, landed=1)
    story.fought, story.survivors = {"3", "4"}, {"3"}
    kept = summaries.restored(json.loads(json.dumps(summaries.stored(story)), cls=TaggedDecoder))
    assert kept == story and list(kept.levels) == [0, 1]
    assert isinstance(kept.tally["3"], Counter) and kept.tally["9"]["botches"] == 0
    odd = {(1, "a"): [frozenset({2}), {"__map__": 1}], "b": ()}
    assert json.loads(json.dumps(tagged(odd)), cls=TaggedDecoder) == odd
    assert summaries.restored(None) is None and summaries.stored(None) is None


def test_summaries_that_cannot_be_written_leave_the_page_as_the_fold_draws_it(table, seeded, client):  # noqa: F811
    """The first page that lacks a player's summaries writes them; if the database will not (the saga
    deleted meanwhile, the file busy), the page is still the fold's."""
    a_saga_of_three(table)
    whole = folded_page(client, table.alice, table.saga.pk)
    with mock.patch.object(summaries, "keep", side_effect=DatabaseError("database is locked")):
        assert charts_page(client, table.alice, table.saga.pk) == whole
    assert not EncounterSummary.objects.filter(reader=f"player {table.alice.pk}").exists()
    assert charts_page(client, table.alice, table.saga.pk) == whole
