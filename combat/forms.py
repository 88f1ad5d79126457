"""The core's forms: the characters to put in an encounter (their side: combat/sides.py)."""

from __future__ import annotations

from django import forms

from campaign.inputs import RefusesControlCharacters
from campaign.models import Character


class AddCombatantsForm(RefusesControlCharacters, forms.Form):
    characters = forms.MultipleChoiceField(widget=forms.CheckboxSelectMultiple)

    def __init__(self, *args, available: list[Character], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["characters"].choices = [
            (str(c.pk), f"{c.name}{' (NPC)' if c.is_npc else ''}") for c in available
        ]
