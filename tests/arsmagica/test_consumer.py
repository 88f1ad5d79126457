"""The encounter socket's two audiences on Ars Magica's table: an NPC's declaration reaches the storyguide's
screen, a player's only as "has declared" (the socket itself: tests/combat/test_consumer.py)."""

import pytest
from channels.db import database_sync_to_async

from arsmagica import services
from tests.combat.test_consumer import TIMEOUT, event_ids, joined, seq_range

from .conftest import Table

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def table_live(db):
    return Table()


@database_sync_to_async
def open_declarations(table):
    services.open_declarations(table.storyguide, table.encounter.pk, table.v)


async def test_players_do_not_see_npc_declarations_nor_the_storyguide_panel(table_live):
    await open_declarations(table_live)
    sg, _ = await joined(table_live.encounter.pk, table_live.storyguide, 7)
    alice, frame = await joined(table_live.encounter.pk, table_live.alice, 7)
    try:
        assert 'id="sg-controls"' not in frame
        bandit = table_live.bandits[0]
        weapon = await database_sync_to_async(table_live.weapon)(bandit)
        await database_sync_to_async(services.declare)(
            table_live.storyguide,
            table_live.encounter.pk,
            bandit.pk,
            {"action": "attack", "weapon_id": weapon, "engage": [table_live.boris.pk]},
        )
        sg_frame = await sg.receive_from(timeout=TIMEOUT)
        player_frame = await alice.receive_from(timeout=TIMEOUT)
        assert event_ids(sg_frame) == [8] and "Bandit 1</b> has declared" in sg_frame
        assert event_ids(player_frame) == [] and seq_range(player_frame) == (8, 8)
        assert f'data-testid="declared-{bandit.pk}" class="done"' in player_frame
    finally:
        await sg.disconnect()
        await alice.disconnect()
