"""Ars Magica's rows in a saga's archive: weapons, then each round's declarations."""

from __future__ import annotations

from .models import Declaration, Weapon


def archive_rows(saga) -> dict:
    """The saga's weapons and declarations, in the order an import makes them."""
    return {
        "arsmagica.weapon": Weapon.objects.filter(character__saga=saga),
        "arsmagica.declaration": Declaration.objects.filter(encounter__saga=saga),
    }
