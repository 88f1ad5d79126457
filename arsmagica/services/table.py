"""Where an encounter stands, as the rules' `Table`: made here only, for the commands and the panels."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from operator import attrgetter

from django.contrib.auth import get_user_model
from django.db.models import Prefetch, QuerySet

from arsmagica.models import Declaration, Weapon
from arsmagica.rules.table import RESOLVABLE, Table
from combat.models import Combatant, Encounter
from config.prepared import Prepared


def last_confirmed(round_log: dict) -> tuple[str, list[str]]:
    """The round's last phase the storyguide confirmed, and the phases that passed by themselves after
    it, latest first; ("", []) when no phase has been confirmed this round (Movement runs as
    declarations close and is not taken back)."""
    passed = []
    for step in reversed(round_log.get("phases", [])):
        if step.get("quiet"):
            passed.append(step["phase"])
        elif step["phase"] in RESOLVABLE:
            return step["phase"], passed
        else:
            break
    return "", []


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


@functools.cache
def _player_unshown() -> tuple[str, ...]:
    """Of a combatant's player the table shows the name they log in with (`get_username`): their other
    columns (the password's hash, the email, the dates) are left out of the combatants' read."""
    user = get_user_model()
    shown = {user._meta.pk.name, user.USERNAME_FIELD}
    return tuple(f"character__owner__{f.name}" for f in user._meta.concrete_fields if f.name not in shown)


def combatants_of(encounter: Encounter, *, weapons: bool = True) -> list[Combatant]:
    """The encounter's combatants in their order, with their characters, players (their names) and weapons
    in theirs (two queries). Both are put in order here, not by the database: for an ORDER BY, Django 5.2
    matches the ordering against every selected column, which cost a table read about a sixth of its
    time (docs/performance.md). `weapons=False`: one query, and a character's weapons are read when first
    asked for (`Weapon.of`), for a command that draws one card at most."""
    rows = (_COMBATANTS_WITH_WEAPONS if weapons else _COMBATANTS)(encounter=encounter.pk)
    combatants = sorted(rows, key=attrgetter(*Combatant._meta.ordering))
    for combatant in combatants:
        combatant.encounter = encounter  # as `encounter.combatants` gives them
    if weapons:
        for combatant in combatants:
            getattr(combatant.character, Weapon.READ_AS).sort(key=attrgetter(*Weapon._meta.ordering))
    return combatants


def declarations_in(
    encounter: Encounter, round_number: int, *, weapons: bool = False
) -> dict[int, Declaration]:
    """A round's declarations (ArM3 p163), by combatant id; in no order (the model's orders by a join to
    the combatants, which a lookup by combatant does not need: `CommandRead.declared` puts them in order).
    `weapons`: each with its weapon's row, for a page that names it (last round's, "same as last round");
    the rules, the forms and this round's panels go by `weapon_id`."""
    rows = (_DECLARATIONS_WITH_WEAPONS if weapons else _DECLARATIONS)(
        encounter=encounter.pk, round=round_number
    )
    return {declaration.combatant_id: declaration for declaration in rows}


def _combatants(encounter: int, *, weapons: bool) -> QuerySet:
    """`combatants_of`'s read, built once (`config.prepared`)."""
    rows = (
        Combatant.objects.filter(encounter=encounter)
        .order_by()
        .select_related("character", "character__owner")
        .defer(*_player_unshown())
    )
    if weapons:
        rows = rows.prefetch_related(
            Prefetch("character__weapons", Weapon.objects.order_by(), to_attr=Weapon.READ_AS)
        )
    return rows


def _declarations(encounter: int, round: int, *, weapons: bool) -> QuerySet:
    """`declarations_in`'s read, built once (`config.prepared`)."""
    rows = Declaration.objects.filter(encounter=encounter, round_number=round).order_by()
    return rows.select_related("weapon") if weapons else rows


# The command's reads of the table, compiled once a process: building and compiling their SQL was most of
# their CPU (docs/performance.md, "A command's CPU").
_COMBATANTS = Prepared(functools.partial(_combatants, weapons=False), "encounter")
_COMBATANTS_WITH_WEAPONS = Prepared(functools.partial(_combatants, weapons=True), "encounter")
_DECLARATIONS = Prepared(functools.partial(_declarations, weapons=False), "encounter", "round")
_DECLARATIONS_WITH_WEAPONS = Prepared(functools.partial(_declarations, weapons=True), "encounter", "round")


@dataclass(frozen=True)
class CommandRead:
    """What a command reads of its encounter once, under the lock: the combatants (as `combatants_of`),
    the declarations of the round it was read in, and the `Table` the rules decide from. A command
    makes its writes through these rows (a new declaration goes into `declarations`) and hands them to
    the push (`EventLog.save(read=...)`), which renders from them instead of reading them again; a
    declaration it deletes leaves `declarations` by `withdraw`, which keeps who it was for (`withdrawn`:
    the push shows who has declared again)."""

    combatants: list[Combatant]
    round_number: int
    declarations: dict[int, Declaration]
    table: Table
    withdrawn: set[int] = field(default_factory=set)

    def combatant(self, combatant_id) -> Combatant | None:
        """One of the encounter's combatants by id (as posted), or None."""
        try:
            wanted = int(combatant_id)
        except (TypeError, ValueError):
            return None
        return next((combatant for combatant in self.combatants if combatant.pk == wanted), None)

    def withdraw(self, combatant_id: int) -> None:
        """The combatant's declaration of this round, deleted by the command, is no longer in the read."""
        if self.declarations.pop(combatant_id, None) is not None:
            self.withdrawn.add(combatant_id)

    def declared(self) -> list[Declaration]:
        """This round's declarations in the combatants' order, each with its combatant (and character)."""
        rows = []
        for combatant in self.combatants:
            row = self.declarations.get(combatant.pk)
            if row is not None:
                row.combatant = combatant
                rows.append(row)
        return rows


@dataclass(frozen=True)
class Seen:
    """The combatants a command's view read before the command's lock (as `combatants_of`, with or without
    their weapons), at the encounter's `version` then: every change to the table bumps the version, so
    the command uses them when the locked row has the same version, and reads them again when not."""

    version: int
    combatants: list[Combatant]
    weapons: bool


def read_table(encounter: Encounter, *, weapons: bool = True, seen: Seen | None = None) -> CommandRead:
    """The encounter's combatants and this round's declarations, and its `Table` from them (three queries;
    two with `weapons=False`, as `combatants_of`; one fewer with what the view has `seen`, when nothing has
    changed since)."""
    current = seen is not None and seen.version == encounter.version and (seen.weapons or not weapons)
    combatants = seen.combatants if current else combatants_of(encounter, weapons=weapons)
    declarations = declarations_in(encounter, encounter.round_number)
    table = table_of(encounter, combatants, len(declarations))
    return CommandRead(combatants, encounter.round_number, declarations, table)
