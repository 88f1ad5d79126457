"""Ars Magica's rows and choices: weapons, each round's declarations, the steps of the round, the
levels (ArM3 p163-p177)."""

from operator import attrgetter

from django.conf import settings
from django.db import models

from campaign.models import Character
from combat.models import Combatant, Encounter
from config.prepared import Prepared


class Range(models.TextChoices):
    """Melee ranges, ordered Touch < Reach < Long (RULES.md [ours])."""

    TOUCH = "touch", "Touch"
    REACH = "reach", "Reach"
    LONG = "long", "Long"


class FatigueLevel(models.TextChoices):
    """Fatigue levels, least to most fatigued (ArM3 p177)."""

    FRESH = "fresh", "Fresh"
    WINDED = "winded", "Winded"
    WEARY = "weary", "Weary"
    TIRED = "tired", "Tired"
    DAZED = "dazed", "Dazed"
    UNCONSCIOUS = "unconscious", "Unconscious"


class BodyLevel(models.TextChoices):
    """Body levels, unhurt to dead (ArM3 p177; death past Incapacitated is RULES.md [ours])."""

    UNHURT = "unhurt", "Unhurt"
    HURT = "hurt", "Hurt"
    LIGHT_WOUNDS = "light_wounds", "Light Wounds"
    MEDIUM_WOUNDS = "medium_wounds", "Medium Wounds"
    HEAVY_WOUNDS = "heavy_wounds", "Heavy Wounds"
    INCAPACITATED = "incapacitated", "Incapacitated"
    DEAD = "dead", "Dead"


class Weapon(models.Model):
    """One weapon on an Ars Magica sheet, with its scores (ArM3 p163, p168)."""

    # A character read with the table's combatants (`services.table.combatants_of`) carries its weapons,
    # in order, under this name: Django's prefetch then hands them over as a list, without making a
    # queryset per character for `character.weapons.all()`.
    READ_AS = "weapon_rows"

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="weapons")
    name = models.CharField(max_length=60)
    initiative = models.IntegerField(default=0, help_text="Initiative (First Strike) score.")
    attack = models.IntegerField(default=0)
    defense = models.IntegerField(default=0)
    damage = models.IntegerField(default=0)
    optimum_range = models.CharField(max_length=8, choices=Range.choices, default=Range.REACH)
    missile = models.BooleanField(default=False)
    paces = models.PositiveIntegerField(null=True, blank=True, help_text="Missile range in paces.")
    twice = models.BooleanField(default=False, help_text="Can fire in both missile phases.")

    class Meta:
        ordering = ["id"]
        db_table = "campaign_weapon"  # made by the campaign app before Ars Magica had its own

    def __str__(self) -> str:
        return self.name

    @classmethod
    def of(cls, character) -> list["Weapon"]:
        """The character's weapons in order: those read with it (`READ_AS`), else read now and kept there
        (unordered, then sorted: see `arsmagica.services.table.combatants_of`)."""
        rows = getattr(character, cls.READ_AS, None)
        if rows is None:
            rows = sorted(_WEAPONS(character=character.pk), key=attrgetter(*cls._meta.ordering))
            for weapon in rows:
                weapon.character = character  # as `character.weapons` gives them
            setattr(character, cls.READ_AS, rows)
        return rows


# A character's weapons, compiled once a process (`config.prepared`): a command's card reads them.
_WEAPONS = Prepared(lambda character: Weapon.objects.filter(character=character).order_by(), "character")


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


class Declaration(models.Model):
    """What a combatant means to do this round (ArM3 p163), declared before initiative is rolled."""

    class Action(models.TextChoices):
        """The engine's actions (arsmagica.rules.state.Action)."""

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
        db_table = "combat_declaration"  # made by the combat app before Ars Magica had its own
        constraints = [
            models.UniqueConstraint(fields=["combatant", "round_number"], name="one_declaration_per_round")
        ]

    def __str__(self) -> str:
        return f"{self.combatant} round {self.round_number}: {self.get_action_display()}"
