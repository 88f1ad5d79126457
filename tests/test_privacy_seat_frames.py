"""A storyguide without an encounter's seat is sent its players' frames (issue 38, item 6), in both rule
systems: the saga's lead hands the seat to Dora, who plays no character, and joins the encounter's socket
again; when Dora runs the table, the lead's frame is the very bytes a player's is, and Dora's is the
storyguide's (her controls, the NPCs' numbers)."""

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model

from arsmagica import services as ars
from campaign import services as campaign_services
from campaign.models import Membership, NpcRolls
from combat import services
from combat.models import Encounter
from d6 import services as d6
from tests.arsmagica.conftest import Table
from tests.combat.test_consumer import TIMEOUT, joined
from tests.d6.conftest import D6Table

pytestmark = pytest.mark.django_db(transaction=True)


@database_sync_to_async
def seated(table_class):
    """The table, its seat handed by the lead to Dora, the saga at "results only"; the log's last seq."""
    table = table_class()
    dora = get_user_model().objects.create_user("dora")
    Membership.objects.create(saga=table.saga, user=dora, role=Membership.Role.PLAYER)
    campaign_services.make_storyguide(table.saga, dora, by=table.storyguide)
    table.saga.npc_rolls = NpcRolls.RESULTS
    table.saga.save()
    services.hand_over_seat(table.storyguide, table.encounter.pk, table.v, "dora", "Dora runs it")
    table.dora = dora
    return table, Encounter.objects.get(pk=table.encounter.pk).last_seq


@database_sync_to_async
def dora_runs(table) -> None:
    """Dora's command: Ars Magica's declarations opened, d6's fight started (the NPCs' dice rolled)."""
    if isinstance(table, D6Table):
        d6.start_fight(table.dora, table.encounter.pk, table.v)
    else:
        ars.open_declarations(table.dora, table.encounter.pk, table.v)


@pytest.mark.parametrize("table_class", [Table, D6Table], ids=["ars", "d6"])
async def test_the_lead_without_the_seat_is_sent_the_players_frame(table_class):
    table, last = await seated(table_class)
    lead, lead_replay = await joined(table.encounter.pk, table.storyguide, last)
    alice, alice_replay = await joined(table.encounter.pk, table.alice, last)
    dora, _ = await joined(table.encounter.pk, table.dora, last)
    try:
        await dora_runs(table)
        frames = {
            name: await comm.receive_from(timeout=TIMEOUT)
            for name, comm in (("lead", lead), ("alice", alice), ("dora", dora))
        }
        assert frames["lead"] == frames["alice"], "the lead without the seat is sent more than a player"
        assert frames["dora"] != frames["lead"], "the holder is sent the players' frame"
        assert lead_replay == alice_replay, "the lead's socket is replayed more than a player's"
    finally:
        for comm in (lead, alice, dora):
            await comm.disconnect()
