"""An event read as one sentence, built from its fields: what a phone's pop-up shows and a screen reader
hears (issue 32). The core's kinds are said by their units (`combat.events`); a rule system's by its log.

The payload is the one the audience sees (`combat.audience`: a player's has an NPC's numbers left out
under the saga's setting), so a sentence says only what is there; `names` are the combatants' names as
the log named them at that step.
"""

from __future__ import annotations

from collections.abc import Mapping

from .events import CORE_BY_NAME


def sentence(system, kind: str, payload: dict, names: Mapping[str, str], *, storyguide: bool) -> str:
    """The event as one sentence for its audience: a core kind's by its unit (`combat.events`), the rule
    system's by its log (whose default asks the kind's unit); "" for a kind nobody declares a sentence for."""
    core = CORE_BY_NAME.get(kind)
    if core is not None:
        return core.sentence(payload, names or {}, storyguide=storyguide)
    return system.log.sentence(kind, payload, names or {}, storyguide=storyguide)
