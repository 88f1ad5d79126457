"""Encounters, their combatants, each round's declarations, and the event log."""

from django.conf import settings
from django.db import models

from campaign.models import Character, Range, Saga, Weapon


class Encounter(models.Model):
    """One fight in a saga, run round by round from the storyguide's control panel."""

    class Status(models.TextChoices):
        PREPARING = "preparing", "Preparing"
        RUNNING = "running", "Running"
        ENDED = "ended", "Ended"

    class Phase(models.TextChoices):
        """Where the round stands: the step waiting for the storyguide (ArM3 p163)."""

        NONE = "", "Not started"
        DECLARING = "declaring", "Declarations"
        FIRST_MISSILE = "first_missile", "First Missile"
        MELEE = "melee", "Melee"
        SECOND_MISSILE = "second_missile", "Second Missile"
        MAGIC = "magic", "Magic"
        FATIGUE = "fatigue", "Fatigue"
        ROUND_OVER = "round_over", "Round over"

    saga = models.ForeignKey(Saga, on_delete=models.CASCADE, related_name="encounters")
    name = models.CharField(max_length=120)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PREPARING)
    round_number = models.PositiveIntegerField(default=0)
    phase = models.CharField(max_length=16, choices=Phase.choices, default=Phase.NONE, blank=True)
    version = models.PositiveIntegerField(
        default=0, help_text="Bumped by every command; stale commands are refused."
    )
    pending = models.JSONField(
        default=dict, blank=True, help_text="The phase preview: recorded dice and the storyguide's options."
    )
    round_log = models.JSONField(
        default=dict,
        blank=True,
        help_text="This round so far: the levels at its start and each confirmed phase's dice and options, "
        "so the rules engine can rebuild the round's state from the same faces.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name

    @staticmethod
    def group_name(encounter_id: int, audience: str) -> str:
        """The channel group of one audience (combat.audience) of an encounter."""
        return f"encounter-{encounter_id}-{audience}"


class Combatant(models.Model):
    """A character taking part in an encounter, on a side, with the advantage carried between rounds."""

    encounter = models.ForeignKey(Encounter, on_delete=models.CASCADE, related_name="combatants")
    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="combatants")
    side = models.CharField(max_length=60)
    advantage_attack = models.IntegerField(
        default=0, help_text="Added to next round's Attack Total (ArM3 p168)."
    )
    advantage_defense = models.IntegerField(
        default=0, help_text="Added to next round's Defense Total (ArM3 p168)."
    )
    order = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["order", "id"]
        constraints = [
            models.UniqueConstraint(fields=["encounter", "character"], name="one_combatant_per_character")
        ]

    def __str__(self) -> str:
        return f"{self.character} ({self.side})"


