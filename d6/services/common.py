"""Shared by the d6 services: the guard every command passes, obeying a check, the Potential asked."""

from __future__ import annotations

from combat.errors import InvalidCommand
from combat.models import Encounter

from .. import KEY


def require_d6(encounter: Encounter) -> None:
    """The encounter belongs to a d6 saga (`lock_encounter` has refused one that is over)."""
    if encounter.saga.rule_system != KEY:
        raise InvalidCommand("This encounter's saga plays Ars Magica, not the d6 fatigue system.")




POTENTIAL_LIMIT = 20


def checked_potential(potential: int | None, sheet_potential: int) -> int:
    """The Potential of one challenge: the sheet's unless given [ours: situational, asked per roll]."""
    if potential is None:
        return sheet_potential
    if not -POTENTIAL_LIMIT <= potential <= POTENTIAL_LIMIT:
        raise InvalidCommand(f"Potential runs from -{POTENTIAL_LIMIT} to {POTENTIAL_LIMIT}, not {potential}.")
    return potential
