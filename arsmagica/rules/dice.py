"""Ars Magica dice: the simple die, the stress die with its doubling chain, botch dice."""

from __future__ import annotations

from dataclasses import dataclass

from combat.rules.dice import Dice
from combat.rules.errors import RulesError

from .record import Record

MAX_BOTCH_DICE = 10


@dataclass(frozen=True, slots=True)
class SimpleRoll(Record):
    """One simple die: the face shown and what it counts for."""

    face: int
    value: int


@dataclass(frozen=True, slots=True)
class StressRoll(Record):
    """One stress die with every face kept.

    `faces` is the stress die's own chain (`(1, 1, 3)`), `botch_faces` the botch dice
    rolled after a first-roll 0; `botches` counts the zeros among them.
    """

    faces: tuple[int, ...]
    botch_faces: tuple[int, ...]
    value: int
    botches: int

    @property
    def botched(self) -> bool:
        return self.botches > 0

    @property
    def all_faces(self) -> tuple[int, ...]:
        """The faces in the order they were rolled, as a table types them in: `(0, 3, 0)`."""
        return self.faces + self.botch_faces


def simple_die(dice: Dice) -> SimpleRoll:
    """Simple die: a d10 read as rolled, a 0 counts as 10 (ArM3 p177)."""
    face = dice.face(10)
    return SimpleRoll(face, 10 if face == 0 else face)


def check_botch_dice(botch_dice: int) -> int:
    if isinstance(botch_dice, bool) or not isinstance(botch_dice, int):
        raise RulesError(f"the number of botch dice must be a whole number, not {botch_dice!r}")
    if not 0 <= botch_dice <= MAX_BOTCH_DICE:
        raise RulesError(f"a roll takes 0 to {MAX_BOTCH_DICE} botch dice, not {botch_dice}")
    return botch_dice


def stress_die(dice: Dice, botch_dice: int = 1) -> StressRoll:
    """Stress die: 1 rerolls and doubles, 0 first calls for botch dice (ArM3 p168, p177)."""
    if botch_dice.__class__ is not int or not 0 <= botch_dice <= MAX_BOTCH_DICE:
        check_botch_dice(botch_dice)
    first = dice.face(10)
    if first == 1:
        faces = [1]
        multiplier = 2
        while True:
            face = dice.face(10)
            faces.append(face)
            if face != 1:
                return StressRoll(tuple(faces), (), multiplier * (10 if face == 0 else face), 0)
            multiplier *= 2
    if first == 0:
        botch_faces = tuple(dice.face(10) for _ in range(botch_dice))
        return StressRoll((0,), botch_faces, 0, botch_faces.count(0))
    return _PLAIN_ROLLS.get(first) or StressRoll((first,), (), first, 0)


# A 2 to 9 is the same roll every time: records are immutable, so one serves for all.
_PLAIN_ROLLS = {face: StressRoll((face,), (), face, 0) for face in range(2, 10)}


def roll_total(roll: StressRoll, modifiers: int) -> int:
    """A roll's total: die + modifiers; a botched roll is 0, or the modifiers if negative."""
    if roll.botches:
        return modifiers if modifiers < 0 else 0
    return roll.value + modifiers
