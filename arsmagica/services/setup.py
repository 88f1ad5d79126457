"""An Ars Magica encounter: the core's encounter, in an Ars Magica saga."""

from __future__ import annotations

from combat.models import Encounter
from combat.services import setup

from .. import KEY


def create_encounter(user, saga_id: int, name: str) -> Encounter:
    """A new encounter in an Ars Magica saga, preparing; the storyguide only."""
    return setup.create_encounter(user, saga_id, name, rule_system=KEY)
