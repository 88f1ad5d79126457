"""Resolving a phase: preview (roll and record the dice, show the totals), confirm (run the
phase again on the same faces with the storyguide's options, log it, update the sheets),
and end the round (advantage carried, next round's declarations open)."""

from __future__ import annotations

from django.db import transaction

from arsmagica.events import Kind
from arsmagica.rules import OnSuccess
from arsmagica.rules import end_round as engine_end_round
from arsmagica.rules.table import NEXT_STEP, can_confirm_phase, can_end_round, can_preview_phase, can_undo
from combat.errors import InvalidCommand
from combat.models import Combatant, Event
from combat.rules.errors import RulesError
from combat.services.log import EventLog, lock_encounter, obey, require_storyguide_of

from ..sheet import carry, sheet_of, write
from .chosen import with_chosen
from .declarations import _sentence, begin_round
from .dice import plain_faces, recording_box, replay_box
from .guard import require_ars_magica
from .round import PHASE_FUNCTION, pass_quiet_phases, rebuild
from .sheets import fatigue_state_of, options_from_json, set_fatigue
from .table import CommandRead, last_confirmed, read_table

MAX_BOTCH_DICE = 10
OPTION_MAPS = ("botch_dice", "modifiers", "ease_factors")
# The rolls a phase logs, each kind with the engine's list of them.
ROLLS = ((Kind.ATTACK, "attacks"), (Kind.SPELL, "spells"), (Kind.FATIGUE_ROLL, "fatigue"))


def clean_options(raw: dict | None, names: dict[str, str]) -> dict:
    """The storyguide's options as JSON the engine reads, every value checked, messages with names."""
    raw = raw or {}
    options: dict = {}
    for key in OPTION_MAPS:
        values = {}
        for cid, value in (raw.get(key) or {}).items():
            cid = str(cid)
            if cid not in names:
                raise InvalidCommand("The options name someone who is not in this fight.")
            if value in ("", None):
                continue
            try:
                number = int(value)
            except (TypeError, ValueError):
                raise InvalidCommand(f"{names[cid]}: {value!r} is not a whole number.") from None
            if key == "botch_dice" and not 0 <= number <= MAX_BOTCH_DICE:
                raise InvalidCommand(f"{names[cid]}: botch dice go from 0 to {MAX_BOTCH_DICE}.")
            if key == "ease_factors" and not 0 <= number <= 60:
                raise InvalidCommand(f"{names[cid]}: an ease factor from 0 to 60, please.")
            if key == "modifiers" and not -60 <= number <= 60:
                raise InvalidCommand(f"{names[cid]}: a modifier from -60 to +60, please.")
            values[cid] = number
        if values:
            options[key] = values
    on_success = {}
    allowed = {choice.value for choice in OnSuccess}
    for pair, value in (raw.get("on_success") or {}).items():
        attacker, _, defender = str(pair).partition(":")
        if attacker not in names or defender not in names:
            raise InvalidCommand("The options name someone who is not in this fight.")
        if value not in allowed:
            raise InvalidCommand(f"{names[attacker]}: choose hit or advantage.")
        on_success[f"{attacker}:{defender}"] = value
    if on_success:
        options["on_success"] = on_success
    extra = [str(cid) for cid in raw.get("extra_fatigue_rollers") or () if str(cid) in names]
    if extra:
        options["extra_fatigue_rollers"] = extra
    return options


def _context(read: CommandRead):
    """The combatants, this round's declarations in order, and the combatants' names by id."""
    combatants = read.combatants
    names = {str(c.pk): c.character.name for c in combatants}
    return combatants, read.declared(), names


