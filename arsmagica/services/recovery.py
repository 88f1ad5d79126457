"""Recovering Fatigue over in-game time (ArM3 p177): the storyguide lets time pass for everyone in
the scene, sends them to sleep, or records a long-term exertion on one character.

The scene is an encounter's combatants (from its page: before the fight, between rounds, after it)
or characters the storyguide picks on the saga page. What happened is an event in the encounter's
log, pushed to every screen; with no encounter, a `SagaRecord` in the saga's history. Characters
still in an unfinished encounter rest from that encounter's page, so nothing is recorded twice.
Every rule (the chart, activity, the Stamina roll, sleep, long-term levels) is the engine's.
"""

from __future__ import annotations

from django.db import transaction

from arsmagica.events import Kind
from arsmagica.rules import (
    Exertion,
    Recovery,
    lose_fatigue_levels,
    night_of_sleep,
    recover,
    stamina_roll,
)
from arsmagica.rules.table import can_pass_time
from campaign.access import is_a_storyguide
from campaign.models import Character, Saga
from combat.errors import InvalidCommand, NotAllowed
from combat.models import Encounter, Event, SagaRecord
from combat.rules.dice import ScriptedDice
from combat.rules.errors import RulesError
from combat.services.log import (
    EventLog,
    claim_command,
    lock_encounter,
    obey,
    record_for_saga,
    require_storyguide_of,
)

from .. import KEY
from ..models import BodyLevel
from ..sheet import sheet_of
from . import dice as dice_module
from .round import restarted
from .sheets import fatigue_state_of, level_penalties, set_fatigue
from .table import read_table, table_of

MAX_MINUTES = 7 * 24 * 60
STAMINA_MODES = ("none", "server", "typed")


class Scene:
    """Where time passes: an encounter (locked) or a saga, and its characters (locked)."""

    def __init__(self, saga: Saga, characters: list[Character], encounter: Encounter | None) -> None:
        self.saga = saga
        self.characters = characters
        self.encounter = encounter

    def record(self, user, kind: str, payload: dict) -> Event | SagaRecord:
        """The change, once the characters are saved: on an encounter, an event, and while declarations
        are open the round starts again at the new levels for everyone in it (`round.restarted`: the
        declaration of one who can no longer act is withdrawn); on the saga, its record."""
        if self.encounter is not None:
            log = EventLog(self.encounter, user)
            event = log.append(kind, payload)
            read = read_table(self.encounter)
            log.save(*restarted(self.encounter, read.combatants, read), read=read)
            return event
        return record_for_saga(self.saga, kind, payload, user)


def _encounter_scene(user, encounter_id: int, expected_version: int | None) -> Scene:
    encounter = lock_encounter(encounter_id, expected_version)
    require_storyguide_of(user, encounter)
    if encounter.saga.rule_system != KEY:
        raise InvalidCommand("Fatigue recovery is an Ars Magica rule; this saga plays another system.")
    obey(can_pass_time(table_of(encounter)))
    ids = encounter.combatants.values_list("character_id", flat=True)
    characters = list(
        Character.objects.select_for_update().filter(pk__in=list(ids)).order_by("is_npc", "name")
    )
    return Scene(encounter.saga, characters, encounter)


def _saga_scene(user, saga_id: int, character_ids, command_key: str | None) -> Scene:
    try:
        saga = Saga.objects.select_for_update().get(pk=saga_id)
    except (Saga.DoesNotExist, ValueError, TypeError):
        raise NotAllowed("There is no such saga.") from None
    if not is_a_storyguide(user, saga):
        raise NotAllowed("Only the saga's storyguides can let time pass.")
    claim_command(saga, command_key)
    if saga.rule_system != KEY:
        raise InvalidCommand("Fatigue recovery is an Ars Magica rule; this saga plays another system.")
    try:
        wanted = {int(pk) for pk in character_ids or ()}
    except (TypeError, ValueError):
        raise InvalidCommand("Choose characters from the list.") from None
    if not wanted:
        raise InvalidCommand("Choose who is in the scene.")
    characters = list(
        Character.objects.select_for_update().filter(saga=saga, pk__in=wanted).order_by("is_npc", "name")
    )
    if len(characters) != len(wanted):
        raise InvalidCommand("Choose characters of this saga.")
    templates = Character.objects.filter(pk__in=wanted, stamped_copies__isnull=False).values_list("name")
    for (name,) in templates.distinct():
        raise InvalidCommand(f"{name} is an NPC template: choose the NPCs stamped from it.")
    busy = (
        Encounter.objects.filter(saga=saga, combatants__character__in=characters)
        .exclude(status=Encounter.Status.ENDED)
        .values_list("name", "combatants__character__name")
    )
    for encounter_name, character_name in busy:
        raise InvalidCommand(
            f"{character_name} is in “{encounter_name}”, which is not over: let time pass from its page."
        )
    return Scene(saga, characters, None)


def _scene(user, encounter_id, expected_version, saga_id, character_ids, command_key) -> Scene:
    if encounter_id is not None:
        return _encounter_scene(user, encounter_id, expected_version)
    return _saga_scene(user, saga_id, character_ids, command_key)


def _resting(scene: Scene) -> list[Character]:
    """Everyone in the scene but the dead [ours]."""
    return [c for c in scene.characters if sheet_of(c).body_level != BodyLevel.DEAD]


def _entry(character: Character, before: str, recovery: Recovery) -> dict:
    return {
        "character": character.pk,
        "name": character.name,
        "from": before,
        "to": recovery.fatigue.level.value,
        "steps": [
            {
                "from": step.from_level.value,
                "to": step.to_level.value,
                "after_minutes": step.after_seconds // 60,
            }
            for step in recovery.steps
        ],
        "blocked_by_long_term": recovery.blocked_by_long_term,
        "rested_seconds": recovery.fatigue.recovery_seconds,
    }


