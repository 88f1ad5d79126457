"""The Ars Magica sheet's forms: scores as the sheet shows them, and its weapons (ArM3 p163, p168)."""

from django import forms
from django.forms import BaseInlineFormSet, inlineformset_factory

from campaign.forms import CharacterBaseForm, score_field
from campaign.models import Character, Weapon


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


def sheet_forms(saga, character: Character, data=None):
    """The sheet form and its weapons."""
    form = ArsMagicaCharacterForm(data, instance=character)
    return form, WeaponFormSet(data, instance=character, prefix="weapons")
