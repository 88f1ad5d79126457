"""The round as the engine sees it, rebuilt from rows: the round's start, its declarations,
and every confirmed phase run again on its recorded faces (the engine is pure, so the same
faces give the same state). Levels are then taken from the rows, where corrections land."""

from __future__ import annotations

from dataclasses import replace

from arsmagica.models import Declaration, Phase
from arsmagica.rules import (
    PHASE_FUNCTIONS,
    RoundState,
    ScriptedDiceBox,
    declare,
)
from arsmagica.rules.quiet import quiet_phase
from arsmagica.rules.table import NEXT_STEP
from combat.errors import InvalidCommand
from combat.models import Combatant, Encounter
from combat.rules.errors import RulesError

from .sheets import combatant_state, declaration_of, options_from_json, sheet_snapshot, with_levels
from .table import CommandRead

PHASE_FUNCTION = {function.__name__.removesuffix("_phase"): function for function in PHASE_FUNCTIONS}


def start_log(combatants: list[Combatant]) -> dict:
    """The round log at the start of a round: every combatant's sheet and levels, no phase yet."""
    return {"start": [{"id": str(c.pk), **sheet_snapshot(c)} for c in combatants], "phases": []}


def pass_quiet_phases(encounter: Encounter, log, state: RoundState) -> RoundState:
    """Phases nobody acts in pass by themselves, each as one `phase_resolved` event marked quiet and a
    round-log step with no dice (rebuilt like any other); the round stops at the first phase with
    something to roll, or at Fatigue (ArM3 p163, p168) [ours]."""
    from arsmagica.events import Kind

    while (after := quiet_phase(state)) is not None:
        phase = state.phase.value
        round_log = dict(encounter.round_log)
        round_log["phases"] = [
            *round_log.get("phases", []),
            {"phase": phase, "dice": {}, "options": {}, "quiet": True},
        ]
        encounter.round_log = round_log
        encounter.phase = phase  # the event belongs to the phase that passed
        log.append(
            Kind.PHASE_RESOLVED,
            {"phase": phase, "deaths": [], "levels": [], "options": {}, "dice": {}, "quiet": True},
        )
        encounter.phase = NEXT_STEP[phase]
        state = after
    return state


def snapshots(encounter: Encounter) -> dict[str, dict]:
    return {entry["id"]: entry for entry in encounter.round_log.get("start", [])}


def rebuild(encounter: Encounter, combatants: list[Combatant], declarations: list[Declaration]) -> RoundState:
    """The engine's RoundState after the confirmed phases of the current round."""
    start = snapshots(encounter)
    try:
        state = RoundState(
            encounter.round_number, tuple(combatant_state(cid, snapshot) for cid, snapshot in start.items())
        )
        state = declare(state, [declaration_of(row, start[str(row.combatant_id)]) for row in declarations])
        for step in encounter.round_log.get("phases", []):
            state, _ = PHASE_FUNCTION[step["phase"]](
                state, ScriptedDiceBox(step["dice"]), options_from_json(step["options"])
            )
    except RulesError as error:
        raise InvalidCommand(f"This round cannot be rebuilt from its log: {error}") from None
    rows = {str(c.pk): c.character for c in combatants}
    return replace(
        state,
        combatants=tuple(with_levels(c, rows[c.id]) if c.id in rows else c for c in state.combatants),
    )


def restarted(encounter: Encounter, combatants: list[Combatant], read: CommandRead) -> list[str]:
    """A change of levels while declarations are open (a correction, time passing, exertion) is where the
    round starts for those combatants: their entries in the round's start are taken again (no phase has
    been rolled on the old ones), and a declaration one of them can no longer carry out is withdrawn
    (ArM3 p177: the incapacitated cannot act), in the database and in the command's `read`, which the
    push renders."""
    if encounter.phase != Phase.DECLARING:
        return []
    entries = {}
    for combatant in combatants:
        entry = {"id": str(combatant.pk), **sheet_snapshot(combatant)}
        entries[entry["id"]] = entry
        if combatant.pk in read.declarations and not combatant_state(entry["id"], entry).can_act:
            read.declarations[combatant.pk].delete()
            read.withdraw(combatant.pk)
    start = [entries.get(each["id"], each) for each in encounter.round_log.get("start", [])]
    encounter.round_log = {**encounter.round_log, "start": start}
    return ["round_log"]


def combatants_changed(encounter: Encounter) -> list[str]:
    """Combatants joined or left: no declaration engages one that left; while declarations are open,
    the round's start records who is in it now (those there before keep their entries)."""
    present = {str(pk) for pk in encounter.combatants.values_list("pk", flat=True)}
    for row in Declaration.objects.filter(encounter=encounter, round_number=encounter.round_number):
        kept = [target for target in row.engage if str(target) in present]
        if kept != row.engage:
            row.engage = kept
            row.save(update_fields=["engage"])
    if encounter.phase != Phase.DECLARING:
        return []
    start = snapshots(encounter)
    joined = [c for c in encounter.combatants.select_related("character") if str(c.pk) not in start]
    round_log = dict(encounter.round_log)
    stayed = [entry for cid, entry in start.items() if cid in present]
    round_log["start"] = stayed + start_log(joined)["start"]
    encounter.round_log = round_log
    return ["round_log"]
