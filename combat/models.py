"""Encounters, their combatants and the event log: what every rule system shares."""

from django.conf import settings
from django.db import models

from campaign.models import Character, Saga

from .archive.tagged import TaggedDecoder


class Encounter(models.Model):
    """One fight in a saga, run round by round from the storyguide's control panel."""

    class Status(models.TextChoices):
        PREPARING = "preparing", "Preparing"
        RUNNING = "running", "Running"
        ENDED = "ended", "Ended"

    saga = models.ForeignKey(Saga, on_delete=models.CASCADE, related_name="encounters")
    name = models.CharField(max_length=120)
    seat_holder = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="Who holds this encounter's storyguide's seat: one of its saga's storyguides, its controls "
        "and the storyguide's version of it theirs (combat.access.holds_seat).",
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PREPARING)
    round_number = models.PositiveIntegerField(default=0)
    phase = models.CharField(
        max_length=16, default="", blank=True, help_text="Where the round stands, in the rule system's words."
    )
    version = models.PositiveIntegerField(
        default=0, help_text="Bumped by every command; stale commands are refused."
    )
    last_seq = models.PositiveIntegerField(
        default=0,
        help_text="The newest event's sequence number (0 before any), kept with the log under the "
        "encounter's lock: the next event is one more.",
    )
    pending = models.JSONField(
        default=dict,
        blank=True,
        help_text="The rule system's step in waiting: a phase preview's recorded dice and options.",
    )
    round_log = models.JSONField(
        default=dict,
        blank=True,
        help_text="This round so far: the levels at its start and each confirmed phase's dice and options, "
        "so the rules engine can rebuild the round's state from the same faces.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    archived_at = models.DateTimeField(
        null=True, blank=True, help_text="Set when the storyguide archived it: listed apart, restorable."
    )
    evening_start = models.BooleanField(
        null=True,
        blank=True,
        help_text="The storyguide's regrouping of the evening recaps (combat.archive.evenings): True starts "
        "a new evening here, False keeps it with the one before; empty leaves it to the time between events.",
    )

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name

    @staticmethod
    def group_name(encounter_id: int, audience: str) -> str:
        """The channel group of one audience (combat.audience) of an encounter."""
        return f"encounter-{encounter_id}-{audience}"


class Combatant(models.Model):
    """A character taking part in an encounter, on a side; its rule system keeps its own `state`."""

    encounter = models.ForeignKey(Encounter, on_delete=models.CASCADE, related_name="combatants")
    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="combatants")
    side = models.CharField(max_length=60)
    state = models.JSONField(
        default=dict,
        blank=True,
        help_text="What the rule system keeps of this combatant between rounds (advantage won, say).",
    )
    order = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["order", "id"]
        constraints = [
            models.UniqueConstraint(fields=["encounter", "character"], name="one_combatant_per_character")
        ]

    def __str__(self) -> str:
        return f"{self.character} ({self.side})"


class Event(models.Model):
    """One entry of the encounter's log: gapless `seq`, every die in `payload`, never edited."""

    encounter = models.ForeignKey(Encounter, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=24, help_text="A kind its rule system declares (combat.events).")
    round_number = models.PositiveIntegerField(default=0)
    phase = models.CharField(max_length=16, blank=True)
    payload = models.JSONField(default=dict, blank=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    storyguide_only = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["encounter_id", "seq"]
        constraints = [models.UniqueConstraint(fields=["encounter", "seq"], name="gapless_seq_per_encounter")]
        indexes = [models.Index(fields=["encounter", "kind"])]

    def __str__(self) -> str:
        return f"#{self.seq} {self.kind}"


class SagaRecord(models.Model):
    """Something that happened to a saga's characters outside any encounter, as a rule system records
    it (time passing, a night's sleep). Kinds and payloads are declared like the encounter log's."""

    saga = models.ForeignKey(Saga, on_delete=models.CASCADE, related_name="records")
    kind = models.CharField(max_length=24, help_text="A kind its rule system declares (combat.events).")
    payload = models.JSONField(default=dict, blank=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["saga_id", "created_at", "id"]

    def __str__(self) -> str:
        return f"{self.saga}: {self.kind}"


class EncounterSummary(models.Model):
    """A finished encounter's story for the saga's charts, as one reader's fold of its log made it
    (`combat.archive.summaries`): used while `inputs` still equals what it would be folded from now."""

    encounter = models.ForeignKey(Encounter, on_delete=models.CASCADE, related_name="summaries")
    reader = models.CharField(max_length=40, help_text="Whose fold: the storyguide's, or one player's.")
    inputs = models.JSONField(
        help_text="What it was folded from besides the log's rows: the log's last seq, the fold's version, "
        "and for a player the saga's NPC-rolls setting and whose combatants are whose."
    )
    story = models.JSONField(
        null=True, decoder=TaggedDecoder, help_text="The fold's story; null when it read no event."
    )

    class Meta:
        constraints = [models.UniqueConstraint(fields=["encounter", "reader"], name="one_summary_per_reader")]

    def __str__(self) -> str:
        return f"{self.encounter}: {self.reader}"
