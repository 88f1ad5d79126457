"""Where a d6 command's dice come from: the server rolls, or faces typed in from the table.

Typed faces are the d6 first, then the d10s (a ten typed 10 or 0), checked here so that a bad
entry gets a message naming whose roll it is.
"""

from __future__ import annotations

import re

from combat.errors import InvalidCommand
from combat.inputs import is_digits
from combat.rules.dice import Dice, RandomDice, RecordingDice
from d6.rules import dice_from_faces

_SEPARATORS = re.compile(r"[\s,;→>+]+")


def server_dice() -> Dice:
    """The server's dice: a fresh random source (tests replace this to script the dice)."""
    return RandomDice()


def parse_faces(text: str, who: str, consistency: int) -> list[int]:
    """'3 7 10' as faces [3, 7, 10]: the d6, then |consistency| d10s (0 or 10 for a ten)."""
    needed = 1 + abs(consistency)
    if len(text or "") > 200:
        raise InvalidCommand(f"{who}'s dice: type {needed} faces, not a page of them.")
    tokens = [token for token in _SEPARATORS.split((text or "").strip()) if token]
    if not tokens:
        raise InvalidCommand(f"Type {who}'s dice: the d6 first, then {abs(consistency)} d10s.")
    faces = []
    for token in tokens:
        if not is_digits(token, 2):
            raise InvalidCommand(f"{who}'s dice: {token!r} is not a die face.")
        faces.append(int(token))
    if len(faces) != needed:
        d10s = abs(consistency)
        raise InvalidCommand(
            f"{who} rolls one d6 and {d10s} d10{'s' if d10s != 1 else ''}: type {needed} "
            f"face{'s' if needed != 1 else ''}, not {len(faces)}."
        )
    if not 1 <= faces[0] <= 6:
        raise InvalidCommand(f"{who}'s d6 shows 1 to 6, not {faces[0]}.")
    for face in faces[1:]:
        if not 0 <= face <= 10:
            raise InvalidCommand(f"{who}'s d10 shows 1 to 10 (a ten may be typed 0), not {face}.")
    return [faces[0], *(10 if face == 0 else face for face in faces[1:])]


def dice_for(physical_saga: bool, typed: str | None, who: str, consistency: int) -> RecordingDice:
    """Typed faces for a physical-dice saga, else the server's dice; every face recorded."""
    if physical_saga:
        return RecordingDice(dice_from_faces(parse_faces(typed or "", who, consistency)))
    return RecordingDice(server_dice())
