from django.apps import AppConfig


class CombatConfig(AppConfig):
    """Encounters, rounds, declarations and the event log; the rules live in combat.rules."""

    name = "combat"

    def ready(self) -> None:
        from . import checks, kept, receivers, saga_live  # noqa: F401 (checks: registered on import)

        saga_live.connect_signals()
        kept.connect_signals()
        receivers.connect_signals()
