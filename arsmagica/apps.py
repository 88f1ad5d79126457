from django.apps import AppConfig


class ArsMagicaConfig(AppConfig):
    """Ars Magica 3rd edition combat at the table: the six-phase round, fatigue and body levels."""

    name = "arsmagica"
    verbose_name = "Ars Magica"
