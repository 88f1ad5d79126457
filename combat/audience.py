"""Who sees what: the storyguide's audience and the players' audience of an encounter."""

from __future__ import annotations

import copy

from campaign.models import Membership, NpcRolls

from . import systems
from .models import Combatant, Encounter

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


# What players may not see of an NPC's roll at each saga setting: the storyguide rolls behind a screen.
SCREENED = {
    NpcRolls.RESULTS: ("dice", "scores", "totals"),
    NpcRolls.TOTALS: ("dice", "scores"),
    NpcRolls.EVERYTHING: (),
}


def behind_the_screen(npc_rolls: str, **fields: tuple[str, ...]) -> set[str]:
    """The fields of an NPC's roll kept from players at the saga's setting, given which are its dice, its
    scores and its totals (each rule system says which of its fields are which)."""
    return {name for part in SCREENED[NpcRolls(npc_rolls)] for name in fields.get(part, ())}


def without(record: dict, hidden: set[str]) -> dict:
    """The record without the hidden fields (a copy when any is hidden)."""
    return {key: value for key, value in record.items() if key not in hidden} if hidden else record


def player_combatants(encounter: Encounter, combatants=None) -> set[str]:
    """The ids (as strings) of the encounter's player characters: their rolls are everyone's. From
    `combatants` (with their characters) where a push has them, else read."""
    if combatants is not None:
        return {str(combatant.pk) for combatant in combatants if not combatant.character.is_npc}
    rows = Combatant.objects.filter(encounter=encounter, character__is_npc=False).values_list("pk", flat=True)
    return {str(pk) for pk in rows}


def as_players_see(saga, events, players: set[str], own: set[str] = frozenset()) -> list:
    """The events with their payloads as players read them (the rule system's `players_payload` at the
    saga's setting for NPC rolls), as copies: the stored events are never edited."""
    players_payload = systems.of(saga).players_payload
    return [_with_payload(event, players_payload(event, own, players, saga.npc_rolls)) for event in events]


def _with_payload(event, payload: dict):
    """A copy of the event carrying another payload."""
    shown = copy.copy(event)
    shown.payload = payload
    return shown
