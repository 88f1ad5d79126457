from django.apps import AppConfig


class CombatConfig(AppConfig):
    """Encounters, rounds, declarations and the event log; the rules live in combat.rules."""

    name = "combat"
