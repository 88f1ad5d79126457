"""The command frame every service runs in: lock the encounter, check the version, append
events with gapless sequence numbers, bump the version, broadcast after commit."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator

from django.db import transaction

from campaign.models import CommandKey
from config.prepared import Prepared

from .. import layers, saga_live, systems
from ..access import require_seat
from ..errors import NOT_OPEN, InvalidCommand, NotAllowed, StaleCommand, WrongPhase
from ..events import PayloadMismatch, check_payload
from ..inputs import MAX_ID
from ..models import Encounter, Event, SagaRecord
from ..rules.refusals import BAD_INPUT, NOT_YOURS, OVER, STALE, WRONG_TIME, Refusal

logger = logging.getLogger(__name__)
# The error each kind of refusal is answered with (its status: combat.errors).
REFUSED = {WRONG_TIME: WrongPhase, BAD_INPUT: InvalidCommand, NOT_YOURS: NotAllowed, STALE: StaleCommand}
# The encounter's row, locked, with its saga (every command asks whose it is and which rule system; only the
# encounter's row is locked): every command's first read, compiled once (`config.prepared`).
LOCKED = Prepared(
    lambda pk: Encounter.objects.select_related("saga").select_for_update(of=("self",)).filter(pk=pk), "pk"
)


def lock_encounter(encounter_id: int, expected_version: int | None, *, after_end: bool = False) -> Encounter:
    """The encounter row, locked until the transaction ends; refuses a stale version, and an ended
    encounter: once over, it takes no command but the archive's (`after_end=True`: rename, archive,
    restore, delete), whatever its rule system.

    `expected_version=None` skips the check: used by commands that many people send at
    once and that check the round and phase instead (a player's declaration).
    """
    try:
        pk = int(encounter_id)  # as the key's field takes it; beyond 64 bits, no encounter of ours
    except (ValueError, TypeError, OverflowError):  # not a number, or an infinite one
        pk = 0
    rows = list(LOCKED(pk=pk)) if 0 < pk <= MAX_ID else []
    if not rows:
        raise NotAllowed(NOT_OPEN)
    encounter = rows[0]
    if encounter.status == Encounter.Status.ENDED and not after_end:
        raise WrongPhase(OVER)
    if expected_version is not None and encounter.version != expected_version:
        raise StaleCommand()
    return encounter


def obey(refusal: Refusal | None) -> None:
    """A command goes ahead when its system's `can_*` allows it; otherwise its error, with the reason."""
    if refusal is not None:
        raise REFUSED[refusal.kind](str(refusal))


def claim_command(saga, key: str | None) -> None:
    """A page's one-time command key: the first post that carries it applies, a repeat is stale.

    Call it under the lock that serialises the command (the saga's row); None is a call from code,
    which needs no key."""
    if key is None:
        return
    key = key.strip()
    if not 16 <= len(key) <= 40 or not key.isascii() or not key.isalnum():
        raise InvalidCommand("The page sent no command key; reload it.")
    if CommandKey.objects.filter(key=key).exists():
        raise StaleCommand("That was done already; nothing was done twice.")
    CommandKey.objects.create(saga=saga, key=key)


def require_storyguide_of(user, encounter: Encounter) -> None:
    """NotAllowed unless the user holds the encounter's storyguide's seat (`combat.access.require_seat`)."""
    require_seat(user, encounter)


@contextlib.contextmanager
def storyguide_command(user, encounter_id: int, expected_version: int, *fields: str) -> Iterator[EventLog]:
    """A storyguide's command in its frame: one transaction, the encounter locked at the version the page was
    drawn at, the sender checked to hold its seat; yields the command's log (its `encounter` the locked row),
    saved with the encounter's `fields` once the block is done, and nothing saved if the block refuses."""
    with transaction.atomic():
        encounter = lock_encounter(encounter_id, expected_version)
        require_storyguide_of(user, encounter)
        log = EventLog(encounter, user)
        yield log
        log.save(*fields)


def checked(kind: str, payload: dict, saga) -> dict:
    """The payload, once it matches its declared kind's type; PayloadMismatch for a kind that neither
    the core nor the saga's rule system declares."""
    declared = systems.event_kind(kind, systems.of(saga))
    if declared is None:
        raise PayloadMismatch(
            f"{str(kind)!r} is not an event kind of the core or of this saga's rule system: "
            "a kind is declared, with its payload type, before it is written"
        )
    check_payload(declared, payload)
    return payload


def record_for_saga(saga, kind: str, payload: dict, actor=None) -> SagaRecord:
    """Store something that happened outside any encounter, its payload checked like an event's."""
    return SagaRecord.objects.create(
        saga=saga,
        kind=kind,
        payload=checked(kind, payload, saga),
        actor=actor if actor is not None and actor.is_authenticated else None,
    )


class EventLog:
    """New events of one command; `save()` stores them with the encounter and schedules the push."""

    def __init__(self, encounter: Encounter, actor=None) -> None:
        self.encounter = encounter
        self.actor = actor if actor is not None and actor.is_authenticated else None
        self.events: list[Event] = []

    def append(self, kind: str, payload: dict | None = None, *, storyguide_only: bool = False) -> Event:
        """A new event of a declared kind; PayloadMismatch when the payload does not match its type."""
        event = Event(
            encounter=self.encounter,
            kind=kind,
            round_number=self.encounter.round_number,
            phase=self.encounter.phase,
            payload=checked(kind, payload or {}, self.encounter.saga),
            actor=self.actor,
            storyguide_only=storyguide_only,
        )
        self.events.append(event)
        return event

    def save(self, *encounter_fields: str, read=None) -> list[Event]:
        """Store the events (numbered on from the encounter's `last_seq`, read under its lock), bump the
        version, push on commit.

        `read`: what this command read of the encounter, as it left it (its writes made through those
        objects), for the push to render instead of reading it again: the rule system's own object
        (`Table.table_facts` takes it), with every combatant as `read.combatants`; None to read."""
        encounter = self.encounter
        last = encounter.last_seq
        for offset, event in enumerate(self.events, start=1):
            event.seq = last + offset
        Event.objects.bulk_create(self.events)
        encounter.version += 1
        encounter.last_seq = last + len(self.events)
        encounter.save(update_fields=["version", "last_seq", *encounter_fields])
        first_seq, last_seq = last + 1, encounter.last_seq
        encounter_id = encounter.pk
        saga_changed = saga_live.carried_by_encounter(encounter.saga_id)
        written = list(self.events)

        def push() -> None:
            from .. import live

            try:
                live.broadcast(
                    encounter_id,
                    first_seq,
                    last_seq,
                    saga=saga_changed(),
                    encounter=encounter,
                    events=written,
                    read=read,
                )
            except layers.LAYER_ERRORS as error:  # committed; clients catch up by replay on reconnect
                logger.warning(
                    "push of encounter %s, events %s..%s not sent (channel layer down: %s); "
                    "clients replay them on reconnect",
                    encounter_id,
                    first_seq,
                    last_seq,
                    error,
                )
            except Exception:  # the command is committed; clients catch up by replay on reconnect
                logger.exception("push of encounter %s, events %s..%s", encounter_id, first_seq, last_seq)

        transaction.on_commit(push)
        return self.events
