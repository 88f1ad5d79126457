"""The host's view of sagas, memberships and characters at /admin/ (users are django.contrib.auth's).

Things are made on the site, where their rule system checks them: here the host finds, looks, and
fixes what the site lets its storyguide fix (a name, an owner, the archive), nothing the log relies on.
"""

from django import forms
from django.contrib import admin

from . import services
from .models import Character, Membership, Saga


class MembershipInline(admin.TabularInline):
    """A saga's people, read on its page: joining is the invite's, leaving is the membership list's."""

    model = Membership
    fields = readonly_fields = ("user", "role", "joined_at")
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        """Nobody joins from the saga's page: use the membership list's Add."""
        return False


@admin.register(Saga)
class SagaAdmin(admin.ModelAdmin):
    """Sagas: made on the site (with the storyguide's membership); renamed, archived or retuned here."""

    list_display = (
        "name",
        "rule_system",
        "storyguide",
        "npc_rolls",
        "physical_dice",
        "created_at",
        "archived_at",
    )
    list_filter = ("rule_system", "npc_rolls", "physical_dice", ("archived_at", admin.EmptyFieldListFilter))
    search_fields = ("name", "storyguide__username")
    date_hierarchy = "created_at"
    fields = ("name", "rule_system", "storyguide", "physical_dice", "npc_rolls", "archived_at", "created_at")
    readonly_fields = ("rule_system", "storyguide", "physical_dice", "created_at")
    inlines = [MembershipInline]

    def has_add_permission(self, request) -> bool:
        """A saga is made on the site, which makes its storyguide's membership with it."""
        return False


class MembershipForm(forms.ModelForm):
    """A player put in a saga by the host: the storyguide's own membership comes with the saga."""

    class Meta:
        model = Membership
        fields = ("saga", "user")

    def save(self, commit=True) -> Membership:
        """The membership, as a player's."""
        self.instance.role = Membership.Role.PLAYER
        return super().save(commit)


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    """Who plays in which saga; the host can add a player or take one out, not change a role."""

    form = MembershipForm
    list_display = ("user", "saga", "role", "joined_at")
    list_filter = ("role", "saga__rule_system")
    search_fields = ("user__username", "saga__name")
    list_select_related = ("user", "saga")
    autocomplete_fields = ("saga", "user")

    def get_readonly_fields(self, request, obj=None):
        """A membership, once made, is read as it is: only added or deleted."""
        return ("saga", "user", "role", "joined_at") if obj else ()

    def has_delete_permission(self, request, obj=None) -> bool:
        """The storyguide's membership goes only with the saga."""
        if obj is not None and obj.role == Membership.Role.STORYGUIDE:
            return False
        return super().has_delete_permission(request, obj)


class CharacterForm(forms.ModelForm):
    """A character's name, owner and notes; the owner must play in the character's saga."""

    class Meta:
        model = Character
        fields = ("name", "owner", "notes")

    def clean_owner(self):
        """The owner, if any, when they are a member of the saga."""
        owner = self.cleaned_data["owner"]
        if owner and not self.instance.saga.memberships.filter(user=owner).exists():
            raise forms.ValidationError(f"{owner} is not in {self.instance.saga}: add a membership first.")
        return owner


@admin.register(Character)
class CharacterAdmin(admin.ModelAdmin):
    """Characters and NPCs: made on the site with their rule system's sheet; the sheet is read here."""

    form = CharacterForm
    list_display = ("name", "saga", "owner", "is_npc", "created_at")
    list_filter = ("is_npc", "saga__rule_system")
    search_fields = ("name", "saga__name", "owner__username")
    list_select_related = ("saga", "owner")
    autocomplete_fields = ("owner",)
    fields = ("name", "saga", "owner", "is_npc", "stamped_from", "notes", "sheet", "created_at")
    readonly_fields = ("saga", "is_npc", "stamped_from", "sheet", "created_at")

    def has_add_permission(self, request) -> bool:
        """A character is made on the site, where its rule system fills in the sheet."""
        return False

    def save_model(self, request, obj, form, change) -> None:
        """A new name goes the site's way, into the log of each open encounter the character fights in."""
        if change and "name" in form.changed_data:
            name, obj.name = obj.name, form.initial["name"]
            services.rename_character(obj, name, request.user)
        super().save_model(request, obj, form, change)

    def has_delete_permission(self, request, obj=None) -> bool:
        """Not a character the saga's history names (the site refuses it too: campaign.services)."""
        if obj is not None and services.character_in_history(obj):
            return False
        return super().has_delete_permission(request, obj)
