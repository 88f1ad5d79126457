"""The d6 system's rows in a saga's archive: fights and their fighters, chases and their runners; and the
ids its JSON names, given anew when an archive is imported (`combat.systems.Archive`)."""

from __future__ import annotations

from typing_extensions import override

from combat import systems

from .models import Chase, Fight, Fighter, Runner

# Keys that name a combatant by id, wherever they are: payloads, a fight's defence and queue, a chase's
# last exchange. (`dropped_out`, `lost_sight`, `moved_ahead` and `defence_lapsed` are names; `chase` is
# the chase's number in its encounter; `chooser` a username.)
COMBATANT = frozenset(
    {
        "combatant", "target", "turn_of", "ended", "next", "defends_against", "runner", "mover", "chaser",
        "caught_by", "attacker", "defender",
    }
)  # fmt: skip
BY_COMBATANT = frozenset({"distances_before", "distances_after"})
# The keys at the top of a payload that name a combatant besides `combatant` (`combat.systems.Archive`).
COMBATANT_KEYS = frozenset({"target", "mover", "chaser", "runner"})


class Archive(systems.Archive):
    """The d6 part of a saga's archive: its fights and chases, and the ids its JSON names."""

    COMBATANT_KEYS = COMBATANT_KEYS
    BY_COMBATANT = BY_COMBATANT

    @override
    def archive_rows(self, saga) -> dict:
        """The saga's fights, fighters, chases and runners, in the order an import makes them."""
        return {
            "d6table.fight": Fight.objects.filter(encounter__saga=saga),
            "d6table.fighter": Fighter.objects.filter(fight__encounter__saga=saga),
            "d6table.chase": Chase.objects.filter(encounter__saga=saga),
            "d6table.runner": Runner.objects.filter(chase__encounter__saga=saga),
        }

    @override
    def renumbered(self, where: str, value, ids):
        """The d6 system's JSON with the combatants it names given anew."""
        return ids.walk(value, combatant=COMBATANT, by_combatant=BY_COMBATANT)
