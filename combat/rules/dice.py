"""Dice sources: every face a rule needs comes from a `Dice` passed in, never from global state."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Protocol

from .errors import DiceExhausted, RulesError


class Dice(Protocol):
    """Anything that can show one face of a die with `sides` faces."""

    def face(self, sides: int) -> int:
        """One face: 0..9 for a d10 (a ten shows as 0, as on the die), 1..sides otherwise."""
        ...


def _check_face(sides: int, value: int) -> int:
    low, high = (0, 9) if sides == 10 else (1, sides)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise RulesError(f"a d{sides} shows {low} to {high}, not {value!r}")
    return value


class RandomDice:
    """Dice for play: a private random generator, repeatable when seeded."""

    def __init__(self, seed: int | str | None = None) -> None:
        self._random = random.Random(seed)

    def face(self, sides: int) -> int:
        if sides == 10:
            return self._random.randrange(10)
        return self._random.randint(1, sides)


class ScriptedDice:
    """Dice whose faces are given in advance: tests, and tables that roll physical dice."""

    def __init__(self, faces: Iterable[int]) -> None:
        self._faces = list(faces)
        self._next = 0

    def face(self, sides: int) -> int:
        if self._next >= len(self._faces):
            raise DiceExhausted(f"needed another d{sides}, but only {len(self._faces)} faces were given")
        value = _check_face(sides, self._faces[self._next])
        self._next += 1
        return value

    @property
    def remaining(self) -> list[int]:
        """Faces not used yet."""
        return self._faces[self._next :]


class RecordingDice:
    """Wraps another source and keeps every face it showed, in order."""

    def __init__(self, source: Dice) -> None:
        self._source = source
        self.faces: list[int] = []

    def face(self, sides: int) -> int:
        value = self._source.face(sides)
        self.faces.append(value)
        return value


class FallbackDice:
    """Scripted faces first, then a fallback source (dice not given are rolled)."""

    def __init__(self, faces: Iterable[int], fallback: Dice) -> None:
        self._scripted = ScriptedDice(faces)
        self._fallback = fallback

    def face(self, sides: int) -> int:
        if self._scripted.remaining:
            return self._scripted.face(sides)
        return self._fallback.face(sides)