def preview_phase(
    user,
    encounter_id: int,
    expected_version: int,
    phase: str,
    options: dict | None = None,
    faces: dict | None = None,
) -> dict:
    """Roll the phase's dice (or take the typed faces), keep them in `pending`, and return the
    totals; a second preview of the same phase keeps the same faces and applies new options."""
    with transaction.atomic():
        encounter = lock_encounter(encounter_id, expected_version)
        require_ars_magica(encounter)
        require_storyguide_of(user, encounter)
        read = read_table(encounter)
        obey(can_preview_phase(read.table, phase))
        combatants, declarations, names = _context(read)
        options_json = clean_options(options, names)
        physical = encounter.saga.physical_dice
        pending = encounter.pending or {}
        same = pending.get("phase") == phase and pending.get("round") == encounter.round_number
        if same:
            recorded = pending["dice"]
            for cid, by_purpose in (faces or {}).items():
                recorded.setdefault(cid, {}).update(by_purpose)
            box = replay_box(recorded, names, physical=physical)
        else:
            typed = {str(row.combatant_id): dict(row.dice) for row in declarations}
            for cid, by_purpose in (faces or {}).items():
                typed.setdefault(cid, {}).update(by_purpose)
            box = recording_box(physical, typed, names)
        state = rebuild(encounter, combatants, declarations)
        try:
            _, result = PHASE_FUNCTION[phase](state, box, options_from_json(options_json))
        except RulesError as error:
            raise InvalidCommand(_sentence(str(error))) from None
        encounter.pending = {
            "round": encounter.round_number,
            "phase": phase,
            "dice": plain_faces(box.faces),
            "options": options_json,
            "result": result.to_dict(),
        }
        log = EventLog(encounter, user)
        log.append(
            Kind.PHASE_PREVIEWED,
            {
                "phase": phase,
                "dice": encounter.pending["dice"],
                "options": options_json,
                "result": result.to_dict(),
            },
            storyguide_only=True,
        )
        log.save("pending", read=read)
    return encounter.pending


def confirm_phase(user, encounter_id: int, expected_version: int, phase: str, options: dict | None = None):
    """Run the previewed phase again on its recorded faces with the storyguide's options:
    append its events, update fatigue and body levels, move to the next phase."""
    with transaction.atomic():
        encounter = lock_encounter(encounter_id, expected_version)
        require_ars_magica(encounter)
        require_storyguide_of(user, encounter)
        read = read_table(encounter)
        obey(can_confirm_phase(read.table, phase))
        pending = encounter.pending
        combatants, declarations, names = _context(read)
        options_json = clean_options(options, names) if options is not None else pending.get("options", {})
        physical = encounter.saga.physical_dice
        state = rebuild(encounter, combatants, declarations)
        box = replay_box(pending["dice"], names, physical=physical)
        try:
            new_state, result = PHASE_FUNCTION[phase](state, box, options_from_json(options_json))
        except RulesError as error:
            raise InvalidCommand(_sentence(str(error))) from None
        faces = plain_faces(box.faces)
        round_log = dict(encounter.round_log)
        round_log["phases"] = list(round_log.get("phases", [])) + [
            {"phase": phase, "dice": faces, "options": options_json}
        ]
        encounter.round_log = round_log
        encounter.pending = {}
        log = EventLog(encounter, user)
        data = result.to_dict()
        declared = {str(row.combatant_id): row.on_success for row in declarations}
        for kind, records in ROLLS:
            for record in data[records]:
                log.append(kind, with_chosen(kind, record, options_json, declared))
        for skip in data["skipped"]:
            log.append(Kind.SKIPPED, skip)
        levels = _save_levels(combatants, new_state)
        log.append(
            Kind.PHASE_RESOLVED,
            {
                "phase": phase,
                "deaths": data["deaths"],
                "levels": levels,
                "options": options_json,
                "dice": faces,
            },
        )
        encounter.phase = NEXT_STEP[phase]
        pass_quiet_phases(encounter, log, new_state)
        events = log.save("round_log", "pending", "phase", read=read)
    return events


def undo_phase(user, encounter_id: int, expected_version: int, reason: str) -> list[Event]:
    """Take back the round's last confirmed phase, with a reason shown to everyone [ours].

    The round goes back to that phase, rolled and not confirmed: its dice and options return as the
    storyguide's preview; the empty phases that passed by themselves after it are taken back with it;
    each combatant the phase changed gets back the levels it had before, unless a correction has
    changed them since (the correction stands). Nothing in the log is edited: a `phase_undone` event
    says what was taken back.
    """
    reason = (reason or "").strip()
    if not reason:
        raise InvalidCommand("Say why: an undo needs a reason, shown to everyone.")
    with transaction.atomic():
        encounter = lock_encounter(encounter_id, expected_version)
        require_ars_magica(encounter)
        require_storyguide_of(user, encounter)
        read = read_table(encounter)
        obey(can_undo(read.table))
        phase, passed = last_confirmed(encounter.round_log)
        steps = list(encounter.round_log["phases"])
        undone = steps[len(steps) - len(passed) - 1]
        resolved = (
            encounter.events.filter(
                kind=Kind.PHASE_RESOLVED, round_number=encounter.round_number, payload__phase=phase
            )
            .order_by("-seq")
            .first()
        )
        combatants, declarations, names = _context(read)
        levels = _restore_levels(combatants, resolved.payload["levels"] if resolved else [])
        encounter.round_log = {**encounter.round_log, "phases": steps[: len(steps) - len(passed) - 1]}
        encounter.phase = phase
        state = rebuild(encounter, combatants, declarations)
        box = replay_box(undone["dice"], names, physical=encounter.saga.physical_dice)
        try:
            _, result = PHASE_FUNCTION[phase](state, box, options_from_json(undone["options"]))
        except RulesError as error:
            raise InvalidCommand(_sentence(str(error))) from None
        encounter.pending = {
            "round": encounter.round_number,
            "phase": phase,
            "dice": undone["dice"],
            "options": undone["options"],
            "result": result.to_dict(),
        }
        log = EventLog(encounter, user)
        log.append(
            Kind.PHASE_UNDONE, {"phase": phase, "passed": passed, "levels": levels, "reason": reason[:500]}
        )
        log.append(
            Kind.PHASE_PREVIEWED,
            {
                "phase": phase,
                "dice": undone["dice"],
                "options": undone["options"],
                "result": result.to_dict(),
            },
            storyguide_only=True,
        )
        events = log.save("round_log", "pending", "phase", read=read)
    return events


