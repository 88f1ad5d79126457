"""Concurrent commands wait their turn, on SQLite (the embedded default: immediate transactions) as on
PostgreSQL (row locks): none is answered "database is locked", and a stale one is refused as stale."""

import pytest

from arsmagica import services
from campaign.sent_once import fresh_key
from combat.errors import StaleCommand
from combat.models import Encounter, SagaRecord
from tests.concurrency import run_together

from .conftest import Table

pytestmark = pytest.mark.django_db(transaction=True)
WRITERS = 12


def test_concurrent_writers_on_sqlite_wait_their_turn():
    table = Table()
    saga_id, storyguide = table.saga.pk, table.storyguide
    results = run_together(
        lambda index: services.create_encounter(storyguide, saga_id, f"Ambush {index}"), WRITERS
    )
    assert [type(result).__name__ for result in results] == ["Encounter"] * WRITERS
    assert Encounter.objects.filter(name__startswith="Ambush ").count() == WRITERS


def test_the_same_click_twice_at_once_applies_once_and_the_rest_are_stale():
    table = Table()
    encounter_id, version = table.encounter.pk, table.v
    results = run_together(
        lambda _: services.open_declarations(table.storyguide, encounter_id, version), WRITERS
    )
    applied = [result for result in results if isinstance(result, Encounter)]
    assert len(applied) == 1 and all(
        isinstance(result, StaleCommand) for result in results if result not in applied
    )
    assert table.refresh().events.filter(kind="declarations_opened").count() == 1


def test_twenty_identical_saga_time_commands_at_once_apply_once():
    table = Table()
    services.end_encounter(table.storyguide, table.encounter.pk, table.v)
    command_key = fresh_key()
    results = run_together(
        lambda _: services.sleep_night(
            table.storyguide,
            saga_id=table.saga.pk,
            character_ids=[table.boris_character.pk],
            command_key=command_key,
        ),
        count=20,
    )
    assert sum(isinstance(result, SagaRecord) for result in results) == 1
    assert all(isinstance(result, StaleCommand) for result in results if not isinstance(result, SagaRecord))
    assert SagaRecord.objects.filter(saga=table.saga).count() == 1
