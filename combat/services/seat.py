"""An encounter's storyguide's seat passed to another of its saga's storyguides (troupe play, issue 38)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction

from campaign.access import is_a_storyguide, is_lead

from ..errors import InvalidCommand, NotAllowed
from ..events import CoreKind
from ..inputs import plain_text
from ..models import Encounter
from .log import EventLog, lock_encounter

MAX_REASON = 200


def hand_over_seat(user, encounter_id: int, expected_version: int, to: str, reason: str) -> Encounter:
    """The encounter's seat to `to` (a username), one of its saga's storyguides, with a reason: by whoever
    holds it or by the saga's lead. Logged for everyone (`CoreKind.SEAT_HANDED_OVER`); from that event on the
    new holder has its controls and the storyguide's version of it."""
    reason = plain_text(reason, "The reason", MAX_REASON)
    if not reason:
        raise InvalidCommand("Say why the seat is handed over.")
    with transaction.atomic():
        encounter = lock_encounter(encounter_id, expected_version)
        saga = encounter.saga
        if not (encounter.seat_holder_id == user.pk or is_lead(user, saga)):
            raise NotAllowed("Only the storyguide who holds this seat, or the saga's lead, can hand it over.")
        successor = _storyguide_named(saga, to)
        if successor.pk == encounter.seat_holder_id:
            raise InvalidCommand(f"{successor.get_username()} holds this encounter's seat already.")
        _seat(encounter, user, successor, reason)
    return encounter


def pass_seats(saga, was, to, by, reason: str) -> list[str]:
    """Inside the caller's transaction: the seat of each encounter of the saga that `was` holds, handed to
    `to` by `by`, each logged as a hand-over is; the names of those encounters. An ended encounter's too: a
    seat held by someone who is no storyguide would give a player its controls and its storyguide's version,
    and an archive no import takes; the steps they ran stay theirs to read whole (combat.seated)."""
    held = Encounter.objects.filter(saga=saga, seat_holder=was)
    names = []
    for encounter_id in held.order_by("pk").values_list("pk", flat=True):
        encounter = lock_encounter(encounter_id, None, after_end=True)
        if encounter.seat_holder_id == was.pk:
            _seat(encounter, by, to, reason)
            names.append(encounter.name)
    return names


def _seat(encounter: Encounter, by, successor, reason: str) -> None:
    """The locked encounter's seat to `successor`, logged (`seat_handed_over`) and saved."""
    was = encounter.seat_holder.get_username()
    encounter.seat_holder = successor
    log = EventLog(encounter, by)
    payload = {"by": by.get_username(), "was": was, "to": successor.get_username(), "reason": reason}
    log.append(CoreKind.SEAT_HANDED_OVER, payload)
    log.save("seat_holder")


def _storyguide_named(saga, username: str):
    """The saga's storyguide of that username; InvalidCommand for anyone else."""
    username = (username or "").strip()
    user = get_user_model().objects.filter(username=username).first() if username else None
    if user is None or not is_a_storyguide(user, saga):
        raise InvalidCommand("Hand the seat to one of the saga's storyguides.")
    return user
