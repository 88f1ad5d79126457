from django.apps import AppConfig


class D6Config(AppConfig):
    """The d6 fatigue system at the table: turn-based fights and chases on a grid, live.

    Its label stays "d6table", the name its tables, migrations and templates were made under.
    """

    name = "d6"
    label = "d6table"
    verbose_name = "d6 table"
