"""The sides of a fight, as a table names them: the players' side, the opponents, or a named third side."""

from __future__ import annotations

from .errors import InvalidCommand
from .inputs import plain_text

PLAYERS = "Players"
OPPONENTS = "Opponents"
THIRD = "third"  # the choice's value for a named third side; its name comes with it
MAX_SIDE = 60
CHOICES = [
    (PLAYERS, "The players' side"),
    (OPPONENTS, "The opponents"),
    (THIRD, "A third side, named:"),
]


def chosen_side(choice: str, third_name: str = "") -> str:
    """The side's name from the set-up panel's choice: Players, Opponents, or the third side's own name.

    A name posted as the choice itself (an older page's free text) is a named third side."""
    choice = plain_text(choice or "", "The side", MAX_SIDE)
    if not choice:
        raise InvalidCommand("Choose a side: the players' side, the opponents, or a named third side.")
    if choice != THIRD:
        return choice
    name = plain_text(third_name or "", "The third side's name", MAX_SIDE)
    if not name:
        raise InvalidCommand("Name the third side (for example Beasts, or the Watch).")
    if name.casefold() in (PLAYERS.casefold(), OPPONENTS.casefold()):
        return PLAYERS if name.casefold() == PLAYERS.casefold() else OPPONENTS
    return name
