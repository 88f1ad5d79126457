"""A dice challenge made by a character with a fatigue: the automatic failure and the rise."""

from __future__ import annotations

from dataclasses import dataclass

from combat.rules.dice import Dice

from .challenge import Challenge, ChallengeRoll, roll_challenge
from .fatigue import automatic_failure, check_fatigue, fatigue_rises, raised_fatigue


@dataclass(frozen=True)
class Attempt:
    """What one challenge did: the roll, the automatic failure, the fatigue before and after.

    `success` is False after an automatic failure, otherwise the roll's own success (None
    when the challenge has no value). `rise_due` says the d6 was below fatigue on a physical
    roll during exertion; `fatigue_rose` says the fatigue actually went up (a fight can
    hold the rise back: one per turn, only the first challenge of a shot into a cluster).
    """

    roll: ChallengeRoll
    physical: bool
    exertion: bool
    fatigue_before: int
    auto_failed: bool
    success: bool | None
    rise_due: bool
    fatigue_rose: bool
    fatigue_after: int

    @property
    def rise_held_back(self) -> bool:
        """A rise was due but did not happen: a fight's limit, or the track already at 20."""
        return self.rise_due and not self.fatigue_rose

    def to_dict(self) -> dict:
        """Every face and number of the challenge, as plain JSON (files and the history)."""
        roll = self.roll
        return {
            "consistency": roll.consistency,
            "potential": roll.potential,
            "value": roll.value,
            "physical": self.physical,
            "exertion": self.exertion,
            "faces": list(roll.faces),
            "d6": roll.d6,
            "d10s": list(roll.d10s),
            "die_result": roll.die_result,
            "result": roll.result,
            "success": self.success,
            "auto_failed": self.auto_failed,
            "fatigue_before": self.fatigue_before,
            "fatigue_after": self.fatigue_after,
            "fatigue_rose": self.fatigue_rose,
            "rise_held_back": self.rise_held_back,
        }


def attempt(
    dice: Dice,
    challenge: Challenge,
    fatigue: int,
    *,
    exertion: bool = True,
    may_raise: bool = True,
) -> Attempt:
    """d6 seed: a physical roll checks fatigue on its die result and, during exertion, may raise it."""
    check_fatigue(fatigue)
    roll = roll_challenge(dice, challenge)
    auto_failed = challenge.physical and automatic_failure(roll.die_result, fatigue)
    rise_due = challenge.physical and exertion and fatigue_rises(roll.d6, fatigue)
    fatigue_rose = rise_due and may_raise and fatigue < raised_fatigue(fatigue)
    return Attempt(
        roll=roll,
        physical=challenge.physical,
        exertion=exertion,
        fatigue_before=fatigue,
        auto_failed=auto_failed,
        success=False if auto_failed else roll.success,
        rise_due=rise_due,
        fatigue_rose=fatigue_rose,
        fatigue_after=raised_fatigue(fatigue) if fatigue_rose else fatigue,
    )
