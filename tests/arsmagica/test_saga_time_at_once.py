"""A saga-time command (Ars Magica's night's sleep, ArM3 p177) sent twenty times at once with one key applies
once; the others are stale (the core's commands at once: tests/combat/test_sqlite_writers.py)."""

import pytest

from arsmagica import services
from campaign.sent_once import fresh_key
from combat.errors import StaleCommand
from combat.models import SagaRecord
from tests.concurrency import run_together

from .conftest import Table

pytestmark = pytest.mark.django_db(transaction=True)


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
