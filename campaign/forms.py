"""Campaign forms: sign up, sagas, and the two character sheets, with errors a person understands."""

import re

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.forms import BaseFormSet, BaseInlineFormSet, formset_factory, inlineformset_factory

from combat.rules.d6.fatigue import base_fatigue

from .models import Character, RuleSystem, Saga, Weapon
from .services import MAX_STAMPED_COPIES

SCORE_MIN, SCORE_MAX = -10, 40
CONSISTENCY_MIN, CONSISTENCY_MAX = -10, 10
FATIGUE_MIN, FATIGUE_MAX = 1, 20
MAX_D6_ATTRIBUTES = 12


def score_field(label: str, help_text: str = "", **kwargs) -> forms.IntegerField:
    """An integer score with sane bounds and a plain-words error."""
    return forms.IntegerField(
        label=label,
        min_value=kwargs.pop("min_value", SCORE_MIN),
        max_value=kwargs.pop("max_value", SCORE_MAX),
        initial=kwargs.pop("initial", 0),
        help_text=help_text,
        error_messages={
            "required": f"Give {label} a number (0 if the sheet has none).",
            "invalid": f"{label} must be a whole number.",
            "min_value": f"{label} cannot be below %(limit_value)s.",
            "max_value": f"{label} cannot be above %(limit_value)s.",
        },
        **kwargs,
    )


class SignUpForm(UserCreationForm):
    class Meta(UserCreationForm.Meta):
        fields = ("username",)


class SagaForm(forms.ModelForm):
    physical_dice = forms.TypedChoiceField(
        label="Dice",
        choices=[("False", "The server rolls"), ("True", "Physical dice: players type the faces in")],
        coerce=lambda value: value == "True",
        initial="False",
        widget=forms.RadioSelect,
    )

    class Meta:
        model = Saga
        fields = ("name", "rule_system", "physical_dice")
        labels = {"name": "Saga name", "rule_system": "Rule system"}
        error_messages = {"name": {"required": "Give the saga a name."}}

    def clean_name(self):
        name = self.cleaned_data["name"].strip()
        if not name:
            raise forms.ValidationError("Give the saga a name.")
        return name


