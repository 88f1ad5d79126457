"""Concurrent commands wait their turn, on SQLite (the embedded default: immediate transactions) as on
PostgreSQL (row locks): none is answered "database is locked", and a stale one is refused as stale. On the
coin duel (tests/arsmagica/test_saga_time_at_once.py: a saga-time command, Ars Magica's night's sleep)."""

import pytest

from combat import services
from combat.errors import StaleCommand
from combat.models import Encounter
from combat.rules.dice import ScriptedDice
from tests.coinduel import KEY, rules
from tests.coinduel import services as coin
from tests.concurrency import run_together

from .conftest import Table

pytestmark = pytest.mark.django_db(transaction=True)
WRITERS = 12


def test_concurrent_writers_on_sqlite_wait_their_turn():
    table = Table()
    saga_id, storyguide = table.saga.pk, table.storyguide
    results = run_together(
        lambda index: services.create_encounter(storyguide, saga_id, f"Ambush {index}", KEY), WRITERS
    )
    assert [type(result).__name__ for result in results] == ["Encounter"] * WRITERS
    assert Encounter.objects.filter(name__startswith="Ambush ").count() == WRITERS


def test_the_same_click_twice_at_once_applies_once_and_the_rest_are_stale():
    table = Table()
    encounter_id, version = table.encounter.pk, table.v
    results = run_together(
        lambda _: coin.flip(table.storyguide, encounter_id, version, ScriptedDice([2, 1])), WRITERS
    )
    applied = [result for result in results if isinstance(result, rules.Duel)]
    assert len(applied) == 1 and all(
        isinstance(result, StaleCommand) for result in results if result not in applied
    )
    assert table.refresh().events.filter(kind="coin_flip").count() == 1
