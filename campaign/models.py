"""Sagas, who plays in them, and their characters' combat sheets."""

import secrets

from django.conf import settings
from django.db import models


def new_invite_token() -> str:
    return secrets.token_urlsafe(16)


def default_d6_attributes() -> list[str]:
    """The attributes a saga's sheets carry until its storyguide names others (the fatigue track's seed)."""
    return ["strength", "dexterity", "stamina", "intelligence", "perception", "charisma"]


def default_rule_system() -> str:
    """The first installed rule system."""
    from combat import systems

    return systems.all_systems()[0].key


class Saga(models.Model):
    """A campaign: one storyguide, players who joined by invite, characters, encounters."""

    name = models.CharField(max_length=120)
    rule_system = models.CharField(
        max_length=16,
        default=default_rule_system,
        help_text="The key of an installed rule system (combat.systems).",
    )
    storyguide = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    physical_dice = models.BooleanField(
        default=False, help_text="Players roll real dice and type the faces in; otherwise the server rolls."
    )
    invite_token = models.CharField(max_length=32, unique=True, default=new_invite_token)
    d6_attributes = models.JSONField(
        default=default_d6_attributes,
        blank=True,
        help_text="The fatigue-track system: the attribute names every sheet in this saga carries.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name

    @property
    def rule_system_label(self) -> str:
        """The saga's rule system as people read it."""
        from combat import systems

        try:
            return systems.of(self).label
        except systems.UnknownSystem:
            return self.rule_system


class Membership(models.Model):
    """A person's place in a saga: the storyguide or a player."""

    class Role(models.TextChoices):
        STORYGUIDE = "storyguide", "Storyguide"
        PLAYER = "player", "Player"

    saga = models.ForeignKey(Saga, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=16, choices=Role.choices, default=Role.PLAYER)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["saga", "user"], name="one_membership_per_saga")]

    def __str__(self) -> str:
        return f"{self.user} in {self.saga} ({self.role})"


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


class Character(models.Model):
    """A player character or an NPC, with the combat sheet of its saga's rule system.

    Ars Magica scores are stored as the sheet shows them (totals, not formulas: RULES.md [ours]).
    A d6 character keeps its attributes and abilities in `attributes` and `abilities`.
    """

    saga = models.ForeignKey(Saga, on_delete=models.CASCADE, related_name="characters")
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="characters",
        help_text="The player who plays this character; empty for NPCs, which the storyguide runs.",
    )
    name = models.CharField(max_length=80)
    is_npc = models.BooleanField(default=False)
    notes = models.TextField(blank=True)

    # Ars Magica (ArM3 p163, p168, p177)
    quickness = models.IntegerField(default=0)
    stamina = models.IntegerField(default=0)
    finesse = models.IntegerField(default=0)
    athletics = models.IntegerField(default=0)
    ride = models.IntegerField(default=0)
    brawling = models.IntegerField(default=0)
    soak = models.IntegerField(default=0)
    dodge_defense = models.IntegerField(default=0)
    combat_fatigue = models.IntegerField(default=0)
    encumbrance = models.IntegerField(default=0, help_text="0 or negative.")
    fatigue_level = models.CharField(max_length=16, choices=FatigueLevel.choices, default=FatigueLevel.FRESH)
    body_level = models.CharField(max_length=16, choices=BodyLevel.choices, default=BodyLevel.UNHURT)
    fatigue_state = models.JSONField(
        default=dict,
        blank=True,
        help_text='The engine\'s FatigueState, kept in step with fatigue_level: {"lost": ["short_term", '
        '"long_term"], "recovery_seconds": 0}, each lost level with its exertion, oldest first (ArM3 p177).',
    )

    # d6 fatigue system (d6 seed): {"strength": 1, "dexterity": 0, "stamina": 2, ...}
    attributes = models.JSONField(default=dict, blank=True)
    # [{"name": "Running", "attribute": "stamina", "consistency": 1, "physical": true}, ...]
    abilities = models.JSONField(default=list, blank=True)
    fatigue = models.IntegerField(default=1, help_text="d6 system: current fatigue, 1 to 20.")

    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["is_npc", "name"]

    def __str__(self) -> str:
        return self.name


class Weapon(models.Model):
    """One weapon on an Ars Magica sheet, with its scores (ArM3 p163, p168)."""

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

    def __str__(self) -> str:
        return self.name
