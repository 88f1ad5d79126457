"""The storyguide's corrections: a new event with a reason, never an edit of an old one."""

from __future__ import annotations

from django.db import transaction

from arsmagica.events import Kind
from arsmagica.rules.table import can_correct
from combat.errors import InvalidCommand
from combat.models import Event
from combat.services.log import EventLog, lock_encounter, obey, require_storyguide_of

from ..models import BodyLevel, FatigueLevel
from ..sheet import carried, carry, sheet_of, write
from .guard import require_ars_magica
from .round import restarted
from .sheets import fatigue_state_of, set_fatigue
from .table import read_table

LEVELS = ("fatigue_level", "body_level")
CORRECTABLE = (*LEVELS, "advantage_attack", "advantage_defense")


def correct(
    user, encounter_id: int, expected_version: int, combatant_id: int, changes: dict, reason: str
) -> Event:
    """Set a combatant's fatigue or body level or carried advantage, with a reason shown to everyone."""
    reason = (reason or "").strip()
    if not reason:
        raise InvalidCommand("Say why: a correction needs a reason, shown to everyone.")
    changes = {key: value for key, value in (changes or {}).items() if value not in ("", None)}
    unknown = set(changes) - set(CORRECTABLE)
    if unknown:
        raise InvalidCommand(f"Cannot correct {', '.join(sorted(unknown))}.")
    if not changes:
        raise InvalidCommand("Choose what to correct.")
    if "fatigue_level" in changes and changes["fatigue_level"] not in FatigueLevel.values:
        raise InvalidCommand("Choose a fatigue level from the list.")
    if "body_level" in changes and changes["body_level"] not in BodyLevel.values:
        raise InvalidCommand("Choose a body level from the list.")
    for key in ("advantage_attack", "advantage_defense"):
        if key in changes:
            try:
                changes[key] = int(changes[key])
            except (TypeError, ValueError):
                raise InvalidCommand("Advantage is a whole number.") from None
            if not 0 <= changes[key] <= 100:
                raise InvalidCommand("Advantage goes from 0 to 100.")
    with transaction.atomic():
        encounter = lock_encounter(encounter_id, expected_version)
        require_ars_magica(encounter)
        require_storyguide_of(user, encounter)
        read = read_table(encounter, weapons=False)  # its push draws the corrected card alone
        obey(can_correct(read.table))
        combatant = read.combatant(combatant_id)
        if combatant is None:
            raise InvalidCommand("That combatant is not in this encounter.")
        character = combatant.character
        sheet = sheet_of(character)
        advantage = carried(combatant)
        applied, levels, advantages = {}, {}, {}
        for key, value in changes.items():
            old = getattr(sheet, key) if key in LEVELS else getattr(advantage, key)
            if old != value:
                applied[key] = [old, value]
                (levels if key in LEVELS else advantages)[key] = value
        if not applied:
            raise InvalidCommand(f"{character.name} is already like that; nothing to correct.")
        if levels:
            write(character, **levels)
            if "fatigue_level" in levels:  # the stored levels follow: cut, or topped up short-term
                set_fatigue(character, fatigue_state_of(character))
            character.save(update_fields=["sheet"])
        if advantages:
            carry(combatant, **advantages)
            combatant.save(update_fields=["state"])
        log = EventLog(encounter, user)
        event = log.append(
            Kind.CORRECTION,
            {
                "combatant": str(combatant.pk),
                "name": character.name,
                "changes": applied,
                "reason": reason[:500],
            },
        )
        log.save(*restarted(encounter, [combatant], read), read=read)
    return event
