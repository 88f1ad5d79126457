from django.apps import AppConfig


class CombatConfig(AppConfig):
    """Encounters, rounds, declarations and the event log; the rules live in combat.rules."""

    name = "combat"

    def ready(self) -> None:
        from . import history_kept, saga_live

        saga_live.connect_signals()
        history_kept.connect_signals()
