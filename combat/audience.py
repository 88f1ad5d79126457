"""Who sees what: the storyguide's audience and the players' audience of an encounter."""

from __future__ import annotations

import copy

from campaign.models import Membership, NpcRolls

from . import systems
from .access import holds_seat
from .models import Combatant, Encounter

STORYGUIDE = "storyguide"
PLAYERS = "players"
AUDIENCES = (STORYGUIDE, PLAYERS)


def audience_for(user, encounter: Encounter) -> str | None:
    """STORYGUIDE for whoever holds the encounter's seat, PLAYERS for every other member of its saga (its
    other storyguides too), None for anyone else."""
    if not user.is_authenticated:
        return None
    if holds_seat(user, encounter):
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


def player_ids(encounter: Encounter, combatants=None) -> tuple[set[str], set[str]]:
    """The ids (as strings) of the encounter's player characters' combatants, whose rolls are everyone's,
    and of those characters (a payload that names characters names them so). From `combatants` (with their
    characters) where a push has them, else read."""
    if combatants is not None:
        rows = [(c.pk, c.character_id) for c in combatants if not c.character.is_npc]
    else:
        found = Combatant.objects.filter(encounter=encounter, character__is_npc=False)
        rows = list(found.values_list("pk", "character_id"))
    return {str(pk) for pk, _ in rows}, {str(character) for _, character in rows}


def as_players_see(
    saga, events, players: set[str], own=frozenset(), characters: set[str] = frozenset()
) -> list:
    """The events with their payloads as players read them, as copies (the stored events are never
    edited): the rule system's `players_payload` at the saga's setting for NPC rolls, then its
    `players_record` for what names characters (`characters`: the player characters' ids). `own`: the
    reader's combatants, or a function of the event giving those it was written while the reader played
    (combat.played)."""
    system = systems.of(saga)
    shown = []
    for event in events:
        mine = own(event) if callable(own) else own
        event = _with_payload(event, system.log.players_payload(event, mine, players, saga.npc_rolls))
        event.payload = system.log.players_record(event, characters, saga.npc_rolls)
        shown.append(event)
    return shown


def _with_payload(event, payload: dict):
    """A copy of the event carrying another payload."""
    shown = copy.copy(event)
    shown.payload = payload
    return shown
