"""The d6 sheet's forms: the saga's attributes, current fatigue, the abilities (d6 seed); the sheet role
(`combat.systems.Sheet`): the sheet's page, its fatigue, the saga's attributes link."""

import re

from django import forms
from django.forms import BaseFormSet, formset_factory
from django.urls import reverse
from typing_extensions import override

from campaign.forms import CharacterBaseForm, score_field
from campaign.inputs import RefusesControlCharacters, WholeNumberField
from campaign.models import Character
from combat import systems

from .rules.fatigue import base_fatigue
from .services.sheet import attribute_names, attribute_rows, stamina_base
from .sheet import saga_attributes, sheet_of, write

TEMPLATE = "d6/_sheet.html"
FORM_TEMPLATE = "d6/_sheet_form.html"
LEVEL_HEADINGS = ("Fatigue",)

CONSISTENCY_MIN, CONSISTENCY_MAX = -10, 10
FATIGUE_MIN, FATIGUE_MAX = 1, 20
MAX_D6_ATTRIBUTES = 12


class D6AttributesForm(RefusesControlCharacters, forms.Form):
    names = forms.CharField(
        label="Attribute names",
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 6}),
        help_text="One per line. Strength, Dexterity and Stamina always stay: the fatigue rules use them.",
    )

    REQUIRED = ("strength", "dexterity", "stamina")

    def clean_names(self) -> list[str]:
        names: list[str] = []
        for line in self.cleaned_data["names"].splitlines():
            name = line.strip().lower()
            if not name:
                continue
            if not re.fullmatch(r"[a-z][a-z ]{0,29}", name):
                raise forms.ValidationError(
                    f"“{line.strip()}” is not a usable attribute name: letters and spaces, at most 30."
                )
            if name not in names:
                names.append(name)
        for required in reversed(self.REQUIRED):
            if required not in names:
                names.insert(0, required)
        if len(names) > MAX_D6_ATTRIBUTES:
            raise forms.ValidationError(f"At most {MAX_D6_ATTRIBUTES} attributes.")
        return names


