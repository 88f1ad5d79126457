"""The coin duel's page and its one command, thin like every system's; with its panel, the table role."""

from __future__ import annotations

from django.shortcuts import render
from typing_extensions import override

from combat import systems
from combat.audience import STORYGUIDE
from combat.models import Encounter
from combat.views import encounter_command, posted_version, visible_log

from . import KEY, rules, services


def state_context(encounter, audience: str, facts=None) -> dict:
    """The duel's panel: who has how many hits, whether the storyguide may flip (never once it is over)."""
    duel, names = services.duel_of(encounter)
    return {
        "encounter": encounter,
        "audience": audience,
        "is_storyguide": audience == STORYGUIDE,
        "flips_offered": audience == STORYGUIDE and encounter.status != Encounter.Status.ENDED,
        "duellists": [(names[who], duel.hits.get(who, 0)) for who in duel.duellists],
        "cannot_flip": rules.can_flip(duel),
        "last_seq": encounter.last_seq,
    }


def encounter_page(request, encounter, audience):
    """The duel: the coins so far, the hits, and the storyguide's Flip button."""
    context = state_context(encounter, audience)
    context.update(events=visible_log(encounter, audience), ws_url=f"/ws/encounters/{encounter.pk}/")
    return render(request, "coinduel/table.html", context)


class Page(systems.Page):
    FRAME_TEMPLATE = "coinduel/_panels.html"

    @override
    def encounter_page(self, request, encounter, audience: str):
        return encounter_page(request, encounter, audience)

    @override
    def state_context(self, encounter, audience: str, facts=None) -> dict:
        return state_context(encounter, audience, facts)


@encounter_command(rule_system=KEY)
def flip(request, encounter):
    services.flip(request.user, encounter.pk, posted_version(request))
