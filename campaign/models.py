"""Sagas, who plays in them, and their characters; a sheet's contents are its rule system's."""

import secrets
from collections.abc import Collection

from django.conf import settings
from django.db import models
from django.utils import timezone

from . import systems


def new_invite_token() -> str:
    return secrets.token_urlsafe(16)


def default_rule_system() -> str:
    """The first installed rule system."""
    return systems.all_systems()[0].key


class NpcRolls(models.TextChoices):
    """How much of an NPC's rolls the players see; the storyguide always sees everything. The labels name no
    rule's outcome: a saga's system says its own (`combat.systems.Log.NPC_ROLLS`, `npc_rolls_words`)."""

    RESULTS = "results", "Results only: what came of each roll, not its dice or numbers"
    TOTALS = "totals", "Totals and results, no dice"
    EVERYTHING = "everything", "Everything: scores, dice and totals"


def npc_rolls_choices(saga) -> list[tuple[str, str]]:
    """The choices of "NPC rolls players see" in the saga's rule system's words, each the core's label where
    the system has none (or is no longer installed)."""
    try:
        words = systems.of(saga).log.NPC_ROLLS
    except systems.UnknownSystem:
        words = {}
    return [(value, words.get(value, label)) for value, label in NpcRolls.choices]


class Saga(models.Model):
    """A campaign: its troupe of storyguides (`storyguide` its lead), players who joined by invite,
    characters, encounters."""

    name = models.CharField(max_length=120)
    rule_system = models.CharField(
        max_length=16,
        default=default_rule_system,
        help_text="The key of an installed rule system (combat.systems).",
    )
    storyguide = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="The saga's lead storyguide: who changes who its storyguides are, archives and deletes it.",
    )
    physical_dice = models.BooleanField(
        default=False, help_text="Players roll real dice and type the faces in; otherwise the server rolls."
    )
    npc_rolls = models.CharField(
        "NPC rolls players see",
        max_length=16,
        choices=NpcRolls.choices,
        default=NpcRolls.RESULTS,
        help_text="The storyguide rolls behind a screen: players see this much of an NPC's rolls.",
    )
    invite_token = models.CharField(max_length=32, unique=True, default=new_invite_token)
    options = models.JSONField(
        default=dict,
        blank=True,
        help_text="The saga's options as its rule system declares them (its sheets' attributes, say).",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    archived_at = models.DateTimeField(
        null=True, blank=True, help_text="Set when the storyguide archived it: listed apart, restorable."
    )

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name

    @property
    def npc_rolls_words(self) -> str:
        """The saga's setting for NPC rolls in its rule system's words."""
        return dict(npc_rolls_choices(self)).get(self.npc_rolls, self.get_npc_rolls_display())

    @property
    def rule_system_label(self) -> str:
        """The saga's rule system as people read it."""
        try:
            return systems.of(self).label
        except systems.UnknownSystem:
            return self.rule_system


class Membership(models.Model):
    """A person's place in a saga: one of its storyguides (its troupe, the lead among them) or a player."""

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


class CharacterQuerySet(models.QuerySet):
    def fighters(self) -> "CharacterQuerySet":
        """Everyone but NPC templates: a group of NPCs takes part through its stamped copies."""
        return self.exclude(stamped_copies__isnull=False)

    def with_owner_guiding(self) -> "CharacterQuerySet":
        """Each character marked `owner_guides`: its owner is one of its saga's storyguides (in the same
        query: what `storyguide_ids` would read apart, for the add-to-fight lists' "(storyguide)")."""
        guides = Membership.objects.filter(
            saga_id=models.OuterRef("saga_id"),
            user_id=models.OuterRef("owner_id"),
            role=Membership.Role.STORYGUIDE,
        )
        return self.annotate(owner_guides=models.Exists(guides))


class Character(models.Model):
    """A player character or an NPC; its sheet is its saga's rule system's (`system.sheet`)."""

    objects = CharacterQuerySet.as_manager()

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
    stamped_from = models.ForeignKey(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="stamped_copies",
        help_text="The NPC template this copy was stamped from; an NPC with copies is a template.",
    )
    notes = models.TextField(blank=True)

    sheet = models.JSONField(
        default=dict,
        blank=True,
        help_text="The sheet as the saga's rule system declares it: scores, rows and current levels.",
    )

    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["is_npc", "name"]

    def __str__(self) -> str:
        return self.name


def storyguide_ids(saga: Saga, members: list[Membership] | None = None) -> set[int]:
    """The ids of the saga's storyguides, its lead among them: from `members` when given (no row read), else
    one query."""
    if members is None:
        members = list(saga.memberships.filter(role=Membership.Role.STORYGUIDE).only("user_id", "role"))
    return {m.user_id for m in members if m.role == Membership.Role.STORYGUIDE} | {saga.storyguide_id}


def guiding_owners(saga: Saga, characters: list[Character]) -> set[int]:
    """The saga's storyguides among these characters' owners (`with_owner_guiding`), the lead always: no
    row read."""
    return {c.owner_id for c in characters if getattr(c, "owner_guides", False)} | {saga.storyguide_id}


def player_words(character: Character, storyguides: Collection[int]) -> str:
    """Who plays a player character, as the saga page and the add-to-fight lists say it: "alice", "sg
    (storyguide)" (any of the saga's storyguides, `storyguide_ids`), or "waiting for a player" (made for a
    player who will join); "" for an NPC."""
    if character.is_npc:
        return ""
    if character.owner_id is None:
        return "waiting for a player"
    name = character.owner.get_username()
    return f"{name} (storyguide)" if character.owner_id in storyguides else name


def fighter_label(character: Character, storyguides: Collection[int]) -> str:
    """A character in a list of those who may join a fight: "Ada, played by alice", "Cado, waiting for a
    player", "Bandit 1 (NPC)"; `storyguides` the saga's storyguides' ids (`storyguide_ids`)."""
    if character.is_npc:
        return f"{character.name} (NPC)"
    words = player_words(character, storyguides)
    return f"{character.name}, {'' if character.owner_id is None else 'played by '}{words}"


def who_plays(saga: Saga, members: list[Membership], characters: list[Character]) -> list[Membership]:
    """The members, each with the names of the player characters they play (`plays`), and each player
    character with who plays it in words (`played_by`): the saga page's "who plays whom"."""
    plays: dict[int, list[str]] = {}
    storyguides = storyguide_ids(saga, members)
    for character in characters:
        if not character.is_npc:
            character.played_by = player_words(character, storyguides)
            if character.owner_id is not None:
                plays.setdefault(character.owner_id, []).append(character.name)
    for member in members:
        member.plays = sorted(plays.get(member.user_id, []))
    return members


class ResetLink(models.Model):
    """A one-time password link a storyguide made for a player of their saga (campaign.resets).

    The link itself is signed and carries a nonce, of which only a digest is kept here: whoever reads the
    database cannot use a link, and one that was used, replaced or is past `expires_at` opens nothing."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    saga = models.ForeignKey(Saga, on_delete=models.CASCADE, related_name="+")
    made_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    nonce_digest = models.CharField(max_length=64)
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    replaced = models.BooleanField(default=False, help_text="A newer link was made for the same person.")

    def __str__(self) -> str:
        return f"password link for {self.user} ({self.saga})"


class CommandKey(models.Model):
    """A command drawn once on a page applies once: its key is claimed by the first post that carries it.

    For commands that have no encounter version to check: the saga page's time passing (keyed to the
    saga), and the plain forms (keyed to the user who sent them, with the page the first post led to,
    so a repeat is answered with the same page: campaign.sent_once). Its table keeps the name it had when the
    model was the table core's."""

    saga = models.ForeignKey(Saga, on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    key = models.CharField(max_length=40, unique=True)
    result = models.CharField(
        max_length=200, blank=True, help_text="Where a plain form's first post led: a repeat goes there too."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "combat_commandkey"

    def __str__(self) -> str:
        return self.key
