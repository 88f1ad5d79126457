"""A duellist's sheet (the sheet role): a name and notes; a coin needs no scores."""

from django import forms
from django.forms import formset_factory
from typing_extensions import override

from campaign.forms import CharacterBaseForm
from campaign.models import Character
from combat import systems


class DuellistForm(CharacterBaseForm):
    class Meta:
        model = Character
        fields = ("name", "notes")


NoRows = formset_factory(forms.Form, extra=0, max_num=0)


class Sheet(systems.Sheet):
    TEMPLATE = "coinduel/_sheet.html"
    FORM_TEMPLATE = "coinduel/_sheet_form.html"

    @override
    def sheet_forms(self, saga, character, data=None):
        """The duellist's name and notes, and no rows."""
        return DuellistForm(data, instance=character), NoRows(data, prefix="rows")
