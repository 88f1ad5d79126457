"""What the saga page's live regions show (its characters, NPCs, encounters, troupe and members), for the
page's view and for its pushes (`combat.saga_live`) alike, and a digest of it: a page and a frame of equal
digests show the same, so a page drawn just now swaps in nothing when its socket's first frame comes."""

from __future__ import annotations

import hashlib

from django.db.models import Count

from . import systems
from .models import Membership, Saga, who_plays

# The saga's records of its troupe: the core's kinds (combat.events.CoreKind) that the troupe region shows.
TROUPE_RECORDS = ("storyguide_made", "storyguide_removed", "lead_passed")
SHOWN_RECORDS = 3  # the newest, on the saga page; the saga's history keeps them all


def saga_regions(saga: Saga) -> dict:
    """What the saga page's live regions show, for both audiences (five queries)."""
    characters = list(saga.characters.select_related("owner").annotate(copies=Count("stamped_copies")))
    members = list(saga.memberships.select_related("user").order_by("role", "user__username"))
    encounters = list(saga.encounters.filter(archived_at__isnull=True).select_related("seat_holder"))
    records = saga.records.filter(kind__in=TROUPE_RECORDS).order_by("-created_at", "-id")[:SHOWN_RECORDS]
    return {
        "saga": saga,
        "system": systems.of(saga),
        "members": who_plays(saga, members, characters),
        "storyguides": troupe(saga, members, encounters),
        "troupe_records": list(records),
        "player_characters": [c for c in characters if not c.is_npc],
        "all_npcs": [c for c in characters if c.is_npc and not c.copies],
        "all_npc_templates": [c for c in characters if c.is_npc and c.copies],
        "encounters": encounters,
    }


def troupe(saga: Saga, members: list[Membership], encounters: list) -> list[Membership]:
    """The saga's storyguides, the lead first, each with `lead` and the names of the encounters whose seat
    they hold (`seats`)."""
    storyguides = [m for m in members if m.role == Membership.Role.STORYGUIDE]
    for member in storyguides:
        member.lead = member.user_id == saga.storyguide_id
        member.seats = [e.name for e in encounters if e.seat_holder_id == member.user_id]
    return sorted(storyguides, key=lambda m: (not m.lead, m.user.get_username()))


def troupe_key(saga: Saga, members: list[Membership]) -> str:
    """Who leads the saga and who are its storyguides, in a few characters: a change of it can change a
    person's place on the saga page (combat.consumers.SagaConsumer)."""
    storyguides = sorted(m.user_id for m in members if m.role == Membership.Role.STORYGUIDE)
    return f"{saga.storyguide_id}:{','.join(map(str, storyguides))}"


def shown(regions: dict) -> str:
    """A digest of everything the regions show (names, levels, roles, encounters' state): equal digests,
    equal frames. The saga's invite token keeps a new saga that reuses an old id apart."""
    saga, system = regions["saga"], regions["system"]
    characters = [
        (c.pk, c.name, c.is_npc, c.owner.get_username() if c.owner else "", c.copies, system.sheet.levels(c))
        for c in (*regions["player_characters"], *regions["all_npcs"], *regions["all_npc_templates"])
    ]
    members = [(m.user_id, m.user.get_username(), m.role) for m in regions["members"]]
    encounters = [(e.pk, e.name, e.status, e.round_number, e.seat_holder_id) for e in regions["encounters"]]
    records = [record.pk for record in regions["troupe_records"]]
    seen = (saga.pk, saga.invite_token, saga.name, saga.storyguide_id, characters, members, encounters)
    seen += (records,)
    return hashlib.blake2b(repr(seen).encode(), digest_size=16).hexdigest()
