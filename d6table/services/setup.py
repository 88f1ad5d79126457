"""A d6 encounter: the shared encounter of the combat app, in a d6 saga."""

from __future__ import annotations

from campaign.models import RuleSystem
from combat.models import Encounter
from combat.services import setup


def create_encounter(user, saga_id: int, name: str) -> Encounter:
    """A new encounter in a d6 saga, preparing; the storyguide only."""
    return setup.create_encounter(user, saga_id, name, rule_system=RuleSystem.D6_FATIGUE)
