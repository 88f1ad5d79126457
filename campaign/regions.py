"""What the saga page's live regions show (its characters, NPCs, encounters and members), for the page's
view and for its pushes (`combat.saga_live`) alike, and a digest of it: a page and a frame of equal digests
show the same, so a page drawn just now swaps in nothing when its socket's first frame comes."""

from __future__ import annotations

import hashlib

from django.db.models import Count

from . import systems
from .models import Saga, who_plays


def saga_regions(saga: Saga) -> dict:
    """What the saga page's live regions show, for both audiences (three queries)."""
    characters = list(saga.characters.select_related("owner").annotate(copies=Count("stamped_copies")))
    members = list(saga.memberships.select_related("user").order_by("role", "user__username"))
    return {
        "saga": saga,
        "system": systems.of(saga),
        "members": who_plays(saga, members, characters),
        "player_characters": [c for c in characters if not c.is_npc],
        "all_npcs": [c for c in characters if c.is_npc and not c.copies],
        "all_npc_templates": [c for c in characters if c.is_npc and c.copies],
        "encounters": list(saga.encounters.filter(archived_at__isnull=True)),
    }


def shown(regions: dict) -> str:
    """A digest of everything the regions show (names, levels, roles, encounters' state): equal digests,
    equal frames. The saga's invite token keeps a new saga that reuses an old id apart."""
    saga, system = regions["saga"], regions["system"]
    characters = [
        (c.pk, c.name, c.is_npc, c.owner.get_username() if c.owner else "", c.copies, system.sheet.levels(c))
        for c in (*regions["player_characters"], *regions["all_npcs"], *regions["all_npc_templates"])
    ]
    members = [(m.user_id, m.user.get_username(), m.role) for m in regions["members"]]
    encounters = [(e.pk, e.name, e.status, e.round_number) for e in regions["encounters"]]
    seen = (saga.pk, saga.invite_token, saga.name, saga.storyguide_id, characters, members, encounters)
    return hashlib.blake2b(repr(seen).encode(), digest_size=16).hexdigest()
