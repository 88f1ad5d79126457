"""A d6 encounter: created from a d6 saga's page; characters join with combat's `add_combatants`."""

from __future__ import annotations

from django.db import transaction

from campaign.access import is_storyguide
from campaign.models import RuleSystem, Saga
from combat.errors import InvalidCommand, NotAllowed
from combat.models import Encounter, Event
from combat.services.log import EventLog


def create_encounter(user, saga_id: int, name: str) -> Encounter:
    """A new encounter in a d6 saga, preparing; the storyguide only."""
    name = (name or "").strip()
    if not name:
        raise InvalidCommand("Give the encounter a name.")
    with transaction.atomic():
        try:
            saga = Saga.objects.select_for_update().get(pk=saga_id)
        except (Saga.DoesNotExist, ValueError, TypeError):
            raise NotAllowed("There is no such saga.") from None
        if not is_storyguide(user, saga):
            raise NotAllowed("Only the storyguide can start an encounter.")
        if saga.rule_system != RuleSystem.D6_FATIGUE:
            raise InvalidCommand("This saga plays Ars Magica: its encounters run the Ars Magica round.")
        encounter = Encounter.objects.create(saga=saga, name=name[:120])
        log = EventLog(encounter, user)
        log.append(Event.Kind.ENCOUNTER_CREATED, {"name": encounter.name})
        log.save()
    return encounter
