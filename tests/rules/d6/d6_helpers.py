"""Helpers for the d6 tests: dice typed in as the table reads them."""

from collections.abc import Sequence

from combat.rules.dice import ScriptedDice


def typed(*rolls: Sequence[int]) -> ScriptedDice:
    """Dice for several challenges in a row, each written d6 first, then the d10s read 1..10."""
    faces: list[int] = []
    for roll in rolls:
        faces.append(roll[0])
        faces.extend(0 if face == 10 else face for face in roll[1:])
    return ScriptedDice(faces)
