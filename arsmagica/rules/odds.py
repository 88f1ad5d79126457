"""Exact odds of a stress roll against an ease factor, botch dice included."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import comb

from .dice import check_botch_dice
from .record import Record

TENTH = Fraction(1, 10)
_FINAL_FACES = (2, 3, 4, 5, 6, 7, 8, 9, 10)  # what a reroll that is not a 1 counts for


@dataclass(frozen=True, slots=True)
class StressOdds(Record):
    """Exact chances of one stress roll: success, failure and botch sum to 1.

    `botches[k - 1]` is the chance of exactly k botches (k = 1 .. botch dice).
    """

    success: Fraction
    failure: Fraction
    botch: Fraction
    botches: tuple[Fraction, ...]


def stress_odds(
    modifier: int, ease_factor: int, botch_dice: int = 1, *, must_beat: bool = False
) -> StressOdds:
    """Chance that stress die + modifier meets (or beats) the ease factor (ArM3 p168, p177).

    The doubling chain is infinite; past the point where even the smallest doubled
    face succeeds, the rest of the chain is summed exactly: (1/10)^k for k ones.
    A botched roll never succeeds, whatever its total.
    """
    check_botch_dice(botch_dice)
    needed = ease_factor - modifier + (1 if must_beat else 0)  # the die must show >= needed
    success = Fraction(0)
    failure = Fraction(0)
    for face in range(2, 10):
        if face >= needed:
            success += TENTH
        else:
            failure += TENTH
    no_botch = Fraction(9, 10) ** botch_dice
    if needed <= 0:
        success += TENTH * no_botch
    else:
        failure += TENTH * no_botch
    # A first 1: k ones in a row (chance 1/10^k) then a final face (1/10 each), value 2^k x face.
    ones = 1
    chance_of_ones = TENTH
    while 2**ones * 2 < needed:
        for face in _FINAL_FACES:
            if 2**ones * face >= needed:
                success += chance_of_ones * TENTH
            else:
                failure += chance_of_ones * TENTH
        ones += 1
        chance_of_ones *= TENTH
    success += chance_of_ones  # every longer chain succeeds: its whole mass, (1/10)^ones
    botches = tuple(
        TENTH * comb(botch_dice, count) * TENTH**count * Fraction(9, 10) ** (botch_dice - count)
        for count in range(1, botch_dice + 1)
    )
    return StressOdds(success, failure, sum(botches, Fraction(0)), botches)