def _stamina(character: Character, mode: str, typed: dict) -> tuple:
    """The optional Stamina roll against 9 (ArM3 p177): None, or (StaminaRoll, its JSON)."""
    state = fatigue_state_of(character)
    if mode == "none" or not state.lost or state.lost[-1] is not Exertion.SHORT_TERM:
        return None, None  # nothing rest can recover: no roll (long-term levels allow none)
    if mode == "server":
        dice = dice_module.server_dice()
    else:
        face = typed.get(str(character.pk), typed.get(character.pk))
        if face in (None, ""):
            raise InvalidCommand(f"Type {character.name}'s Stamina roll (one d10; a ten is 0).")
        faces = dice_module.parse_faces(str(face), f"{character.name}'s Stamina roll")
        if len(faces) != 1:
            raise InvalidCommand(f"{character.name}'s Stamina roll is one simple die: type one face.")
        dice = ScriptedDice(faces)
    roll = stamina_roll(dice, sheet_of(character).stamina, sum(level_penalties(character)))
    return roll, {
        "face": roll.roll.face,
        "value": roll.roll.value,
        "stamina": sheet_of(character).stamina,
        "total": roll.total,
        "ease_factor": roll.ease_factor,
        "success": roll.success,
    }


def pass_time(
    user,
    minutes,
    *,
    active: bool = False,
    stamina: str = "none",
    typed_faces: dict | None = None,
    encounter_id: int | None = None,
    expected_version: int | None = None,
    saga_id: int | None = None,
    character_ids=None,
    command_key: str | None = None,
):
    """N minutes pass for everyone in the scene, resting quietly or staying active; each recovers
    Fatigue by the chart, faster with a successful Stamina roll (rolled by the server or typed)."""
    try:
        minutes = int(minutes)
    except (TypeError, ValueError):
        raise InvalidCommand("How many minutes pass? A whole number, please.") from None
    if not 1 <= minutes <= MAX_MINUTES:
        raise InvalidCommand(f"From 1 minute to a week ({MAX_MINUTES} minutes), please.")
    if stamina not in STAMINA_MODES:
        raise InvalidCommand("Stamina rolls: none, rolled by the server, or typed in.")
    with transaction.atomic():
        scene = _scene(user, encounter_id, expected_version, saga_id, character_ids, command_key)
        entries = []
        for character in _resting(scene):
            roll, roll_json = _stamina(character, stamina, typed_faces or {})
            before = sheet_of(character).fatigue_level
            try:
                recovery = recover(fatigue_state_of(character), minutes, active=active, stamina=roll)
            except RulesError as error:
                raise InvalidCommand(str(error)) from None
            set_fatigue(character, recovery.fatigue)
            character.save(update_fields=["sheet"])
            entries.append({**_entry(character, before, recovery), "stamina": roll_json})
        return scene.record(
            user, Kind.TIME_PASSED, {"minutes": minutes, "active": bool(active), "characters": entries}
        )


def sleep_night(
    user,
    *,
    good_meal: bool = True,
    encounter_id: int | None = None,
    expected_version: int | None = None,
    saga_id: int | None = None,
    character_ids=None,
    command_key: str | None = None,
):
    """A night's sleep for everyone in the scene: with a good meal every level comes back, long-term
    ones too; without, eight hours of rest by the chart [ours] (ArM3 p177)."""
    with transaction.atomic():
        scene = _scene(user, encounter_id, expected_version, saga_id, character_ids, command_key)
        entries = []
        for character in _resting(scene):
            before = sheet_of(character).fatigue_level
            recovery = night_of_sleep(fatigue_state_of(character), good_meal=good_meal)
            set_fatigue(character, recovery.fatigue)
            character.save(update_fields=["sheet"])
            entries.append(_entry(character, before, recovery))
        return scene.record(
            user, Kind.NIGHT_OF_SLEEP, {"good_meal": bool(good_meal), "characters": entries}
        )


def record_exertion(
    user,
    character_id,
    levels,
    what: str,
    *,
    encounter_id: int | None = None,
    expected_version: int | None = None,
    saga_id: int | None = None,
    command_key: str | None = None,
):
    """Fatigue levels lost to long-term exertion (a day's march, heavy labour): they come back only
    with a good meal and a night's sleep (ArM3 p177)."""
    what = (what or "").strip()[:200]
    if not what:
        raise InvalidCommand("Say what tired them: “a day's march”, “heavy labour”…")
    try:
        levels = int(levels)
    except (TypeError, ValueError):
        raise InvalidCommand("How many Fatigue levels? A whole number, please.") from None
    if not 1 <= levels <= 5:
        raise InvalidCommand("From 1 to 5 Fatigue levels, please.")
    with transaction.atomic():
        if encounter_id is not None:
            scene = _encounter_scene(user, encounter_id, expected_version)
        else:
            scene = _saga_scene(user, saga_id, [character_id], command_key)
        character = next((c for c in scene.characters if str(c.pk) == str(character_id)), None)
        if character is None:
            raise InvalidCommand("That character is not in this scene.")
        before, was = sheet_of(character).fatigue_level, fatigue_state_of(character)
        state = lose_fatigue_levels(was, levels, Exertion.LONG_TERM)
        if state.level.value == before:
            raise InvalidCommand(f"{character.name} is already unconscious; nothing more to lose.")
        set_fatigue(character, state)
        character.save(update_fields=["sheet"])
        return scene.record(
            user,
            Kind.EXERTION,
            {
                "character": character.pk,
                "name": character.name,
                "what": what,
                "levels": len(state.lost) - len(was.lost),
                "from": before,
                "to": state.level.value,
            },
        )
