"""Setting up an encounter: create it, put characters on sides, take them off again, end it.

What a rule system adds (its round's record of who started it, say) comes from its
`combatants_changed`; when combatants may join is its `setup_refusal`.
"""

from __future__ import annotations

import logging

from django.db import transaction
from django.db.models import Max

from campaign.access import is_a_storyguide
from campaign.models import Character, Saga

from .. import systems
from ..access import require_seat_or_lead
from ..archive.summaries import summarize_ended
from ..errors import InvalidCommand, NotAllowed, WrongPhase
from ..events import CoreKind
from ..models import Combatant, Encounter
from .log import EventLog, lock_encounter, require_storyguide_of

logger = logging.getLogger(__name__)


def create_encounter(user, saga_id: int, name: str, rule_system: str) -> Encounter:
    """A new encounter in the saga, preparing: by one of its storyguides, who holds its seat.

    `rule_system` is the one the caller's pages run; a saga that plays another is refused.
    """
    name = (name or "").strip()
    if not name:
        raise InvalidCommand("Give the encounter a name.")
    with transaction.atomic():
        try:
            saga = Saga.objects.select_for_update().get(pk=saga_id)
        except (Saga.DoesNotExist, ValueError, TypeError):
            raise NotAllowed("There is no such saga.") from None
        if not is_a_storyguide(user, saga):
            raise NotAllowed("Only the storyguide can start an encounter.")
        if saga.rule_system != rule_system:
            raise InvalidCommand(
                f"This saga plays {systems.of(saga).label}: start its encounters from the saga page."
            )
        encounter = Encounter.objects.create(saga=saga, name=name[:120], seat_holder=user)
        log = EventLog(encounter, user)
        log.append(CoreKind.ENCOUNTER_CREATED, {"name": encounter.name})
        log.save()
    return encounter


def add_combatants(
    user, encounter_id: int, expected_version: int, character_ids, side: str
) -> list[Combatant]:
    """Put characters of the saga on a side, when the rule system lets combatants join."""
    side = (side or "").strip()
    if not side:
        raise InvalidCommand("Choose a side: the players' side, the opponents, or a named third side.")
    ids = []
    for value in character_ids or ():
        try:
            ids.append(int(value))
        except (TypeError, ValueError):
            raise InvalidCommand("Pick characters from the list.") from None
    if not ids:
        raise InvalidCommand("Pick at least one character.")
    with transaction.atomic():
        encounter = lock_encounter(encounter_id, expected_version)
        require_storyguide_of(user, encounter)
        _require_setup_time(encounter)
        characters = list(
            Character.objects.filter(saga=encounter.saga_id, pk__in=ids)
            .select_related("owner")
            .order_by("is_npc", "name")
        )
        if len(characters) != len(set(ids)):
            raise InvalidCommand("Some of those characters are not in this saga.")
        templates = Character.objects.filter(pk__in=ids, stamped_copies__isnull=False).values_list("name")
        for (name,) in templates.distinct():
            raise InvalidCommand(f"{name} is an NPC template: add the NPCs stamped from it instead.")
        already = set(
            encounter.combatants.filter(character__in=characters).values_list("character__name", flat=True)
        )
        if already:
            raise InvalidCommand(f"Already in the fight: {', '.join(sorted(already))}.")
        order = (encounter.combatants.aggregate(last=Max("order"))["last"] or 0) + 1
        added = []
        system = systems.of(encounter.saga)
        log = EventLog(encounter, user)
        for offset, character in enumerate(characters):
            combatant = Combatant.objects.create(
                encounter=encounter, character=character, side=side[:60], order=order + offset
            )
            combatant.character = character
            added.append(combatant)
            log.append(
                CoreKind.COMBATANT_ADDED,
                {
                    "combatant": str(combatant.pk),
                    "name": character.name,
                    "side": combatant.side,
                    "npc": character.is_npc,
                    "character": character.pk,
                    "levels": system.replay.joining_levels(combatant),
                    **({} if character.is_npc else {"player": username_of(character.owner)}),
                },
            )
        log.save(*system.page.combatants_changed(encounter))
    return added


def remove_combatant(user, encounter_id: int, expected_version: int, combatant_id: int) -> None:
    """Take a combatant out of the fight, when the rule system lets combatants leave."""
    with transaction.atomic():
        encounter = lock_encounter(encounter_id, expected_version)
        require_storyguide_of(user, encounter)
        _require_setup_time(encounter)
        try:
            combatant = encounter.combatants.select_related("character").get(pk=combatant_id)
        except (Combatant.DoesNotExist, ValueError, TypeError):
            raise InvalidCommand("That combatant is not in this encounter.") from None
        name = combatant.character.name
        cid = str(combatant.pk)
        combatant.delete()
        fields = systems.of(encounter.saga).page.combatants_changed(encounter)
        log = EventLog(encounter, user)
        log.append(CoreKind.COMBATANT_REMOVED, {"combatant": cid, "name": name})
        log.save(*fields)


