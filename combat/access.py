"""Who may open an encounter: the members of its saga, and no one else (a 404, as for an id never made); and
who holds its storyguide's seat (`holds_seat`): its controls and the storyguide's version of it."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404

from campaign.access import get_membership, is_a_storyguide, is_lead
from campaign.models import Saga

from .errors import NotAllowed
from .models import Encounter


def encounter_for(user, encounter_id, rule_system: str | None = None) -> Encounter:
    """The encounter, for members of its saga (and of that rule system, when named); 404 for anyone else."""
    encounter = get_object_or_404(Encounter.objects.select_related("saga"), pk=encounter_id)
    may_see(user, encounter.saga, rule_system)
    return encounter


def may_see(user, saga: Saga, rule_system: str | None = None) -> None:
    """404 unless the user is a member of the saga (its lead without a membership row read, any other member
    with one), and the saga plays that rule system, when named."""
    if not is_lead(user, saga):
        get_membership(user, saga.pk)
    if rule_system is not None and saga.rule_system != rule_system:
        raise Http404("This encounter plays another rule system.")


def holds_seat(user, encounter: Encounter) -> bool:
    """Whether the user holds the encounter's storyguide's seat (no row read): the one question of who runs
    an encounter and sees the storyguide's version of it (docs/architecture.md, "Troupe play")."""
    return user.is_authenticated and encounter.seat_holder_id == user.pk


def require_seat(user, encounter: Encounter) -> None:
    """NotAllowed unless the user holds the encounter's seat (`holds_seat`): a storyguide's command of it; one
    of the saga's other storyguides is told who holds it, anyone else that it is the storyguide's."""
    if holds_seat(user, encounter):
        return
    if is_a_storyguide(user, encounter.saga):
        holder = encounter.seat_holder.get_username()
        raise NotAllowed(f"{holder} holds this encounter's storyguide's seat: only they can do that.")
    raise NotAllowed("Only the storyguide can do that.")


def require_seat_or_lead(user, encounter: Encounter) -> None:
    """NotAllowed unless the user holds the encounter's seat (`holds_seat`) or leads its saga (`is_lead`): an
    encounter's own housekeeping (rename, archive, restore, delete), so a storyguide without its seat cannot
    remove another's encounter, and the lead can tidy every one."""
    if holds_seat(user, encounter) or is_lead(user, encounter.saga):
        return
    if is_a_storyguide(user, encounter.saga):
        holder = encounter.seat_holder.get_username()
        raise NotAllowed(f"{holder} holds this encounter's seat: only they or the saga's lead can do that.")
    raise NotAllowed("Only the storyguide can do that.")
