"""A d6 frame pushes the panels its events name (issue 37, item 1): the storyguide's set-up ("Add to the
encounter") only when who is in the encounter changes or the encounter starts running (`d6.events.SETUP`,
`d6.panels.CORE_KIND_PANELS`); every other panel, which shows the version its forms post, every time."""

from unittest.mock import patch

import pytest
from channels.layers import get_channel_layer

from combat import services as combat
from combat.audience import STORYGUIDE
from combat.live import FRAME_TYPE
from d6 import services

from .test_chase import STREETS

pytestmark = pytest.mark.django_db
SETUP = 'id="d6-setup"'


def storyguide_frame(command, capture) -> str:
    """The storyguide's frame of one command, as its push (run at commit) handed it to the channel layer."""
    sent = {}

    async def group_send(group, message):
        if message["type"] == FRAME_TYPE:
            sent[group.rsplit("-", 1)[1]] = message["html"]

    with patch.object(get_channel_layer(), "group_send", side_effect=group_send), capture(execute=True):
        command()
    return sent[STORYGUIDE]


def test_set_up_is_pushed_when_who_is_in_changes_or_the_encounter_runs_and_not_after(
    table, dice, django_capture_on_commit_callbacks
):
    encounter, capture = table.encounter.pk, django_capture_on_commit_callbacks
    removed = storyguide_frame(
        lambda: combat.remove_combatant(table.storyguide, encounter, table.v, table.bandits[1].pk), capture
    )
    assert SETUP in removed and 'id="d6-controls"' in removed
    started = storyguide_frame(
        lambda: services.start_chase(
            table.storyguide, encounter, table.v, table.marta.pk, [(table.bandits[0].pk, 2)], STREETS
        ),
        capture,
    )
    assert SETUP in started
    dice(4, 6, 5, 0)  # the exchange: Marta 4,6; Bandit 1 5,ten (tests/d6/test_chase.py)
    exchanged = storyguide_frame(lambda: services.exchange(table.storyguide, encounter, table.v), capture)
    assert SETUP not in exchanged and f'data-version="{table.v}"' in exchanged
