"""The coin duel's rules, pure: each turn both duellists flip a coin, heads hits, three hits win."""

from dataclasses import dataclass

from combat.rules.dice import Dice, ScriptedDice
from combat.rules.errors import EncounterFileError
from combat.rules.refusals import BAD_INPUT, Refusal, while_open

HITS_TO_WIN = 3


@dataclass(frozen=True)
class Duel:
    """Where a duel stands: the duellists' ids in order, their hits, the winner, the encounter's status."""

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


@while_open
def can_concede(duel: Duel, who: str | None = None) -> Refusal | None:
    """A duellist (`who`, when named) may yield a duel under way: None, or why not."""
    if len(duel.duellists) != 2 or duel.winner is not None:
        return Refusal("Only a duel under way can be yielded.")
    return None if who in (None, *duel.duellists) else Refusal("Choose the duellist who yields.", BAD_INPUT)


def concede(duel: Duel, who: str) -> Duel:
    """`who` yields: the other duellist wins."""
    return Duel(duel.duellists, duel.hits, next(d for d in duel.duellists if d != who), duel.status)


def play_turn(duel: Duel, dice: Dice) -> tuple[Duel, dict[str, str]]:
    """Both flip, in order (an even d6 is heads); each heads is a hit; three hits win (a tie: the first)."""
    faces = {who: "heads" if dice.face(6) % 2 == 0 else "tails" for who in duel.duellists}
    hits = {who: duel.hits.get(who, 0) + (faces[who] == "heads") for who in duel.duellists}
    winner = next((who for who in duel.duellists if hits[who] >= HITS_TO_WIN), None)
    return Duel(duel.duellists, hits, winner, duel.status), faces


def resolve(data: dict) -> dict:
    """An encounter file `{"rules": "coinduel", "duellists": [a, b], "faces": [...]}` played out."""
    duellists = data.get("duellists")
    if not isinstance(duellists, list) or [type(d) for d in duellists] != [str, str]:
        raise EncounterFileError("duellists", "expected two names")
    dice = ScriptedDice(data.get("faces", []))
    duel, turns = Duel(tuple(duellists), {}), []
    while duel.winner is None:
        duel, faces = play_turn(duel, dice)
        turns.append(faces)
    return {"turns": turns, "hits": duel.hits, "winner": duel.winner}