class D6CharacterForm(CharacterBaseForm):
    """The d6 sheet: the saga's attributes, current fatigue beside base fatigue (d6 seed)."""

    ATTRIBUTE_PREFIX = "attr_"
    LIVE_FIELDS = ("fatigue",)

    fatigue = WholeNumberField(
        label="Current fatigue",
        required=False,
        min_value=FATIGUE_MIN,
        max_value=FATIGUE_MAX,
        help_text="1 to 20. Leave empty to start at base fatigue (4 - Stamina, at least 1).",
        error_messages={
            "invalid": "Fatigue must be a whole number.",
            "min_value": "Fatigue runs from 1 to 20.",
            "max_value": "Fatigue runs from 1 to 20.",
        },
    )

    class Meta:
        model = Character
        fields = ("name", "notes")
        widgets = {"notes": forms.Textarea(attrs={"rows": 3})}
        error_messages = {"name": {"required": "Every character needs a name."}}

    def __init__(self, *args, attribute_names: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        self.attribute_names = attribute_names
        sheet = sheet_of(self.instance)
        current = sheet.attributes
        for name in attribute_names:
            self.fields[self.ATTRIBUTE_PREFIX + name] = score_field(
                name.title(),
                "Base fatigue = 4 - Stamina, at least 1." if name == "stamina" else "",
                initial=current.get(name, 0),
            )
        self.initial.setdefault("fatigue", None if self.instance.pk is None else sheet.fatigue)
        self.order_fields(["name", "fatigue", "notes"])
        self.lock_live_levels()

    @property
    def base_fatigue(self) -> int:
        """The sheet's base fatigue as saved (4 - Stamina, at least 1)."""
        return stamina_base(self.instance)

    def attribute_fields(self):
        return [self[self.ATTRIBUTE_PREFIX + name] for name in self.attribute_names]

    def clean(self):
        cleaned = super().clean()
        attributes = dict(sheet_of(self.instance).attributes)
        for name in self.attribute_names:
            value = cleaned.get(self.ATTRIBUTE_PREFIX + name)
            if value is not None:
                attributes[name] = value
        cleaned["attributes"] = attributes
        if cleaned.get("fatigue") is None and "fatigue" not in self.errors:
            cleaned["fatigue"] = base_fatigue(int(attributes.get("stamina", 0)))
        return cleaned

    def save(self, commit=True):
        write(self.instance, attributes=self.cleaned_data["attributes"], fatigue=self.cleaned_data["fatigue"])
        return super().save(commit=commit)


class AbilityForm(RefusesControlCharacters, forms.Form):
    name = forms.CharField(
        label="Ability", max_length=40, error_messages={"required": "Give the ability a name."}
    )
    attribute = forms.ChoiceField(label="Attribute")
    consistency = WholeNumberField(
        label="Base consistency",
        initial=0,
        min_value=CONSISTENCY_MIN,
        max_value=CONSISTENCY_MAX,
        help_text="Roll one d6 plus |C| d10.",
        error_messages={
            "required": "Give the base consistency (0 if none).",
            "invalid": "Consistency must be a whole number.",
            "min_value": "Consistency runs from -10 to 10.",
            "max_value": "Consistency runs from -10 to 10.",
        },
    )
    physical = forms.BooleanField(
        label="Physical", required=False, help_text="Physical rolls fail outright below current fatigue."
    )

    def __init__(self, *args, attribute_names: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["attribute"].choices = [(name, name.title()) for name in attribute_names]

    def has_changed(self) -> bool:
        """A new row where only the attribute select shows its default is no ability: not a change."""
        if not self.initial:
            return any(name != "attribute" for name in self.changed_data)
        return super().has_changed()


class BaseAbilityFormSet(BaseFormSet):
    def add_fields(self, form, index):
        super().add_fields(form, index)
        if "DELETE" in form.fields:
            form.fields["DELETE"].label = "Remove"

    def save_to_sheet(self, character: Character) -> None:
        """The abilities, as the sheet keeps them."""
        write(character, abilities=self.cleaned_abilities())

    def cleaned_abilities(self) -> list[dict]:
        return [
            {
                "name": form.cleaned_data["name"].strip(),
                "attribute": form.cleaned_data["attribute"],
                "consistency": form.cleaned_data["consistency"],
                "physical": form.cleaned_data["physical"],
            }
            for form in self.forms
            if form.cleaned_data and not form.cleaned_data.get("DELETE")
        ]


AbilityFormSet = formset_factory(
    AbilityForm, formset=BaseAbilityFormSet, extra=1, can_delete=True, max_num=40
)


def ability_formset(character: Character, attribute_names: list[str], data=None) -> BaseAbilityFormSet:
    initial = None if data is not None else list(sheet_of(character).abilities)
    return AbilityFormSet(
        data, initial=initial, prefix="abilities", form_kwargs={"attribute_names": attribute_names}
    )


class Sheet(systems.Sheet):
    """A d6 character's sheet: its attributes and abilities, its fatigue; the saga's attribute names."""

    TEMPLATE = TEMPLATE
    FORM_TEMPLATE = FORM_TEMPLATE
    LEVEL_HEADINGS = LEVEL_HEADINGS

    @override
    def sheet_forms(self, saga, character: Character, data=None):
        """The sheet form and its abilities, with the saga's attribute names."""
        names = attribute_names(character)
        form = D6CharacterForm(data, instance=character, attribute_names=names)
        return form, ability_formset(character, names, data)

    @override
    def sheet_context(self, character) -> dict:
        """The sheet page's attributes in the saga's order, the fatigue and its base, the abilities."""
        sheet = sheet_of(character)
        return {
            "attribute_rows": attribute_rows(character),
            "base_fatigue": stamina_base(character),
            "fatigue": sheet.fatigue,
            "abilities": sheet.abilities,
        }

    @override
    def levels(self, character) -> list[tuple[str, str]]:
        """The character's fatigue, for the saga's character table."""
        return [("Fatigue", str(sheet_of(character).fatigue))]

    @override
    def saga_links(self, saga) -> list[tuple[str, str, str]]:
        """The saga page's link to the attributes every d6 sheet has."""
        names = ", ".join(saga_attributes(saga))
        return [(reverse("d6:attributes", args=[saga.pk]), "Attributes on the d6 sheets", names)]
