"""The coin duel's event kinds and their payloads."""

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

# Each kind as one sentence from its fields: a phone's pop-up (`combat.sentences`).
SENTENCES = {
    Kind.FLIP: lambda p: (
        ", ".join(f"{p['names'].get(who, '')} flips {face}" for who, face in p["faces"].items()) + "."
    ),
    Kind.WON: lambda p: f"{p['name']} wins the duel.",
}
