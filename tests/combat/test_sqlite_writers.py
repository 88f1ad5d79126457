"""Concurrent commands wait their turn, on SQLite (the embedded default: immediate transactions) as on
PostgreSQL (row locks): none is answered "database is locked", and a stale one is refused as stale."""

import threading

import pytest
from django.db import connection

from arsmagica import services
from combat.errors import StaleCommand
from combat.models import Encounter

from .conftest import Table

pytestmark = pytest.mark.django_db(transaction=True)
WRITERS = 12


def run_together(command, count=WRITERS) -> list:
    """Call `command` from `count` threads at once; what each returned or raised."""
    start = threading.Barrier(count)
    results: list = [None] * count

    def one(index):
        start.wait()
        try:
            results[index] = command(index)
        except Exception as error:  # noqa: BLE001 - the test inspects what each writer got
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=one, args=(index,)) for index in range(WRITERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


def test_concurrent_writers_on_sqlite_wait_their_turn():
    table = Table()
    saga_id, storyguide = table.saga.pk, table.storyguide
    results = run_together(lambda index: services.create_encounter(storyguide, saga_id, f"Ambush {index}"))
    assert [type(result).__name__ for result in results] == ["Encounter"] * WRITERS
    assert Encounter.objects.filter(name__startswith="Ambush ").count() == WRITERS


def test_the_same_click_twice_at_once_applies_once_and_the_rest_are_stale():
    table = Table()
    encounter_id, version = table.encounter.pk, table.v
    results = run_together(lambda _: services.open_declarations(table.storyguide, encounter_id, version))
    applied = [result for result in results if isinstance(result, Encounter)]
    assert len(applied) == 1 and all(
        isinstance(result, StaleCommand) for result in results if result not in applied
    )
    assert table.refresh().events.filter(kind="declarations_opened").count() == 1
