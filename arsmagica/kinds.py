"""The Ars Magica round's event kinds by name (Event.kind), which the services write and the wording reads;
each kind is one unit in `arsmagica.events` (its payload type, line, sentence, players' version, effect on the
replay, marks and tallies, and the panels it changes)."""

from django.db import models


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
    PHASE_UNDONE = "phase_undone", "Phase undone"
    ROUND_ENDED = "round_ended", "Round ended"
    CORRECTION = "correction", "Correction"
    TIME_PASSED = "time_passed", "Time passed (rest)"
    NIGHT_OF_SLEEP = "night_of_sleep", "A night's sleep"
    EXERTION = "exertion", "Long-term exertion"


# Kinds that saga records (outside any encounter) use too.
RECORD_KINDS = (Kind.TIME_PASSED, Kind.NIGHT_OF_SLEEP, Kind.EXERTION)
