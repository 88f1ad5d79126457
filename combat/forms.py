"""The core's forms: a new encounter, and the characters to put in it (their side: combat/sides.py)."""

from __future__ import annotations

from django import forms

from campaign.models import Character

from .inputs import RefusesControlCharacters


class EncounterForm(RefusesControlCharacters, forms.Form):
    name = forms.CharField(max_length=120, label="Encounter name")


class AddCombatantsForm(RefusesControlCharacters, forms.Form):
    characters = forms.MultipleChoiceField(widget=forms.CheckboxSelectMultiple)

    def __init__(self, *args, available: list[Character], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["characters"].choices = [
            (str(c.pk), f"{c.name}{' (NPC)' if c.is_npc else ''}") for c in available
        ]
