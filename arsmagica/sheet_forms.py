"""The Ars Magica sheet's forms: scores as the sheet shows them, and its weapons (ArM3 p163, p168); the
sheet role (`combat.systems.Sheet`): the sheet's page, its levels, an NPC's copies."""

from django import forms
from django.forms import BaseInlineFormSet, inlineformset_factory
from typing_extensions import override

from campaign.forms import CharacterBaseForm, score_field
from campaign.inputs import RefusesControlCharacters, WholeNumberField
from campaign.models import Character
from combat import systems

from .models import BodyLevel, FatigueLevel, Weapon
from .presenters import level_labels as levels
from .sheet import SCORES, sheet_of, write

TEMPLATE = "arsmagica/_sheet.html"
FORM_TEMPLATE = "arsmagica/_sheet_form.html"
LEVEL_HEADINGS = ("Fatigue level", "Body level")


class ArsMagicaCharacterForm(CharacterBaseForm):
    """The Ars Magica combat sheet: a field per declared score (`arsmagica.sheet.SCORES`), the levels."""

    fatigue_level = forms.ChoiceField(label="Fatigue level", choices=FatigueLevel.choices)
    body_level = forms.ChoiceField(label="Body level", choices=BodyLevel.choices)

    class Meta:
        model = Character
        fields = ("name", "notes")
        widgets = {"notes": forms.Textarea(attrs={"rows": 3})}
        error_messages = {"name": {"required": "Every character needs a name."}}

    LIVE_FIELDS = ("fatigue_level", "body_level")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        sheet = sheet_of(self.instance)
        for score in SCORES:
            self.fields[score.name] = score_field(
                score.label, score.help, min_value=score.minimum, max_value=score.maximum
            )
            self.initial.setdefault(score.name, getattr(sheet, score.name))
        self.fields["encumbrance"].error_messages["max_value"] = (
            "Encumbrance is 0 or negative (for example -2): it is subtracted from rolls."
        )
        self.initial.setdefault("fatigue_level", sheet.fatigue_level)
        self.initial.setdefault("body_level", sheet.body_level)
        self.order_fields(["name", *(score.name for score in SCORES), "fatigue_level", "body_level", "notes"])
        self.lock_live_levels()

    def save(self, commit=True):
        values = {name: self.cleaned_data[name] for name in (*(s.name for s in SCORES), *self.LIVE_FIELDS)}
        write(self.instance, **values)
        return super().save(commit=commit)

    def scores(self):
        """The score fields in the sheet's order, for the template."""
        return [self[score.name] for score in SCORES]


class WeaponForm(RefusesControlCharacters, forms.ModelForm):
    initiative = score_field("Initiative", "Initiative Total = stress die + this + modifiers.")
    attack = score_field("Attack", "Attack Total = stress die + this + modifiers.")
    defense = score_field("Defense", "Defense Total = stress die + this + modifiers.")
    damage = score_field("Damage", "Damage Total = this + (Attack Total - Defense Total).")
    paces = WholeNumberField(
        label="Paces",
        required=False,
        min_value=1,
        max_value=1000,
        help_text="Missile weapons: range in paces.",
        error_messages={
            "invalid": "Paces must be a whole number.",
            "min_value": "A missile weapon reaches at least 1 pace.",
            "max_value": "Paces cannot be above %(limit_value)s.",
        },
    )

    class Meta:
        model = Weapon
        fields = (
            "name", "initiative", "attack", "defense", "damage", "optimum_range", "missile", "paces", "twice"
        )
        labels = {"optimum_range": "Range", "missile": "Missile", "twice": "Fires twice"}
        error_messages = {"name": {"required": "Give the weapon a name."}}

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("missile") and not cleaned.get("paces"):
            self.add_error("paces", "A missile weapon needs its range in paces.")
        if cleaned.get("twice") and not cleaned.get("missile"):
            self.add_error("twice", "Only a missile weapon can fire in both missile phases.")
        if not cleaned.get("missile") and cleaned.get("paces"):
            cleaned["paces"] = None
        return cleaned


class BaseWeaponFormSet(BaseInlineFormSet):
    def add_fields(self, form, index):
        super().add_fields(form, index)
        if "DELETE" in form.fields:
            form.fields["DELETE"].label = "Remove"


WeaponFormSet = inlineformset_factory(
    Character, Weapon, form=WeaponForm, formset=BaseWeaponFormSet, extra=1, can_delete=True, max_num=20
)


class Sheet(systems.Sheet):
    """An Ars Magica character's sheet: its scores and weapons, its fatigue and body levels."""

    TEMPLATE = TEMPLATE
    FORM_TEMPLATE = FORM_TEMPLATE
    LEVEL_HEADINGS = LEVEL_HEADINGS

    @override
    def sheet_forms(self, saga, character: Character, data=None):
        """The sheet form and its weapons."""
        form = ArsMagicaCharacterForm(data, instance=character)
        return form, WeaponFormSet(data, instance=character, prefix="weapons")

    @override
    def sheet_context(self, character) -> dict:
        """The sheet page's scores in the sheet's order, the levels in words, the weapons."""
        sheet = sheet_of(character)
        return {
            "scores": [(score.label, getattr(sheet, score.name)) for score in SCORES],
            "levels": levels(character),
            "weapons": list(character.weapons.all()),
        }

    @override
    def levels(self, character):
        return levels(character)

    @override
    def copy_rows(self, original, copies) -> None:
        """Each stamped copy of an NPC gets the original's weapons."""
        fields = [f.name for f in Weapon._meta.concrete_fields if f.name not in ("id", "character")]
        weapons = list(original.weapons.all())
        Weapon.objects.bulk_create(
            Weapon(character=copy, **{name: getattr(weapon, name) for name in fields})
            for copy in copies
            for weapon in weapons
        )
