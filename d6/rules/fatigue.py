"""The fatigue track: 1 to 20, its base, the automatic failure and the rise by one."""

from __future__ import annotations

from combat.rules.errors import RulesError

FATIGUE_MIN = 1
FATIGUE_MAX = 20


def clamp_fatigue(fatigue: int) -> int:
    """d6 seed: fatigue can not be higher than twenty or lower than one."""
    return max(FATIGUE_MIN, min(FATIGUE_MAX, fatigue))


def check_fatigue(fatigue: int) -> int:
    """d6 seed: a fatigue written on a sheet must lie on the d20 track, 1 to 20."""
    if isinstance(fatigue, bool) or not isinstance(fatigue, int):
        raise RulesError(f"fatigue must be a whole number, not {fatigue!r}")
    if not FATIGUE_MIN <= fatigue <= FATIGUE_MAX:
        raise RulesError(f"fatigue runs from {FATIGUE_MIN} to {FATIGUE_MAX}, not {fatigue}")
    return fatigue


def base_fatigue(stamina: int) -> int:
    """d6 seed: 4 - stamina = base fatigue, never less than 1 (and, on the d20, never above 20)."""
    return clamp_fatigue(4 - stamina)


def automatic_failure(die_result: int, fatigue: int) -> bool:
    """d6 seed: a physical roll fails unless its die result, before potential, is at least fatigue."""
    return die_result < fatigue


def fatigue_rises(d6: int, fatigue: int) -> bool:
    """d6 seed: during exertion, a d6 lower than the fatigue raises the fatigue by one."""
    return d6 < fatigue


def raised_fatigue(fatigue: int) -> int:
    """d6 seed: the fatigue increased by one, never past twenty."""
    return clamp_fatigue(fatigue + 1)
