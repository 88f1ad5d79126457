"""The host's view of encounters and the logs at /admin/: the logs are read-only, for the log is the truth
and an edited event would no longer replay; an encounter changes only by its commands, on the site."""

from django.contrib import admin

from .models import Combatant, Encounter, Event, SagaRecord


class ReadOnly:
    """Neither added, changed nor deleted here, even by a superuser: only looked at."""

    def has_add_permission(self, request, obj=None) -> bool:
        """Nothing is added here."""
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        """Nothing is changed here."""
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        """Nothing is deleted here."""
        return False


class CombatantInline(ReadOnly, admin.TabularInline):
    """Who is in the encounter, on which side: added and taken out by the storyguide's commands."""

    model = Combatant
    fields = readonly_fields = ("character", "side", "order", "state")
    extra = 0


@admin.register(Encounter)
class EncounterAdmin(admin.ModelAdmin):
    """Encounters: renamed or archived here; their round, phase and pending roll only by commands."""

    list_display = (
        "name",
        "saga",
        "status",
        "round_number",
        "phase",
        "last_seq",
        "created_at",
        "archived_at",
    )
    list_filter = ("status", "saga__rule_system", ("archived_at", admin.EmptyFieldListFilter))
    search_fields = ("name", "saga__name")
    list_select_related = ("saga",)
    date_hierarchy = "created_at"
    readonly_fields = (
        "saga",
        "status",
        "round_number",
        "phase",
        "version",
        "last_seq",
        "pending",
        "round_log",
        "created_at",
    )
    fields = ("name", "archived_at", *readonly_fields)
    inlines = [CombatantInline]

    def has_add_permission(self, request) -> bool:
        """An encounter is made on the site, which writes the first line of its log."""
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        """Its log would go with it: the storyguide deletes or archives it on the site."""
        return False


@admin.register(Event)
class EventAdmin(ReadOnly, admin.ModelAdmin):
    """Every encounter's log, line by line, to read."""

    list_display = (
        "seq",
        "kind",
        "encounter",
        "round_number",
        "phase",
        "actor",
        "storyguide_only",
        "created_at",
    )
    list_filter = ("kind", "storyguide_only", "encounter__saga__rule_system")
    search_fields = ("kind", "encounter__name", "encounter__saga__name", "actor__username")
    list_select_related = ("encounter", "actor")
    date_hierarchy = "created_at"


@admin.register(SagaRecord)
class SagaRecordAdmin(ReadOnly, admin.ModelAdmin):
    """What happened to a saga's characters outside encounters (time passing), to read."""

    list_display = ("kind", "saga", "actor", "created_at")
    list_filter = ("kind", "saga__rule_system")
    search_fields = ("kind", "saga__name", "actor__username")
    list_select_related = ("saga", "actor")
    date_hierarchy = "created_at"
