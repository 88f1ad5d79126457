"""An event read as one sentence, built from its fields: what a phone's pop-up shows and a screen reader
hears (issue 32). The core's kinds are said here; a rule system's by its own `RuleSystem.sentence`.

The payload is the one the audience sees (`combat.audience`: a player's has an NPC's numbers left out
under the saga's setting), so a sentence says only what is there; `names` are the combatants' names as
the log named them at that step.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from .events import CoreKind


def plural(count, word: str) -> str:
    """1, "round" → "1 round"; 3 → "3 rounds"."""
    return f"{count} {word}{'' if count == 1 else 's'}"


def handed_over(p: dict) -> str:
    """A hand-over in words: "Ada is now played by bob.", or "Ada waits for a player who will join."."""
    if p["player"]:
        return f"{p['name']} is now played by {p['player']}."
    return f"{p['name']} waits for a player who will join."


CORE: dict[str, Callable[[dict], str]] = {
    CoreKind.ENCOUNTER_CREATED: lambda p: f"The storyguide set up {p['name']}.",
    CoreKind.COMBATANT_ADDED: lambda p: f"{p['name']} joins the fight on the side of {p['side']}.",
    CoreKind.COMBATANT_REMOVED: lambda p: f"{p['name']} leaves the fight.",
    CoreKind.COMBATANT_RENAMED: lambda p: f"{p['was']} is now called {p['name']}.",
    CoreKind.ENCOUNTER_ENDED: lambda p: f"The encounter is over after {plural(p['rounds'], 'round')}.",
    CoreKind.HANDED_OVER: lambda p: handed_over(p),
    CoreKind.RESET_LINK_MADE: lambda p: f"The storyguide made a one-time password link for {p['player']}.",
}


def sentence(system, kind: str, payload: dict, names: Mapping[str, str], *, storyguide: bool) -> str:
    """The event as one sentence for its audience: the core's kinds here, the rule system's by the system;
    "" for a kind nobody declares a sentence for."""
    said = CORE.get(kind)
    if said is not None:
        return said(payload)
    return system.log.sentence(kind, payload, names or {}, storyguide=storyguide)
