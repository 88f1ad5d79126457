"""The coin duel's event kinds and their payloads, its log (turns' headings, sentences; no secrets) and its
archive (the keys that name duellists): two of its roles."""

from __future__ import annotations

from typing import TypedDict

from django.db import models
from typing_extensions import override

from combat import systems
from combat.events import EventKind


class Kind(models.TextChoices):
    FLIP = "coin_flip", "Coins flipped"
    WON = "coin_duel_won", "Duel won"


class Flip(TypedDict):
    turn: int
    faces: dict[str, str]
    hits: dict[str, int]
    names: dict[str, str]


class Won(TypedDict):
    winner: str
    name: str


EVENT_KINDS = (
    EventKind(Kind.FLIP.value, Kind.FLIP.label, Flip, "coinduel/events/coin_flip.html"),
    EventKind(Kind.WON.value, Kind.WON.label, Won, "coinduel/events/coin_duel_won.html"),
)
SENTENCES = {
    Kind.FLIP: lambda p: (
        ", ".join(f"{p['names'].get(who, '')} flips {face}" for who, face in p["faces"].items()) + "."
    ),
    Kind.WON: lambda p: f"{p['name']} wins the duel.",
}


class Log(systems.Log):
    SECRETS = False  # every coin falls in sight of the whole table

    @override
    def round_heading(self, number: int) -> str:
        """A turn's heading in the history and the log (0: before the first flip)."""
        return f"Turn {number}" if number else "Before the first flip"

    @override
    def sentence(self, kind: str, payload: dict, names: dict, *, storyguide: bool) -> str:
        """A coin duel's event as one sentence from its fields: a phone's pop-up (`combat.sentences`)."""
        return SENTENCES[kind](payload) if kind in SENTENCES else ""


class Archive(systems.Archive):
    COMBATANT_KEYS = frozenset({"winner"})
    BY_COMBATANT = frozenset({"faces", "hits", "names"})
