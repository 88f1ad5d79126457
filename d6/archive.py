"""The d6 system's rows in a saga's archive: fights and their fighters, chases and their runners."""

from __future__ import annotations

from .models import Chase, Fight, Fighter, Runner


def archive_rows(saga) -> dict:
    """The saga's fights, fighters, chases and runners, in the order an import makes them."""
    return {
        "d6table.fight": Fight.objects.filter(encounter__saga=saga),
        "d6table.fighter": Fighter.objects.filter(fight__encounter__saga=saga),
        "d6table.chase": Chase.objects.filter(encounter__saga=saga),
        "d6table.runner": Runner.objects.filter(chase__encounter__saga=saga),
    }
