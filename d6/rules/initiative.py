"""Initiative for a d6 fight [ours]: each fighter rolls a Dexterity challenge, highest result first."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from combat.rules.dice import Dice
from combat.rules.errors import RulesError

from .challenge import Challenge, ChallengeRoll, roll_challenge


@dataclass(frozen=True)
class InitiativeRoll:
    """One fighter's initiative: the Dexterity it rolled with and the roll, every face kept."""

    who: str
    dexterity: int
    roll: ChallengeRoll


def roll_initiative(
    dice: Dice,
    dexterity: Sequence[tuple[str, int]],
    *,
    fighter_dice: Mapping[str, Dice] | None = None,
) -> tuple[InitiativeRoll, ...]:
    """RULES.md Part 2 [ours]: a Dexterity challenge (C = Dexterity, P = 0) each; acting order."""
    ids = [who for who, _ in dexterity]
    if len(set(ids)) != len(ids):
        raise RulesError("each fighter rolls initiative once")
    own = fighter_dice or {}
    rolls = [
        InitiativeRoll(
            who=who,
            dexterity=score,
            roll=roll_challenge(own.get(who, dice), Challenge(consistency=score, physical=False)),
        )
        for who, score in dexterity
    ]
    listed = {who: index for index, who in enumerate(ids)}
    return tuple(
        sorted(
            rolls,
            key=lambda r: (-r.roll.result, -r.roll.die_result, -r.dexterity, listed[r.who]),
        )
    )
