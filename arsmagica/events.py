"""The Ars Magica round's event kinds, each with its payload type (ArM3 p163-p177)."""

from __future__ import annotations

from typing import Any

from django.db import models

from combat.events import EventKind


class Kind(models.TextChoices):
    DECLARATIONS_OPENED = "declarations_opened", "Declarations opened"
    DECLARED = "declared", "Declared"
    MOVEMENT = "movement", "Movement: initiative and engagements"
    ATTACK = "attack", "Attack"
    SPELL = "spell", "Spell"
    FATIGUE_ROLL = "fatigue_roll", "Fatigue roll"
    SKIPPED = "skipped", "Did not happen"
    PHASE_PREVIEWED = "phase_previewed", "Phase previewed"
    PHASE_RESOLVED = "phase_resolved", "Phase resolved"
    ROUND_ENDED = "round_ended", "Round ended"
    CORRECTION = "correction", "Correction"
    TIME_PASSED = "time_passed", "Time passed (rest)"
    NIGHT_OF_SLEEP = "night_of_sleep", "A night's sleep"
    EXERTION = "exertion", "Long-term exertion"


# Kinds that saga records (outside any encounter) use too.
RECORD_KINDS = (Kind.TIME_PASSED, Kind.NIGHT_OF_SLEEP, Kind.EXERTION)

PAYLOADS: dict[str, Any] = {kind: dict[str, Any] for kind in Kind}

EVENT_KINDS = tuple(
    EventKind(kind.value, kind.label, PAYLOADS[kind], f"arsmagica/events/{kind.value}.html") for kind in Kind
)
