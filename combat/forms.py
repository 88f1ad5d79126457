"""The core's forms: the characters to put in an encounter (their side: combat/sides.py)."""

from __future__ import annotations

from collections.abc import Collection

from django import forms

from campaign.inputs import RefusesControlCharacters
from campaign.models import Character, fighter_label


class AddCombatantsForm(RefusesControlCharacters, forms.Form):
    characters = forms.MultipleChoiceField(widget=forms.CheckboxSelectMultiple)

    def __init__(self, *args, available: list[Character], storyguides: Collection[int] = (), **kwargs):
        """`available`: the characters that may join, their players with them (each named by its player,
        "(storyguide)" after any of `storyguides`, the saga's storyguides' ids)."""
        super().__init__(*args, **kwargs)
        self.fields["characters"].choices = [(str(c.pk), fighter_label(c, storyguides)) for c in available]
