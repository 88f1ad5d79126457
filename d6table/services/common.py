"""Shared by the d6 services: the guard every command passes and rolls as event payloads."""

from __future__ import annotations

from campaign.models import RuleSystem
from combat.errors import InvalidCommand, WrongPhase
from combat.models import Encounter
from combat.rules.d6 import Attempt

from ..models import Chase


def require_d6(encounter: Encounter) -> None:
    """The encounter belongs to a d6 saga and is not over."""
    if encounter.saga.rule_system != RuleSystem.D6_FATIGUE:
        raise InvalidCommand("This encounter's saga plays Ars Magica, not the d6 fatigue system.")
    if encounter.status == Encounter.Status.ENDED:
        raise WrongPhase("This encounter is over.")


def ongoing_chase(encounter: Encounter) -> Chase | None:
    return encounter.d6_chases.filter(outcome=Chase.Outcome.ONGOING).first()


def attempt_payload(outcome: Attempt) -> dict:
    """Every face and number of one challenge, as the history keeps it."""
    roll = outcome.roll
    return {
        "consistency": roll.consistency,
        "potential": roll.potential,
        "value": roll.value,
        "physical": outcome.physical,
        "faces": list(roll.faces),
        "d6": roll.d6,
        "d10s": list(roll.d10s),
        "die_result": roll.die_result,
        "result": roll.result,
        "success": outcome.success,
        "auto_failed": outcome.auto_failed,
        "fatigue_before": outcome.fatigue_before,
        "fatigue_after": outcome.fatigue_after,
        "fatigue_rose": outcome.fatigue_rose,
        "rise_held_back": outcome.rise_held_back,
    }
