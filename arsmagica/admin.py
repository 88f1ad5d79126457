"""Ars Magica's weapons in the host's view at /admin/: changed with the sheet form's checks."""

from django.contrib import admin

from .models import Weapon
from .sheet_forms import WeaponForm


@admin.register(Weapon)
class WeaponAdmin(admin.ModelAdmin):
    """Every character's weapons; a weapon is added on its character's sheet, on the site."""

    form = WeaponForm
    list_display = (
        "name",
        "character",
        "initiative",
        "attack",
        "defense",
        "damage",
        "optimum_range",
        "missile",
    )
    list_filter = ("missile", "twice", "optimum_range")
    search_fields = ("name", "character__name", "character__saga__name")
    list_select_related = ("character",)
    readonly_fields = ("character",)

    def has_add_permission(self, request) -> bool:
        """A weapon is added on its character's sheet, where the saga's rule system is sure."""
        return False
