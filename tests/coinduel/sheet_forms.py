"""A duellist's sheet (the sheet role): a name and notes; a coin needs no scores."""

from django import forms
from django.forms import formset_factory

from campaign.forms import CharacterBaseForm
from campaign.models import Character

TEMPLATE = "coinduel/_sheet.html"
FORM_TEMPLATE = "coinduel/_sheet_form.html"


class DuellistForm(CharacterBaseForm):
    class Meta:
        model = Character
        fields = ("name", "notes")


NoRows = formset_factory(forms.Form, extra=0, max_num=0)


def sheet_forms(saga, character, data=None):
    return DuellistForm(data, instance=character), NoRows(data, prefix="rows")
