"""The dice challenge: one d6 plus |Consistency| d10, read to a die result, plus Potential."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from combat.rules.dice import Dice, ScriptedDice
from combat.rules.errors import RulesError

TEN = 10


@dataclass(frozen=True, kw_only=True)
class Challenge:
    """What is rolled: Consistency, Potential, the challenge value (None when only the result
    matters, as in a chase) and whether it is based on a physical attribute."""

    consistency: int
    potential: int = 0
    value: int | None = None
    physical: bool

    def __post_init__(self) -> None:
        for name in ("consistency", "potential"):
            number = getattr(self, name)
            if isinstance(number, bool) or not isinstance(number, int):
                raise RulesError(f"{name} must be a whole number, not {number!r}")
        if self.value is not None and (isinstance(self.value, bool) or not isinstance(self.value, int)):
            raise RulesError(f"the challenge value must be a whole number, not {self.value!r}")


@dataclass(frozen=True)
class ChallengeRoll:
    """One rolled challenge, every face kept: the d6, then the d10s read 1..10."""

    consistency: int
    potential: int
    d6: int
    d10s: tuple[int, ...]
    die_result: int
    result: int
    value: int | None
    success: bool | None

    @property
    def faces(self) -> tuple[int, ...]:
        """The d6 first, then the d10s (a ten as 10), as the table saw them."""
        return (self.d6, *self.d10s)


def read_d10(face: int) -> int:
    """RULES.md Part 2 [ours]: a d10 face 0 is the ten, read 10."""
    return TEN if face == 0 else face


def die_result(consistency: int, d6: int, d10s: Sequence[int]) -> int:
    """RULES.md Part 2 [ours, from the parent rules]: highest die +1 per extra 10, lowest -1 per extra 1."""
    if len(d10s) != abs(consistency):
        raise RulesError(f"consistency {consistency} rolls {abs(consistency)} d10s, not {len(d10s)}")
    if not 1 <= d6 <= 6:
        raise RulesError(f"a d6 shows 1 to 6, not {d6}")
    for face in d10s:
        if not 1 <= face <= TEN:
            raise RulesError(f"a d10 is read 1 to 10, not {face}")
    dice = (d6, *d10s)
    if consistency > 0:
        tens = d10s.count(TEN)
        return TEN + tens - 1 if tens else max(dice)
    if consistency < 0:
        ones = dice.count(1)
        return 1 - (ones - 1) if ones else min(dice)
    return d6


def roll_challenge(dice: Dice, challenge: Challenge) -> ChallengeRoll:
    """RULES.md Part 2 [ours, from the parent rules]: roll one d6 plus |C| d10; result = die result + P."""
    d6 = dice.face(6)
    d10s = tuple(read_d10(dice.face(10)) for _ in range(abs(challenge.consistency)))
    read = die_result(challenge.consistency, d6, d10s)
    result = read + challenge.potential
    success = None if challenge.value is None else result >= challenge.value
    return ChallengeRoll(
        consistency=challenge.consistency,
        potential=challenge.potential,
        d6=d6,
        d10s=d10s,
        die_result=read,
        result=result,
        value=challenge.value,
        success=success,
    )


def dice_from_faces(faces: Sequence[int]) -> ScriptedDice:
    """Dice for one challenge typed in from the table: the d6 first, then the d10s (10 or 0 for a ten)."""
    if not faces:
        raise RulesError("no faces given: the d6 comes first")
    d10s = [0 if face == TEN else face for face in faces[1:]]
    return ScriptedDice([faces[0], *d10s])