def _restore_levels(combatants: list[Combatant], changed: list[dict]) -> list[dict]:
    """Put back the levels a phase changed (its `phase_resolved` event's [before, after]) where the row
    still holds what the phase left; return what changed, each as [before the undo, after]."""
    rows = {str(c.pk): c for c in combatants}
    restored = []
    for entry in changed:
        row = rows.get(entry["combatant"])
        if row is None:
            continue
        character = row.character
        sheet = sheet_of(character)
        now = {"fatigue_level": sheet.fatigue_level, "body_level": sheet.body_level}
        back = {
            key: entry[key][0] if now[key] == entry[key][1] else now[key]
            for key in ("fatigue_level", "body_level")
        }
        if back == now:
            continue
        write(character, **back)
        set_fatigue(character, fatigue_state_of(character))  # the levels the phase lost go first
        character.save(update_fields=["sheet"])
        restored.append({"combatant": entry["combatant"], **{key: [now[key], back[key]] for key in now}})
    return restored


def _save_levels(combatants: list[Combatant], state) -> list[dict]:
    """Write the engine's levels to the character rows; return what changed."""
    rows = {str(c.pk): c for c in combatants}
    changed = []
    for combatant_state in state.combatants:
        row = rows.get(combatant_state.id)
        if row is None:
            continue
        character = row.character
        sheet = sheet_of(character)
        fatigue, body = combatant_state.fatigue_level.value, combatant_state.body_level.value
        if (sheet.fatigue_level, sheet.body_level) != (fatigue, body):
            changed.append(
                {
                    "combatant": combatant_state.id,
                    "fatigue_level": [sheet.fatigue_level, fatigue],
                    "body_level": [sheet.body_level, body],
                }
            )
            set_fatigue(character, combatant_state.fatigue)
            write(character, body_level=body)
            character.save(update_fields=["sheet"])
    return changed


def end_round(user, encounter_id: int, expected_version: int) -> list[Event]:
    """End the round: advantage won carries into the next round (ArM3 p168); declarations open."""
    with transaction.atomic():
        encounter = lock_encounter(encounter_id, expected_version)
        require_ars_magica(encounter)
        require_storyguide_of(user, encounter)
        read = read_table(encounter)
        obey(can_end_round(read.table))
        combatants, declarations, names = _context(read)
        state = rebuild(encounter, combatants, declarations)
        try:
            next_state = engine_end_round(state)
        except RulesError as error:
            raise InvalidCommand(_sentence(str(error))) from None
        rows = {str(c.pk): c for c in combatants}
        advantages = []
        for combatant_state in next_state.combatants:
            row = rows.get(combatant_state.id)
            if row is None:
                continue
            attack, defense = combatant_state.advantage_attack, combatant_state.advantage_defense
            carry(row, advantage_attack=attack, advantage_defense=defense)
            row.save(update_fields=["state"])
            if attack or defense:
                advantages.append({"combatant": row_id(row), "attack": attack, "defense": defense})
        log = EventLog(encounter, user)
        log.append(Kind.ROUND_ENDED, {"round": encounter.round_number, "advantages": advantages})
        begin_round(encounter, log, combatants)
        events = log.save("status", "round_number", "phase", "pending", "round_log", read=read)
    return events


def row_id(row: Combatant) -> str:
    return str(row.pk)
