"""A chase exchange reaches a connected player's screen through the websocket, live."""

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from combat.routing import websocket_urlpatterns
from d6 import services

from .conftest import D6Table


@database_sync_to_async
def setup(dice):
    table = D6Table()
    services.start_chase(
        table.storyguide,
        table.encounter.pk,
        table.v,
        table.marta.pk,
        [(table.bandits[0].pk, 2)],
        [("Market streets", "Running")],
    )
    dice(4, 6, 5, 0)
    return table


@database_sync_to_async
def exchange(table):
    return services.exchange(table.storyguide, table.encounter.pk, table.v)


async def connect(table, user):
    communicator = WebsocketCommunicator(
        URLRouter(websocket_urlpatterns), f"/ws/encounters/{table.encounter.pk}/"
    )
    communicator.scope["user"] = user
    connected, _ = await communicator.connect()
    assert connected
    await communicator.send_json_to({"type": "resume", "last_seq": 0})
    replay = await communicator.receive_from(timeout=5)
    assert 'data-replay="1"' in replay
    return communicator, replay


@pytest.mark.django_db(transaction=True)
async def test_a_chase_exchange_is_pushed_to_a_connected_player(dice):
    table = await setup(dice)
    player, replay = await connect(table, table.alice)
    storyguide, sg_replay = await connect(table, table.storyguide)
    try:
        assert 'data-testid="chase-grid"' in replay
        assert 'data-testid="d6-controls"' not in replay
        assert 'data-testid="d6-controls"' in sg_replay
        await exchange(table)
        frame = await player.receive_from(timeout=5)
        assert 'data-kind="d6_exchange"' in frame
        assert "Exchange 1" in frame
        assert f'data-testid="grid-runner-{table.bandits[0].pk}" data-distance="1"' in frame
        assert 'data-testid="d6-controls"' not in frame  # players get the players' frame
        sg_frame = await storyguide.receive_from(timeout=5)
        assert 'data-testid="d6-controls"' in sg_frame
    finally:
        await player.disconnect()
        await storyguide.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_an_outsider_is_turned_away(dice):
    table = await setup(dice)
    communicator = WebsocketCommunicator(
        URLRouter(websocket_urlpatterns), f"/ws/encounters/{table.encounter.pk}/"
    )
    communicator.scope["user"] = table.outsider
    connected, _ = await communicator.connect()
    try:
        assert connected
        message = await communicator.receive_json_from(timeout=5)
        assert "not in this saga" in message["error"]
        output = await communicator.receive_output(timeout=5)
        assert output == {"type": "websocket.close", "code": 4403}
    finally:
        await communicator.disconnect()


@database_sync_to_async
def fight_at_martas_turn(dice):
    from .test_fight import INITIATIVE

    table = D6Table()
    dice(*INITIATIVE)
    services.start_fight(table.storyguide, table.encounter.pk, table.v)
    return table


@database_sync_to_async
def players_roll(table, dice):
    services.set_challenge_value(table.storyguide, table.encounter.pk, table.v, 5)
    dice(4, 5, 3)  # Marta, Dexterity C2: 5 meets 5, so Anselm must defend
    return services.roll(
        table.alice,
        table.encounter.pk,
        table.v,
        table.marta.pk,
        "attribute:dexterity",
        target_id=table.anselm.pk,
    )


@pytest.mark.django_db(transaction=True)
async def test_a_players_own_roll_reaches_every_screen_and_the_defender_gets_their_form(dice):
    table = await fight_at_martas_turn(dice)
    bob, _ = await connect(table, table.bob)
    storyguide, _ = await connect(table, table.storyguide)
    try:
        await players_roll(table, dice)
        value_frame = await bob.receive_from(timeout=5)
        assert 'data-kind="d6_value_set"' in value_frame
        assert f'data-testid="your-turn-{table.marta.pk}"' in value_frame
        roll_frame = await bob.receive_from(timeout=5)
        assert 'data-kind="d6_roll"' in roll_frame
        assert (
            f'data-for-user="{table.bob.pk}" hidden data-testid="your-defence-{table.anselm.pk}"'
            in roll_frame
        )
        await storyguide.receive_from(timeout=5)
        sg_frame = await storyguide.receive_from(timeout=5)
        assert 'data-testid="defence-form"' in sg_frame
        assert 'data-testid="d6-yours"' not in sg_frame
    finally:
        await bob.disconnect()
        await storyguide.disconnect()
