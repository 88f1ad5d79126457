"""The saga's lead regroups its evenings: an encounter moves to the evening before or after."""

from __future__ import annotations

from django.db import transaction

from campaign.access import require_lead

from ..archive.evenings import evenings, regrouped
from ..models import Encounter

CANNOT_MOVE = (
    "That encounter cannot move there: only an evening's first encounter goes to the evening before, "
    "and its last to the evening after."
)


def regroup(user, saga_id, encounter_id, direction: str) -> str | None:
    """Move the encounter to the evening before or after (the saga's lead only: 403 for its other members,
    404 for outsiders); the refusal's words when it cannot go there, with nothing changed."""
    saga = require_lead(user, saga_id)
    with transaction.atomic():
        list(saga.encounters.select_for_update().values_list("pk", flat=True))  # one regrouping at a time
        try:
            changes = regrouped(evenings(saga), int(encounter_id), direction)
        except (TypeError, ValueError):
            changes = {}
        if not changes:
            return CANNOT_MOVE
        for pk, starts in changes.items():
            Encounter.objects.filter(pk=pk, saga=saga).update(evening_start=starts)
    return None
