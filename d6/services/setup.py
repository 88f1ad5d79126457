"""A d6 encounter: the core's encounter, in a d6 saga; the saga's attribute names."""

from __future__ import annotations

from django.db import transaction

from campaign.models import Saga
from combat.models import Encounter
from combat.services import setup

from .. import KEY


def create_encounter(user, saga_id: int, name: str) -> Encounter:
    """A new encounter in a d6 saga, preparing; the storyguide only."""
    return setup.create_encounter(user, saga_id, name, rule_system=KEY)


@transaction.atomic
def set_attributes(saga: Saga, names: list[str]) -> Saga:
    """The attribute names every sheet of the saga carries."""
    saga.options = {**saga.options, "attributes": names}
    saga.save(update_fields=["options"])
    return saga
