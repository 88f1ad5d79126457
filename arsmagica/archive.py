"""Ars Magica's rows in a saga's archive: weapons, then each round's declarations; and the ids its JSON
names, given anew when an archive is imported (`combat.systems.Archive`)."""

from __future__ import annotations

from typing_extensions import override

from combat import systems
from combat.audience import without

from .models import Declaration, Weapon
from .presenters import screened_advantage

# Keys that name a combatant by id (or a list of them), wherever they are: payloads, the step in waiting,
# the round log (its `start` apart), declarations' `engage`.
COMBATANT = frozenset(
    {
        "combatant", "attacker", "defender", "caster", "target", "a", "b", "prevailed", "pursuer",
        "deaths", "engage", "extra_fatigue_rollers",
    }
)  # fmt: skip
# Objects keyed by combatant ("12"), or by attacker and defender ("12:14": `on_success` when an object).
BY_COMBATANT = frozenset({"dice", "names", "botch_dice", "modifiers", "ease_factors", "on_success"})
WEAPON = "arsmagica.weapon"
# The keys at the top of a payload that name a combatant besides `combatant` (`combat.systems.Archive`).
COMBATANT_KEYS = frozenset({"attacker", "defender", "caster"})


def _started(entry, ids):
    """One combatant's sheet and levels as its round began, with its id and its weapons' ids anew."""
    if not isinstance(entry, dict):
        return entry
    entry = {**entry, "id": ids.combatant(entry["id"])} if "id" in entry else entry
    if isinstance(entry.get("weapons"), list):
        entry["weapons"] = [
            {**weapon, "id": ids.id(WEAPON, weapon["id"])}
            if isinstance(weapon, dict) and type(weapon.get("id")) is int
            else weapon
            for weapon in entry["weapons"]
        ]
    return entry


class Archive(systems.Archive):
    """Ars Magica's part of a saga's archive: its declarations and weapons, and the ids its JSON names."""

    COMBATANT_KEYS = COMBATANT_KEYS
    BY_COMBATANT = BY_COMBATANT

    @override
    def archive_rows(self, saga) -> dict:
        """The saga's weapons and declarations, in the order an import makes them."""
        return {
            "arsmagica.weapon": Weapon.objects.filter(character__saga=saga),
            "arsmagica.declaration": Declaration.objects.filter(encounter__saga=saga),
        }

    @override
    def players_state(self, state: dict, is_npc: bool, npc_rolls: str) -> dict:
        """An NPC's carried advantage in a player's archive as the rolls it helps, its size (the margin of its
        success, ArM3 p168) behind the screen where the saga keeps NPC totals there, as on its card."""
        if not is_npc or not screened_advantage(npc_rolls):
            return state
        screened = [side for side in ("attack", "defense") if state.get(f"advantage_{side}")]
        shown = without(state, {"advantage_attack", "advantage_defense"})
        return {**shown, "advantage_screened": screened} if screened else shown

    @override
    def renumbered(self, where: str, value, ids):
        """Ars Magica's JSON with its ids given anew: a declaration's dice are by purpose and name nobody, its
        `engage` is a list of combatants' ids as numbers; the round log's `start` names each combatant as
        `id`, with its weapons by their rows' ids."""
        if where == "arsmagica.declaration.dice":
            return value
        if where == "arsmagica.declaration.engage" and isinstance(value, list):
            return [ids.combatant(each) for each in value]
        value = ids.walk(
            value, combatant=COMBATANT, by_combatant=BY_COMBATANT, character=frozenset({"character"})
        )
        if where == "round_log" and isinstance(value.get("start"), list):
            value["start"] = [_started(entry, ids) for entry in value["start"]]
        return value