def end_encounter(user, encounter_id: int, expected_version: int) -> Encounter:
    """End the fight; its log stays in the saga's history, its story kept for the saga's charts."""
    with transaction.atomic():
        encounter = lock_encounter(encounter_id, expected_version)
        require_storyguide_of(user, encounter)
        log = EventLog(encounter, user)
        rounds = systems.of(encounter.saga).page.rounds_played(encounter)
        log.append(CoreKind.ENCOUNTER_ENDED, {"rounds": rounds})
        encounter.status = Encounter.Status.ENDED
        encounter.pending = {}
        log.save("status", "pending")
        summarize_ended(encounter)
    return encounter


def rename_combatants(user, character: Character, was: str) -> None:
    """Write the character's new name into the log of every open encounter it fights in (a
    `combatant_renamed` event), so the record names it as the table did from then on (combat.names);
    an ended encounter's record keeps the names its log gave. Call it inside the rename's transaction."""
    fighting = Combatant.objects.filter(character=character).exclude(encounter__status=Encounter.Status.ENDED)
    for combatant_id, encounter_id in fighting.order_by("encounter_id").values_list("pk", "encounter_id"):
        log = EventLog(lock_encounter(encounter_id, None), user)
        payload = {"combatant": str(combatant_id), "name": character.name, "was": was}
        log.append(CoreKind.COMBATANT_RENAMED, payload)
        log.save()


def username_of(user) -> str:
    """A person as the log names them: the username, "" for nobody."""
    return user.get_username() if user is not None else ""


def hand_over_combatants(user, character: Character, was) -> None:
    """Write who plays the character now into the log of every open encounter it fights in (a `handed_over`
    event), so each entry from then on is shown as its new player's own (combat.played); an ended
    encounter's record keeps who played it then. Call it inside the hand-over's transaction."""
    fighting = Combatant.objects.filter(character=character).exclude(encounter__status=Encounter.Status.ENDED)
    for combatant_id, encounter_id in fighting.order_by("encounter_id").values_list("pk", "encounter_id"):
        log = EventLog(lock_encounter(encounter_id, None), user)
        log.append(CoreKind.HANDED_OVER, {**handed_over(character, was), "combatant": str(combatant_id)})
        log.save()


def handed_over(character: Character, was) -> dict:
    """A hand-over's payload: the character, who plays it now and who did until now (usernames)."""
    return {
        "character": character.pk,
        "name": character.name,
        "player": username_of(character.owner),
        "was": username_of(was),
    }


def _require_setup_time(encounter: Encounter) -> None:
    refusal = systems.of(encounter.saga).page.setup_refusal(encounter)
    if refusal:
        raise WrongPhase(refusal)


# The log of an encounter that never went past its set-up: nothing happened in it yet.
SETUP_KINDS = (
    CoreKind.ENCOUNTER_CREATED,
    CoreKind.COMBATANT_ADDED,
    CoreKind.COMBATANT_REMOVED,
    CoreKind.COMBATANT_RENAMED,
    CoreKind.HANDED_OVER,
)


def encounter_has_history(encounter: Encounter) -> bool:
    """The encounter went past its set-up: something is in its log besides who was put in it."""
    return encounter.events.exclude(kind__in=SETUP_KINDS).exists()


def rename_encounter(user, encounter_id: int, name: str) -> Encounter:
    """A new name for the encounter, by its seat's holder or the saga's lead; its log keeps the name it was
    created with."""
    name = (name or "").strip()
    if not name:
        raise InvalidCommand("Give the encounter a name.")
    with transaction.atomic():
        encounter = lock_encounter(encounter_id, None, after_end=True)
        require_seat_or_lead(user, encounter)
        encounter.name = name[:120]
        encounter.save(update_fields=["name"])
        transaction.on_commit(lambda: _push_name(encounter.pk))
    return encounter


def _push_name(encounter_id: int) -> None:
    """The new name to the encounter's open pages; a page that misses it shows it on its next load."""
    from .. import live

    try:
        live.push_name(encounter_id)
    except Exception:  # the rename is committed; nothing else depends on this push
        logger.exception("push of encounter %s's new name", encounter_id)


def set_encounter_archived(user, encounter_id: int, archived: bool) -> Encounter:
    """Archive an encounter (listed apart on the saga page, its log kept) or restore it: its seat's holder or
    the saga's lead."""
    from django.utils import timezone

    with transaction.atomic():
        encounter = lock_encounter(encounter_id, None, after_end=True)
        require_seat_or_lead(user, encounter)
        encounter.archived_at = timezone.now() if archived else None
        encounter.save(update_fields=["archived_at"])
    return encounter


def delete_encounter(user, encounter_id: int, typed_name: str = "") -> bool:
    """Delete an encounter: destroyed with its log when nothing happened in it past its set-up, or when
    the storyguide typed its name; otherwise archived. Its seat's holder or the saga's lead. True when it was
    destroyed."""
    with transaction.atomic():
        encounter = lock_encounter(encounter_id, None, after_end=True)
        require_seat_or_lead(user, encounter)
        if encounter_has_history(encounter) and typed_name.strip() != encounter.name:
            set_encounter_archived(user, encounter_id, True)
            return False
        encounter.delete()
    return True
