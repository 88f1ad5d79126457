from django.apps import AppConfig


class CombatConfig(AppConfig):
    """Encounters, rounds, declarations and the event log; the rules live in combat.rules."""

    name = "combat"

    def ready(self) -> None:
        from django.urls import register_converter

        from . import kept, saga_live
        from .inputs import InviteTokenConverter, RecordIdConverter

        register_converter(RecordIdConverter, "id")
        register_converter(InviteTokenConverter, "invite")
        saga_live.connect_signals()
        kept.connect_signals()