class D6AttributesForm(forms.Form):
    names = forms.CharField(
        label="Attribute names",
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


class CharacterBaseForm(forms.ModelForm):
    # Current levels: during a fight they change only through the encounter's events.
    LIVE_FIELDS: tuple[str, ...] = ()

    def lock_live_levels(self) -> None:
        """In an unfinished encounter the levels are the fight's: corrections go through its log."""
        character = self.instance
        if character.pk is None or not character.combatants.exclude(encounter__status="ended").exists():
            return
        for name in self.LIVE_FIELDS:
            self.fields[name].disabled = True
            self.fields[name].help_text = (
                "In a fight: the storyguide corrects it from the encounter page, with a reason for everyone."
            )

    def clean_name(self):
        name = self.cleaned_data["name"].strip()
        if not name:
            raise forms.ValidationError("Every character needs a name.")
        return name


class ArsMagicaCharacterForm(CharacterBaseForm):
    """The Ars Magica combat sheet: scores as the sheet shows them (RULES.md [ours])."""

    quickness = score_field("Quickness", "Walking 9 + Qik paces a round; breaks Initiative ties.")
    stamina = score_field("Stamina", "Fatigue test = stress die + Stamina + Encumbrance, against 6.")
    finesse = score_field("Finesse", "Magic phase order: Qik + Finesse + Encumbrance.")
    athletics = score_field("Athletics", "Sprinting 30 + Qik + Athletics + Enc paces a round.")
    ride = score_field("Ride", "Added to the Initiative Total on horseback.")
    brawling = score_field("Brawling", "May replace the weapon when defending at Touch.")
    soak = score_field("Soak", "One Body level lost per full 5 points of Damage Total above Soak.")
    dodge_defense = score_field("Dodge Defense", "Defense against missiles when not parrying.")
    combat_fatigue = score_field(
        "Combat Fatigue", "Fatigue phase: stress die + Combat Fatigue + wound penalty, against 6."
    )
    encumbrance = score_field("Encumbrance", "0 or negative: the weight of armour and weapons.", max_value=0)

    class Meta:
        model = Character
        fields = (
            "name",
            "quickness",
            "stamina",
            "finesse",
            "athletics",
            "ride",
            "brawling",
            "soak",
            "dodge_defense",
            "combat_fatigue",
            "encumbrance",
            "fatigue_level",
            "body_level",
            "notes",
        )
        labels = {"fatigue_level": "Fatigue level", "body_level": "Body level"}
        widgets = {"notes": forms.Textarea(attrs={"rows": 3})}
        error_messages = {"name": {"required": "Every character needs a name."}}

    LIVE_FIELDS = ("fatigue_level", "body_level")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["encumbrance"].error_messages["max_value"] = (
            "Encumbrance is 0 or negative (for example -2): it is subtracted from rolls."
        )
        self.lock_live_levels()


class WeaponForm(forms.ModelForm):
    initiative = score_field("Initiative", "Initiative Total = stress die + this + modifiers.")
    attack = score_field("Attack", "Attack Total = stress die + this + modifiers.")
    defense = score_field("Defense", "Defense Total = stress die + this + modifiers.")
    damage = score_field("Damage", "Damage Total = this + (Attack Total - Defense Total).")
    paces = forms.IntegerField(
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


class D6CharacterForm(CharacterBaseForm):
    """The d6 sheet: the saga's attributes, current fatigue beside base fatigue (d6 seed)."""

    ATTRIBUTE_PREFIX = "attr_"
    LIVE_FIELDS = ("fatigue",)

    fatigue = forms.IntegerField(
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
        fields = ("name", "fatigue", "notes")
        widgets = {"notes": forms.Textarea(attrs={"rows": 3})}
        error_messages = {"name": {"required": "Every character needs a name."}}

    def __init__(self, *args, attribute_names: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        self.attribute_names = attribute_names
        current = self.instance.attributes or {}
        for name in attribute_names:
            self.fields[self.ATTRIBUTE_PREFIX + name] = score_field(
                name.title(),
                "Base fatigue = 4 - Stamina, at least 1." if name == "stamina" else "",
                initial=current.get(name, 0),
            )
        if self.instance.pk is None:
            self.initial["fatigue"] = None
        self.lock_live_levels()

    def attribute_fields(self):
        return [self[self.ATTRIBUTE_PREFIX + name] for name in self.attribute_names]

    def clean(self):
        cleaned = super().clean()
        attributes = dict(self.instance.attributes or {})
        for name in self.attribute_names:
            value = cleaned.get(self.ATTRIBUTE_PREFIX + name)
            if value is not None:
                attributes[name] = value
        cleaned["attributes"] = attributes
        if cleaned.get("fatigue") is None and "fatigue" not in self.errors:
            cleaned["fatigue"] = base_fatigue(int(attributes.get("stamina", 0)))
        return cleaned

    def save(self, commit=True):
        self.instance.attributes = self.cleaned_data["attributes"]
        return super().save(commit=commit)


class AbilityForm(forms.Form):
    name = forms.CharField(
        label="Ability", max_length=40, error_messages={"required": "Give the ability a name."}
    )
    attribute = forms.ChoiceField(label="Attribute")
    consistency = forms.IntegerField(
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


class BaseAbilityFormSet(BaseFormSet):
    def add_fields(self, form, index):
        super().add_fields(form, index)
        if "DELETE" in form.fields:
            form.fields["DELETE"].label = "Remove"

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
    initial = None if data is not None else list(character.abilities or [])
    return AbilityFormSet(
        data, initial=initial, prefix="abilities", form_kwargs={"attribute_names": attribute_names}
    )


class StampForm(forms.Form):
    count = forms.IntegerField(
        label="How many",
        min_value=1,
        max_value=MAX_STAMPED_COPIES,
        initial=4,
        error_messages={
            "required": "Say how many copies to stamp.",
            "invalid": "Say how many copies as a whole number.",
            "min_value": "Stamp at least one copy.",
            "max_value": f"Stamp at most {MAX_STAMPED_COPIES} copies at a time.",
        },
    )
    base_name = forms.CharField(
        label="Named", max_length=70, required=False, help_text="Copies are numbered: Bandit 1, Bandit 2 ..."
    )


def sheet_forms(saga: Saga, character: Character, data=None):
    """The sheet form and its rows for the saga's rule system."""
    if saga.rule_system == RuleSystem.D6_FATIGUE:
        names = character.d6_attribute_names()
        form = D6CharacterForm(data, instance=character, attribute_names=names)
        return form, ability_formset(character, names, data)
    form = ArsMagicaCharacterForm(data, instance=character)
    return form, WeaponFormSet(data, instance=character, prefix="weapons")
