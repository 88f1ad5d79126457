"""The coin duel's event kinds, each a unit (payload, sentence; its line by default), its Log and Archive."""

from typing import TypedDict

from typing_extensions import override

from combat import systems
from combat.events import EventKind


class FlipPayload(TypedDict):
    turn: int
    faces: dict[str, str]
    hits: dict[str, int]
    names: dict[str, str]


class Flip(EventKind):
    name, label, payload = "coin_flip", "Coins flipped", FlipPayload

    @override
    def sentence(self, payload: dict, names: dict, *, storyguide: bool) -> str:
        said = ", ".join(f"{payload['names'][who]} flips {face}" for who, face in payload["faces"].items())
        return said + "."


class WonPayload(TypedDict):
    winner: str
    name: str


class Won(EventKind):
    name, label, payload = "coin_duel_won", "Duel won", WonPayload

    @override
    def sentence(self, payload: dict, names: dict, *, storyguide: bool) -> str:
        return f"{payload['name']} wins the duel."


EVENT_KINDS = (Flip, Won)


class Log(systems.Log):
    SECRETS = False  # every coin falls in sight of the whole table


class Archive(systems.Archive):
    COMBATANT_KEYS = frozenset({"winner"})
    BY_COMBATANT = frozenset({"faces", "hits", "names"})
