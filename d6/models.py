"""The d6 fight and chase of an encounter: the state between two steps, kept in rows.

The rules are `d6.rules`; these rows hold what its `FightState` and `ChaseState`
hold, so every step rebuilds the engine's state, calls one rule, and saves the outcome.
A character's current fatigue is its sheet's (`d6.sheet`).
"""

from django.db import models

from combat.models import Combatant, Encounter


class Fight(models.Model):
    """A turn-based fight: fighters in initiative order, the round and whose turn it is."""

    encounter = models.OneToOneField(Encounter, on_delete=models.CASCADE, related_name="d6_fight")
    round = models.PositiveIntegerField(default=1)
    turn = models.PositiveIntegerField(default=0, help_text="Index in the acting order.")
    acted = models.BooleanField(default=False)
    took_breather = models.BooleanField(default=False)
    defence = models.JSONField(
        default=dict,
        blank=True,
        help_text='The defence an attack is waiting for: {"attacker": id, "defender": id, "value": n}.',
    )
    queue = models.JSONField(
        default=list,
        blank=True,
        help_text="Further defences awaited after a ranged attack into a cluster, in order (as `defence`).",
    )
    value = models.IntegerField(
        null=True, blank=True, help_text="The challenge value the storyguide set for this turn's action."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"Fight of {self.encounter}"


class Fighter(models.Model):
    """One combatant's place in the fight: the order, base fatigue and the turn's one rise."""

    fight = models.ForeignKey(Fight, on_delete=models.CASCADE, related_name="fighters")
    combatant = models.OneToOneField(Combatant, on_delete=models.CASCADE, related_name="d6_fighter")
    position = models.PositiveIntegerField()
    base_fatigue = models.PositiveIntegerField()
    rose_this_turn = models.BooleanField(default=False)
    initiative = models.JSONField(default=dict, blank=True, help_text="The Dexterity challenge rolled.")

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["fight", "position"], name="d6_one_fighter_per_position")
        ]

    def __str__(self) -> str:
        return f"{self.combatant} #{self.position}"


class Chase(models.Model):
    """A chase on a grid: the target, its chasers, the terrain stretches and the outcome."""

    class Outcome(models.TextChoices):
        ONGOING = "ongoing", "Running"
        CAUGHT = "caught", "Caught"
        ESCAPED = "escaped", "Escaped"
        OVERTAKEN = "overtaken", "Overtaken"

    encounter = models.ForeignKey(Encounter, on_delete=models.CASCADE, related_name="d6_chases")
    number = models.PositiveIntegerField(default=1)
    outcome = models.CharField(max_length=10, choices=Outcome.choices, default=Outcome.ONGOING)
    escape_distance = models.PositiveIntegerField(null=True, blank=True)
    exchanges = models.PositiveIntegerField(default=0)
    stretches = models.JSONField(
        default=list, help_text='[{"name": "Market", "rolled": "dexterity", "starts_at": 1}, ...]'
    )
    route = models.JSONField(
        default=list, blank=True, help_text="The terrains the storyguide named: [{name, rolled}]."
    )
    offered = models.JSONField(default=list, blank=True, help_text="Terrains offered to the target now.")
    caught_by = models.ForeignKey(
        Combatant, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    acts_against_target = models.BooleanField(default=False)
    last_exchange = models.JSONField(default=dict, blank=True, help_text="The last exchange, as logged.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["encounter", "number"], name="d6_chase_number_per_encounter")
        ]

    def __str__(self) -> str:
        return f"Chase {self.number} of {self.encounter}"

    @property
    def ongoing(self) -> bool:
        return self.outcome == self.Outcome.ONGOING


class Runner(models.Model):
    """A runner in a chase: the target, or a chaser with its own distance to the target."""

    class Role(models.TextChoices):
        TARGET = "target", "Target"
        CHASER = "chaser", "Chaser"

    class Status(models.TextChoices):
        RUNNING = "running", "Running"
        DROPPED_OUT = "dropped_out", "Dropped out"
        LOST_SIGHT = "lost_sight", "Lost sight"
        AHEAD = "ahead", "Moved ahead"

    chase = models.ForeignKey(Chase, on_delete=models.CASCADE, related_name="runners")
    combatant = models.ForeignKey(Combatant, on_delete=models.CASCADE, related_name="d6_runs")
    role = models.CharField(max_length=8, choices=Role.choices)
    position = models.PositiveIntegerField(help_text="0 for the target, then the chasers in rolling order.")
    start_distance = models.PositiveIntegerField(null=True, blank=True)
    distance = models.IntegerField(
        null=True, blank=True, help_text="A chaser's squares to the target; -1 once it moved ahead of it."
    )
    moves_ahead = models.BooleanField(
        default=False, help_text="On the roll that would pass the target: move ahead instead of acting."
    )
    faces = models.JSONField(
        default=list, blank=True, help_text="Faces typed in for the next exchange (physical dice), d6 first."
    )
    base_fatigue = models.PositiveIntegerField()
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.RUNNING)

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["chase", "combatant"], name="d6_one_run_per_chase"),
        ]

    def __str__(self) -> str:
        return f"{self.combatant} ({self.role})"
