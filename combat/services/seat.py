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
        was = encounter.seat_holder.get_username()
        encounter.seat_holder = successor
        log = EventLog(encounter, user)
        payload = {"by": user.get_username(), "was": was, "to": successor.get_username(), "reason": reason}
        log.append(CoreKind.SEAT_HANDED_OVER, payload)
        log.save("seat_holder")
    return encounter


def _storyguide_named(saga, username: str):
    """The saga's storyguide of that username; InvalidCommand for anyone else."""
    username = (username or "").strip()
    user = get_user_model().objects.filter(username=username).first() if username else None
    if user is None or not is_a_storyguide(user, saga):
        raise InvalidCommand("Hand the seat to one of the saga's storyguides.")
    return user
