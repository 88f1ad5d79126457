from django.apps import AppConfig


class CampaignConfig(AppConfig):
    """Sagas, memberships and invites, characters, the history archive."""

    name = "campaign"
