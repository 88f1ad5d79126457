"""Shared by the d6 services: the guard every command passes and rolls as event payloads."""

from __future__ import annotations

from campaign.access import is_storyguide
from campaign.models import Character
from combat.errors import InvalidCommand, NotAllowed, WrongPhase
from combat.models import Encounter

from ..models import Chase
from ..system import KEY


def require_d6(encounter: Encounter) -> None:
    """The encounter belongs to a d6 saga and is not over."""
    if encounter.saga.rule_system != KEY:
        raise InvalidCommand("This encounter's saga plays Ars Magica, not the d6 fatigue system.")
    if encounter.status == Encounter.Status.ENDED:
        raise WrongPhase("This encounter is over.")


def plays(user, character: Character) -> bool:
    """The character's own player: its owner, when it is not an NPC."""
    return (
        user.is_authenticated
        and not character.is_npc
        and character.owner_id is not None
        and character.owner_id == user.pk
    )


def require_player_or_storyguide(user, encounter: Encounter, character: Character) -> bool:
    """The storyguide (True) or the character's own player (False); NotAllowed for anyone else."""
    if is_storyguide(user, encounter.saga):
        return True
    if plays(user, character):
        return False
    raise NotAllowed(f"Only {character.name}'s player or the storyguide can do that.")


POTENTIAL_LIMIT = 20


def checked_potential(potential: int | None, sheet_potential: int) -> int:
    """The Potential of one challenge: the sheet's unless given [ours: situational, asked per roll]."""
    if potential is None:
        return sheet_potential
    if not -POTENTIAL_LIMIT <= potential <= POTENTIAL_LIMIT:
        raise InvalidCommand(f"Potential runs from -{POTENTIAL_LIMIT} to {POTENTIAL_LIMIT}, not {potential}.")
    return potential


def ongoing_chase(encounter: Encounter) -> Chase | None:
    return encounter.d6_chases.filter(outcome=Chase.Outcome.ONGOING).first()
