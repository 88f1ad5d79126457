"""The coin duel's rules, pure: each turn every duellist flips a coin; heads hits the other side;
the first to three hits wins. No Django, every die passed in."""

from __future__ import annotations

from dataclasses import dataclass

from combat.rules.dice import Dice
from combat.rules.refusals import Refusal, while_open

HITS_TO_WIN = 3


@dataclass(frozen=True)
class Duel:
    """Where a duel stands: the duellists' ids in order, the hits each has landed, the winner if any, and
    the encounter's status (`while_open` reads it)."""

    duellists: tuple[str, ...]
    hits: dict[str, int]
    winner: str | None = None
    status: str = "running"


@while_open
def can_flip(duel: Duel) -> Refusal | None:
    """A turn needs an open encounter, exactly two duellists and no winner yet: None, or why not."""
    if len(duel.duellists) != 2:
        return Refusal("A coin duel needs exactly two duellists.")
    if duel.winner is not None:
        return Refusal("The duel is won; nobody flips again.")
    return None


def flip_coin(dice: Dice) -> str:
    """A coin: an even d6 is heads."""
    return "heads" if dice.face(6) % 2 == 0 else "tails"


def play_turn(duel: Duel, dice: Dice) -> tuple[Duel, dict[str, str]]:
    """Both duellists flip, in order; each heads is a hit; three hits win (a tie on three: the first)."""
    faces = {who: flip_coin(dice) for who in duel.duellists}
    hits = {who: duel.hits.get(who, 0) + (faces[who] == "heads") for who in duel.duellists}
    winner = next((who for who in duel.duellists if hits[who] >= HITS_TO_WIN), None)
    return Duel(duel.duellists, hits, winner, duel.status), faces


def resolve(data: dict) -> dict:
    """An encounter file `{"rules": "coinduel", "duellists": [a, b], "faces": [...]}` played out."""
    from combat.rules.dice import ScriptedDice
    from combat.rules.errors import EncounterFileError

    duellists = data.get("duellists")
    if (
        not isinstance(duellists, list)
        or len(duellists) != 2
        or not all(isinstance(d, str) for d in duellists)
    ):
        raise EncounterFileError("duellists", "expected two names")
    dice = ScriptedDice(data.get("faces", []))
    duel, turns = Duel(tuple(duellists), {}), []
    while duel.winner is None:
        duel, faces = play_turn(duel, dice)
        turns.append(faces)
    return {"turns": turns, "hits": duel.hits, "winner": duel.winner}
