"""What players see while the storyguide has rolled a phase and not yet confirmed it (ArM3 p163): "The
storyguide is rolling Melee…", and whose rolls these are, with each roll's dice where the saga's
`npc_rolls` setting shows them (a player character's always). No total: the storyguide may still change an
option before confirming, on the same dice. Made from the encounter's `pending` preview, so a reload shows it
too, and it goes as soon as the preview does (confirmed, or the encounter ended)."""

from __future__ import annotations

from combat.models import Encounter

from .presenters import SCREENED_WORDS, phase_name, players_attack, players_fatigue_roll, players_spell


def rolling_notice(encounter, combatants) -> dict | None:
    """The players' notice of the storyguide's pending preview, or None when nothing is being rolled."""
    pending = encounter.pending or {}
    if encounter.status != Encounter.Status.RUNNING or pending.get("round") != encounter.round_number:
        return None
    names = {str(combatant.pk): combatant.character.name for combatant in combatants}
    name = names.get
    players = {str(combatant.pk) for combatant in combatants if not combatant.character.is_npc}
    npc_rolls = encounter.saga.npc_rolls
    result = pending.get("result") or {}
    rolls = []
    for attack in result.get("attacks", []):
        shown = players_attack(attack, players, npc_rolls)
        words = f"{name(attack['attacker'])} attacks {name(attack['defender'])}"
        rolls.append((words, shown.get("attack_roll")))
    for spell in result.get("spells", []):
        shown = players_spell(spell, players, npc_rolls)
        rolls.append((f"{name(spell['caster'])} casts {spell.get('spell') or 'a spell'}", shown.get("roll")))
    for roll in result.get("fatigue", []):
        shown = players_fatigue_roll(roll, players, npc_rolls)
        rolls.append((f"{name(roll['combatant'])}: Fatigue roll", shown.get("roll")))
    return {
        "words": f"The storyguide is rolling {phase_name(pending.get('phase'))}…",
        "rolls": [{"words": words, "roll": roll} for words, roll in rolls],
        "screened": SCREENED_WORDS,
    }
