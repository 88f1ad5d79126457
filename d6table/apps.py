from django.apps import AppConfig


class D6TableConfig(AppConfig):
    """The d6 fatigue system at the table: turn-based fights and chases on a grid, live."""

    name = "d6table"
    verbose_name = "d6 table"
