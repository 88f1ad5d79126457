from django.apps import AppConfig


class CampaignConfig(AppConfig):
    """Sagas, memberships and invites, characters, the history archive."""

    name = "campaign"

    def ready(self) -> None:
        from django.urls import register_converter

        from .inputs import InviteTokenConverter, RecordIdConverter

        register_converter(RecordIdConverter, "id")
        register_converter(InviteTokenConverter, "invite")
