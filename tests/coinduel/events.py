"""The coin duel's event kinds and their payloads, their turns' headings (the log role) and the keys that
name duellists (the archive role)."""

from __future__ import annotations

from typing import TypedDict

from django.db import models

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
COMBATANT_KEYS = frozenset({"winner"})
BY_COMBATANT = frozenset({"faces", "hits", "names"})


def round_heading(number: int) -> str:
    """A turn's heading in the history and the log (0: before the first flip)."""
    return f"Turn {number}" if number else "Before the first flip"


SENTENCES = {
    Kind.FLIP: lambda p: (
        ", ".join(f"{p['names'].get(who, '')} flips {face}" for who, face in p["faces"].items()) + "."
    ),
    Kind.WON: lambda p: f"{p['name']} wins the duel.",
}


def sentence(kind: str, payload: dict, names: dict, *, storyguide: bool) -> str:
    """A coin duel's event as one sentence from its fields: a phone's pop-up (`combat.sentences`)."""
    return SENTENCES[kind](payload) if kind in SENTENCES else ""
