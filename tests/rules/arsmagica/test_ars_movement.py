"""Movement Table (ArM3 p163): paces per round."""

from __future__ import annotations

import pytest
from ars_helpers import sheet

from arsmagica.rules import Movement, movement_paces

SCOUT = sheet("scout", quickness=2, athletics=3, encumbrance=-1, ride=4)


@pytest.mark.parametrize(
    ("movement", "penalty", "paces"),
    [
        (Movement.WALKING, 0, 9 + 2),  # the table: 9 + Qik
        (Movement.WALKING_CAUTIOUSLY, 0, 9 + 2 - 1),  # the prose: 9 + Quickness + Encumbrance
        (Movement.HUSTLING, 0, 15 + 2 - 1),
        (Movement.SPRINTING, 0, 30 + 2 + 3 - 1),
        (Movement.SPRINTING, -4, 30 + 2 + 3 - 1 - 4),  # wound and fatigue penalties count
        (Movement.HORSEBACK, 0, 50 + 4),
    ],
)
def test_movement_table_paces_per_round(movement, penalty, paces):
    assert movement_paces(SCOUT, movement, penalty) == paces


def test_no_movement_goes_below_zero_paces():
    slow = sheet("slow", quickness=-5, encumbrance=-20)
    assert movement_paces(slow, Movement.HUSTLING) == 0
