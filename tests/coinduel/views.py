"""The coin duel's page and its one command: thin, like every system's."""

from __future__ import annotations

from django.shortcuts import render

from combat import systems
from combat.views import encounter_command, posted_version, visible_log

from . import KEY, services


def table(request, encounter, audience):
    """The duel: the coins so far, the hits, and the storyguide's Flip button."""
    context = systems.get(KEY).state_context(encounter, audience)
    context.update(events=visible_log(encounter, audience), ws_url=f"/ws/encounters/{encounter.pk}/")
    return render(request, "coinduel/table.html", context)


@encounter_command(rule_system=KEY)
def flip(request, encounter):
    services.flip(request.user, encounter.pk, posted_version(request))
