"""Exact odds of the dice challenge, as fractions, for showing a player their chances."""

from __future__ import annotations

from fractions import Fraction
from math import comb

from combat.rules.errors import RulesError

from .challenge import TEN
from .fatigue import check_fatigue


def _die_result_counts(consistency: int) -> dict[int, int]:
    """RULES.md Part 2 [ours]: how many of the 6 * 10**|C| equally likely rolls give each die result."""
    n = abs(consistency)
    if consistency == 0:
        return {face: 1 for face in range(1, 7)}
    counts: dict[int, int] = {}
    if consistency > 0:
        # No ten among the d10s: the highest of the d6 and d10s showing 1..9.
        for top in range(1, TEN):
            at_most = min(top, 6) * top**n
            below = min(top - 1, 6) * (top - 1) ** n
            counts[top] = at_most - below
        # k tens: 10, +1 for each ten beyond the first.
        for tens in range(1, n + 1):
            counts[TEN + tens - 1] = 6 * comb(n, tens) * 9 ** (n - tens)
        return counts
    # No one on any die: the lowest of a d6 showing 2..6 and d10s showing 2..10.
    for low in range(2, 7):
        at_least = (7 - low) * (11 - low) ** n
        above = (6 - low) * (10 - low) ** n
        counts[low] = at_least - above
    # j ones among the d6 and the d10s: 1, -1 for each one beyond the first.
    for ones in range(1, n + 2):
        with_d6 = comb(n, ones - 1) * 9 ** (n - ones + 1)
        without_d6 = 5 * comb(n, ones) * 9 ** (n - ones) if ones <= n else 0
        counts[2 - ones] = with_d6 + without_d6
    return counts


def die_result_distribution(consistency: int) -> dict[int, Fraction]:
    """RULES.md Part 2 [ours]: the exact chance of each die result for a Consistency."""
    if isinstance(consistency, bool) or not isinstance(consistency, int):
        raise RulesError(f"consistency must be a whole number, not {consistency!r}")
    total = 6 * TEN ** abs(consistency)
    counts = _die_result_counts(consistency)
    return {read: Fraction(count, total) for read, count in sorted(counts.items())}


def chance_to_meet(consistency: int, potential: int, value: int, *, fatigue: int | None = None) -> Fraction:
    """d6 seed: the chance that die result + P meets the value (and, physical, the fatigue)."""
    if fatigue is not None:
        check_fatigue(fatigue)
    return sum(
        (
            chance
            for read, chance in die_result_distribution(consistency).items()
            if read + potential >= value and (fatigue is None or read >= fatigue)
        ),
        Fraction(0),
    )


def chance_fatigue_rises(fatigue: int) -> Fraction:
    """d6 seed: the chance that the d6 shows less than the fatigue (certain above six)."""
    check_fatigue(fatigue)
    return Fraction(min(fatigue - 1, 6), 6)
