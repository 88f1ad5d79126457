"""Where an encounter stands, as the rules' `Table`: made here only, for the commands and the panels."""

from __future__ import annotations

from arsmagica.models import Declaration
from arsmagica.rules.table import Table
from combat.models import Combatant, Encounter

from .round import last_confirmed


def table_of(
    encounter: Encounter, combatants: list[Combatant] | None = None, declared: int | None = None
) -> Table:
    """The encounter row as a `Table`; pass the combatants and the count of this round's declarations
    where they are already read, else they are counted here."""
    if combatants is None:
        sides = encounter.combatants.values("side").distinct().count()
    else:
        sides = len({combatant.side for combatant in combatants})
    if declared is None:
        this_round = Declaration.objects.filter(encounter=encounter, round_number=encounter.round_number)
        declared = this_round.count()
    pending = encounter.pending or {}
    return Table(
        status=encounter.status,
        phase=encounter.phase,
        round_number=encounter.round_number,
        pending_phase=(pending.get("phase") or "") if pending.get("round") == encounter.round_number else "",
        sides=sides,
        declared=declared,
        undoable=last_confirmed(encounter.round_log or {})[0],
    )
