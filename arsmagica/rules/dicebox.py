"""Dice per combatant and purpose: scripted faces first, a random source for the rest."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Protocol

from combat.rules.dice import Dice, FallbackDice, RecordingDice, ScriptedDice
from combat.rules.errors import RulesError

PURPOSES = ("initiative", "combat", "missile", "missile_second", "magic", "fatigue")


_KNOWN_PURPOSES = frozenset(PURPOSES)


def check_purpose(purpose: str) -> str:
    if purpose not in _KNOWN_PURPOSES:
        raise RulesError(f"no dice for {purpose!r}: purposes are {', '.join(PURPOSES)}")
    return purpose


class DiceBox(Protocol):
    """Where each combatant's dice come from, one stream per purpose."""

    def dice_for(self, combatant_id: str, purpose: str) -> Dice:
        """The same stream on every call for the same combatant and purpose."""
        ...


class _QuickRandomDice:
    """A private generator read straight from `random()`: the same odds as `RandomDice`,
    fewer steps per face (the engine rolls thousands of faces a second in play)."""

    def __init__(self, seed: int | str | None) -> None:
        self._random = random.Random(seed).random

    def face(self, sides: int) -> int:
        value = int(self._random() * sides)
        return value if sides == 10 else value + 1


class RandomDiceBox:
    """Every combatant and purpose draws from one private random source (repeatable by seed)."""

    def __init__(self, seed: int | str | None = None) -> None:
        self._dice = _QuickRandomDice(seed)

    def dice_for(self, combatant_id: str, purpose: str) -> Dice:
        if purpose not in _KNOWN_PURPOSES:
            check_purpose(purpose)
        return self._dice


class ScriptedDiceBox:
    """Faces given per combatant and purpose (`{"boris": {"combat": [7]}}`), then `fallback`.

    Without a fallback, running out of faces raises `DiceExhausted`.
    """

    def __init__(
        self,
        faces: Mapping[str, Mapping[str, Sequence[int]]] | None = None,
        fallback: Dice | None = None,
    ) -> None:
        self._faces = faces or {}
        self._fallback = fallback
        self._streams: dict[tuple[str, str], Dice] = {}

    def dice_for(self, combatant_id: str, purpose: str) -> Dice:
        key = (combatant_id, purpose)
        stream = self._streams.get(key)
        if stream is None:
            check_purpose(purpose)
            faces = self._faces.get(combatant_id, {}).get(purpose, ())
            if self._fallback is None:
                stream = ScriptedDice(faces)
            else:
                stream = FallbackDice(faces, self._fallback)
            self._streams[key] = stream
        return stream


class RecordingDiceBox:
    """Keeps every face shown, per combatant and purpose, so a phase can be previewed and
    re-run on the same faces with `replay()`."""

    def __init__(self, source: DiceBox) -> None:
        self._source = source
        self._streams: dict[tuple[str, str], RecordingDice] = {}

    def dice_for(self, combatant_id: str, purpose: str) -> Dice:
        key = (combatant_id, purpose)
        stream = self._streams.get(key)
        if stream is None:
            stream = RecordingDice(self._source.dice_for(combatant_id, purpose))
            self._streams[key] = stream
        return stream

    @property
    def faces(self) -> dict[str, dict[str, tuple[int, ...]]]:
        """Every face shown so far: `{combatant: {purpose: faces}}`."""
        result: dict[str, dict[str, tuple[int, ...]]] = {}
        for (combatant, purpose), stream in self._streams.items():
            result.setdefault(combatant, {})[purpose] = tuple(stream.faces)
        return result

    def replay(self, fallback: Dice | None = None) -> ScriptedDiceBox:
        """A box that shows the recorded faces again, then `fallback` (if given)."""
        return ScriptedDiceBox(self.faces, fallback)
