"""Where an encounter stands, as the rules' `Table`: made here only, for the commands and the panels."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Prefetch

from arsmagica.models import Declaration, Weapon
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


def combatants_of(encounter: Encounter) -> list[Combatant]:
    """The encounter's combatants with their characters, players and weapons (two queries)."""
    return list(
        encounter.combatants.select_related("character", "character__owner").prefetch_related(
            Prefetch("character__weapons", queryset=Weapon.objects.order_by("id"))
        )
    )


def declarations_in(encounter: Encounter, round_number: int) -> dict[int, Declaration]:
    """A round's declarations (ArM3 p163), by combatant id."""
    rows = Declaration.objects.filter(encounter=encounter, round_number=round_number).select_related("weapon")
    return {declaration.combatant_id: declaration for declaration in rows}


@dataclass(frozen=True)
class TableRead:
    """What a command reads of its encounter once, under the lock: the combatants (as `combatants_of`),
    this round's declarations and the `Table` the rules decide from. A command that writes through
    these combatants hands them to the push (`EventLog.save(combatants=...)`)."""

    combatants: list[Combatant]
    declarations: dict[int, Declaration]
    table: Table

    def combatant(self, combatant_id) -> Combatant | None:
        """One of the encounter's combatants by id (as posted), or None."""
        try:
            wanted = int(combatant_id)
        except (TypeError, ValueError):
            return None
        return next((combatant for combatant in self.combatants if combatant.pk == wanted), None)


    def declared(self) -> list[Declaration]:
        """This round's declarations in their order, each with its combatant (and character) from these."""
        by_id = {combatant.pk: combatant for combatant in self.combatants}
        rows = list(self.declarations.values())
        for row in rows:
            row.combatant = by_id[row.combatant_id]
        return rows


def read_table(encounter: Encounter) -> TableRead:
    """The encounter's combatants and this round's declarations, and its `Table` from them (three queries)."""
    combatants = combatants_of(encounter)
    declarations = declarations_in(encounter, encounter.round_number)
    return TableRead(combatants, declarations, table_of(encounter, combatants, len(declarations)))
