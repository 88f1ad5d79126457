"""The saga page's socket after an Ars Magica command: a correction of what the saga page does not show (a
carried advantage) pushes nothing there; one of a level does (the rest: tests/combat/test_saga_live.py)."""

import pytest
from channels.db import database_sync_to_async

from arsmagica import services
from tests.combat.test_saga_live import TIMEOUT, opened

from .conftest import Table

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def saga_table(db):
    return Table()


async def test_a_command_that_changes_nothing_on_the_saga_page_pushes_nothing_there(saga_table):
    """Issue 11: a correction of carried advantage is not on the saga page, so no saga frame is rendered or
    sent; a correction of a level is (the character tables show levels)."""
    alice, _ = await opened(saga_table.saga.pk, saga_table.alice)

    def correct(changes):
        services.correct(
            saga_table.storyguide, saga_table.encounter.pk, saga_table.v, saga_table.boris.pk, changes, "Why"
        )

    try:
        await database_sync_to_async(correct)({"body_level": "light_wounds"})
        assert "Light Wounds" in await alice.receive_from(timeout=TIMEOUT)
        await database_sync_to_async(correct)({"advantage_attack": 3})
        assert await alice.receive_nothing(timeout=0.3)
        await database_sync_to_async(correct)({"body_level": "unhurt"})
        assert "Light Wounds" not in await alice.receive_from(timeout=TIMEOUT)
    finally:
        await alice.disconnect()
