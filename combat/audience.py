"""Who sees what: the storyguide's audience and the players' audience of an encounter."""

from __future__ import annotations

from campaign.models import Membership

from .models import Encounter

STORYGUIDE = "storyguide"
PLAYERS = "players"
AUDIENCES = (STORYGUIDE, PLAYERS)


def audience_for(user, encounter: Encounter) -> str | None:
    """STORYGUIDE for the saga's storyguide, PLAYERS for its players, None for anyone else."""
    if not user.is_authenticated:
        return None
    if encounter.saga.storyguide_id == user.pk:
        return STORYGUIDE
    if Membership.objects.filter(saga_id=encounter.saga_id, user=user).exists():
        return PLAYERS
    return None


def visible_to(events, audience: str) -> list:
    """The events an audience sees: players never see storyguide-only events."""
    if audience == STORYGUIDE:
        return list(events)
    return [event for event in events if not event.storyguide_only]
