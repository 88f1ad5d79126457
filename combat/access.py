"""Who may open an encounter: the members of its saga, and no one else (a 404, as for an id never made)."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404

from campaign.access import get_membership, is_storyguide
from campaign.models import Saga

from .models import Encounter


def encounter_for(user, encounter_id, rule_system: str | None = None) -> Encounter:
    """The encounter, for members of its saga (and of that rule system, when named); 404 for anyone else."""
    encounter = get_object_or_404(Encounter.objects.select_related("saga"), pk=encounter_id)
    may_see(user, encounter.saga, rule_system)
    return encounter


def may_see(user, saga: Saga, rule_system: str | None = None) -> None:
    """404 unless the user is the saga's storyguide (no membership row read) or a member of it, and the
    saga plays that rule system, when named."""
    if not is_storyguide(user, saga):
        get_membership(user, saga.pk)
    if rule_system is not None and saga.rule_system != rule_system:
        raise Http404("This encounter plays another rule system.")