class Declaration(models.Model):
    """What a combatant means to do this round (ArM3 p163), declared before initiative is rolled."""

    class Action(models.TextChoices):
        """The engine's actions (combat.rules.arsmagica.state.Action)."""

        ATTACK = "attack", "Fight hand to hand"
        MISSILE = "missile", "Shoot or throw"
        CAST = "cast", "Cast a spell"
        MOVE = "move", "Move or flee"
        OTHER = "other", "Something else"

    class OnSuccess(models.TextChoices):
        HIT = "hit", "Hit"
        ADVANTAGE_ATTACK = "advantage_attack", "Advantage on next Attack"
        ADVANTAGE_DEFENSE = "advantage_defense", "Advantage on next Defense"

    class Movement(models.TextChoices):
        """Movement per round (ArM3 p163); blank: standing."""

        STAND = "", "Stand"
        WALKING = "walking", "Walk"
        WALKING_CAUTIOUSLY = "walking_cautiously", "Walk cautiously"
        HUSTLING = "hustling", "Hustle"
        SPRINTING = "sprinting", "Sprint"
        HORSEBACK = "horseback", "Gallop (horseback)"

    class MissilePhase(models.TextChoices):
        FIRST = "first_missile", "First Missile"
        SECOND = "second_missile", "Second Missile"

    class SpellKind(models.TextChoices):
        SPONTANEOUS = "spontaneous", "Spontaneous"
        FORMULAIC = "formulaic", "Formulaic"

    encounter = models.ForeignKey(Encounter, on_delete=models.CASCADE, related_name="declarations")
    combatant = models.ForeignKey(Combatant, on_delete=models.CASCADE, related_name="declarations")
    round_number = models.PositiveIntegerField()
    action = models.CharField(max_length=16, choices=Action.choices, default=Action.ATTACK)
    weapon = models.ForeignKey(Weapon, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    engage = models.JSONField(
        default=list, blank=True, help_text="Ids of the combatants engaged or targeted."
    )
    range = models.CharField(max_length=8, choices=Range.choices, blank=True)
    on_success = models.CharField(max_length=20, choices=OnSuccess.choices, default=OnSuccess.HIT)
    movement = models.CharField(max_length=20, choices=Movement.choices, default=Movement.STAND, blank=True)
    mounted = models.BooleanField(default=False)
    charging = models.BooleanField(default=False)
    high_ground = models.BooleanField(default=False)
    routing = models.BooleanField(default=False)
    modifier = models.IntegerField(default=0, help_text="A situational modifier to Initiative.")
    missile_phase = models.CharField(max_length=16, choices=MissilePhase.choices, default=MissilePhase.FIRST)
    spell_kind = models.CharField(max_length=12, choices=SpellKind.choices, blank=True)
    spell_name = models.CharField(max_length=80, blank=True)
    casting_score = models.IntegerField(default=0, help_text="Technique + Form + ..., as the sheet shows it.")
    fast_cast_phase = models.CharField(
        max_length=16, blank=True, help_text="Fast-cast: the earlier phase the spell interrupts (ArM3 p168)."
    )
    distance = models.PositiveIntegerField(
        null=True, blank=True, help_text="A missile target's distance in paces."
    )
    dice = models.JSONField(
        default=dict,
        blank=True,
        help_text='Typed faces where the saga rolls physical dice: {"initiative": [1, 3]}.',
    )
    declared_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    declared_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["combatant__order", "combatant_id"]
        constraints = [
            models.UniqueConstraint(fields=["combatant", "round_number"], name="one_declaration_per_round")
        ]

    def __str__(self) -> str:
        return f"{self.combatant} round {self.round_number}: {self.get_action_display()}"


class Event(models.Model):
    """One entry of the encounter's log: gapless `seq`, every die in `payload`, never edited."""

    class Kind(models.TextChoices):
        ENCOUNTER_CREATED = "encounter_created", "Encounter created"
        COMBATANT_ADDED = "combatant_added", "Combatant added"
        COMBATANT_REMOVED = "combatant_removed", "Combatant removed"
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
        ENCOUNTER_ENDED = "encounter_ended", "Encounter ended"
        TIME_PASSED = "time_passed", "Time passed (rest)"
        NIGHT_OF_SLEEP = "night_of_sleep", "A night's sleep"
        EXERTION = "exertion", "Long-term exertion"

    encounter = models.ForeignKey(Encounter, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=24, choices=Kind.choices)
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
    """Something that happened to a saga's characters outside any encounter: time passing, a night's
    sleep, a day's march (ArM3 p177). Kinds and payloads are those of the encounter log's events."""

    KINDS = (Event.Kind.TIME_PASSED, Event.Kind.NIGHT_OF_SLEEP, Event.Kind.EXERTION)

    saga = models.ForeignKey(Saga, on_delete=models.CASCADE, related_name="records")
    kind = models.CharField(max_length=24, choices=[(kind.value, kind.label) for kind in KINDS])
    payload = models.JSONField(default=dict, blank=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["saga_id", "created_at", "id"]

    def __str__(self) -> str:
        return f"{self.saga}: {self.kind}"
