"""Forms of the combat pages: a declaration, the encounter set-up, a correction."""

from __future__ import annotations

from django import forms

from arsmagica.models import Declaration
from campaign.inputs import RefusesControlCharacters, WholeNumberField
from combat.errors import InvalidCommand
from combat.inputs import MAX_ID
from combat.models import Combatant

from .models import BodyLevel, FatigueLevel, Range, Weapon
from .presenters import fires_in_words
from .services.dice import PURPOSE_LABELS, faces_text, parse_faces
from .services.sheets import engage_refusal

DICE_PURPOSES = ("initiative", "combat", "missile", "missile_second", "magic", "fatigue")


class DeclarationForm(RefusesControlCharacters, forms.Form):
    """One combatant's declaration for the round (ArM3 p163)."""

    action = forms.ChoiceField(choices=Declaration.Action.choices, initial=Declaration.Action.ATTACK)
    weapon = forms.TypedChoiceField(coerce=int, required=False, empty_value=None)
    engage = forms.MultipleChoiceField(
        required=False, widget=forms.CheckboxSelectMultiple, label="Engage / target"
    )
    range = forms.ChoiceField(
        choices=[("", "Weapon's optimum range"), *Range.choices], required=False, label="At range"
    )
    on_success = forms.ChoiceField(
        choices=Declaration.OnSuccess.choices, initial=Declaration.OnSuccess.HIT, label="If I win an exchange"
    )
    movement = forms.ChoiceField(choices=Declaration.Movement.choices, required=False)
    missile_phase = forms.ChoiceField(
        choices=Declaration.MissilePhase.choices, initial=Declaration.MissilePhase.FIRST, label="Shoot in"
    )
    distance = WholeNumberField(
        required=False, min_value=0, max_value=10000, label="Target distance (paces)"
    )
    charging = forms.BooleanField(required=False)
    high_ground = forms.BooleanField(required=False, label="High ground")
    mounted = forms.BooleanField(required=False, label="On horseback")
    routing = forms.BooleanField(required=False)
    modifier = WholeNumberField(required=False, min_value=-30, max_value=30, label="Initiative modifier")
    spell_kind = forms.ChoiceField(choices=[("", "—"), *Declaration.SpellKind.choices], required=False)
    spell_name = forms.CharField(required=False, max_length=80, label="Spell")
    casting_score = WholeNumberField(required=False, min_value=-30, max_value=100)
    fast_cast_phase = forms.ChoiceField(
        choices=[
            ("", "No"),
            ("first_missile", "First Missile"),
            ("melee", "Melee"),
            ("second_missile", "Second Missile"),
        ],
        required=False,
        label="Fast-cast in",
    )

    def __init__(
        self,
        *args,
        combatant: Combatant,
        others: list[Combatant],
        physical: bool,
        storyguide: bool,
        declaration: Declaration | None = None,
        **kwargs,
    ):
        self.combatant = combatant
        self.physical = physical
        kwargs.setdefault("prefix", f"c{combatant.pk}")
        if declaration is not None and "data" not in kwargs and not args:
            kwargs["initial"] = initial_from(declaration)
        super().__init__(*args, **kwargs)
        weapons = Weapon.of(combatant.character)
        self.has_missile = any(weapon.missile for weapon in weapons)
        self.fields["missile_phase"].help_text = fires_in_words(weapons)
        self.casts = self._acts(Declaration.Action.CAST, declaration)
        # A shooter's missile fields are always shown: a tap on their heading must not hide them.
        self.shoots = self.has_missile or self._acts(Declaration.Action.MISSILE, declaration)
        if declaration is None and weapons:
            self.fields["weapon"].initial = weapons[0].pk
        self.fields["weapon"].choices = [("", "No weapon")] + [(weapon.pk, weapon.name) for weapon in weapons]
        # Whom this combatant may engage (`can_engage`: nobody dead, not itself): what the check accepts.
        self.fields["engage"].choices = [
            (str(other.pk), f"{other.character.name} ({other.side})")
            for other in others
            if engage_refusal(combatant, other) is None
        ]
        if not storyguide:
            del self.fields["modifier"]
        if physical:
            for purpose in DICE_PURPOSES:
                self.fields[f"dice_{purpose}"] = forms.CharField(
                    required=False,
                    max_length=60,
                    label=f"{PURPOSE_LABELS[purpose][:1].upper()}{PURPOSE_LABELS[purpose][1:]} faces",
                    help_text="as rolled, e.g. 1 1 3" if purpose == "initiative" else "",
                    initial=faces_text((declaration.dice if declaration else {}).get(purpose)),
                )

    @property
    def engage_boxes(self) -> list[dict]:
        """The Engage / target checkboxes as Django's widget names them, checked as the form's value;
        the template writes them (a widget render per box was 2.7 ms a form at 40 combatants)."""
        field = self["engage"]
        checked = {str(value) for value in field.value() or ()}
        return [
            {"id": f"{field.auto_id}_{index}", "value": value, "label": label, "checked": value in checked}
            for index, (value, label) in enumerate(self.fields["engage"].choices)
        ]

    def refuse(self, message: str) -> None:
        """A refusal shown above the form, whether it was posted or only drawn (a form that was never
        validated has no cleaned data for `add_error` to prune)."""
        if not hasattr(self, "cleaned_data"):
            self.cleaned_data = {}
        self.add_error(None, message)

    def _acts(self, action: str, declaration: Declaration | None) -> bool:
        """The declaration, as sent or as saved, is this action."""
        if self.is_bound:
            return self.data.get(self.add_prefix("action")) == action
        return declaration is not None and declaration.action == action

    def clean(self):
        data = super().clean()
        dice = {}
        if self.physical:
            for purpose in DICE_PURPOSES:
                try:
                    faces = parse_faces(data.get(f"dice_{purpose}", ""), PURPOSE_LABELS[purpose])
                except InvalidCommand as error:
                    self.add_error(f"dice_{purpose}", str(error))
                    continue
                if faces:
                    dice[purpose] = faces
        data["dice"] = dice
        return data

    @property
    def dice_fields(self) -> list:
        """The typed-dice fields, one per roll the combatant may make (physical dice only)."""
        return [self[name] for name in self.fields if name.startswith("dice_")]

    def values(self) -> dict:
        """The cleaned form as the `declare` service's values."""
        data = self.cleaned_data
        values = {
            "action": data["action"],
            "weapon_id": data.get("weapon"),
            "engage": [int(target) for target in data.get("engage", [])],
            "range": data.get("range") or "",
            "on_success": data["on_success"],
            "movement": data.get("movement") or "",
            "missile_phase": data["missile_phase"],
            "distance": data.get("distance"),
            "charging": data["charging"],
            "high_ground": data["high_ground"],
            "mounted": data["mounted"],
            "routing": data["routing"],
            "spell_kind": data.get("spell_kind") or "",
            "spell_name": data.get("spell_name") or "",
            "casting_score": data.get("casting_score") or 0,
            "fast_cast_phase": data.get("fast_cast_phase") or "",
            "dice": data["dice"],
        }
        if "modifier" in self.fields:
            values["modifier"] = data.get("modifier") or 0
        return values


def initial_from(declaration: Declaration) -> dict:
    return {
        "action": declaration.action,
        "weapon": declaration.weapon_id,
        "engage": [str(target) for target in declaration.engage],
        "range": declaration.range,
        "on_success": declaration.on_success,
        "movement": declaration.movement,
        "missile_phase": declaration.missile_phase,
        "distance": declaration.distance,
        "charging": declaration.charging,
        "high_ground": declaration.high_ground,
        "mounted": declaration.mounted,
        "routing": declaration.routing,
        "modifier": declaration.modifier,
        "spell_kind": declaration.spell_kind,
        "spell_name": declaration.spell_name,
        "casting_score": declaration.casting_score,
        "fast_cast_phase": declaration.fast_cast_phase,
    }


class CorrectionForm(RefusesControlCharacters, forms.Form):
    combatant = forms.TypedChoiceField(coerce=int)
    fatigue_level = forms.ChoiceField(choices=[("", "— unchanged —"), *FatigueLevel.choices], required=False)
    body_level = forms.ChoiceField(choices=[("", "— unchanged —"), *BodyLevel.choices], required=False)
    advantage_attack = WholeNumberField(required=False, min_value=0, max_value=100)
    advantage_defense = WholeNumberField(required=False, min_value=0, max_value=100)
    reason = forms.CharField(
        max_length=500, widget=forms.TextInput(attrs={"placeholder": "Why, for everyone"})
    )

    def __init__(self, *args, combatants: list[Combatant] | None = None, **kwargs):
        """`combatants`: the choices the form is drawn with. A post is read without them: any record
        number is taken, and the service refuses one that is not in the encounter."""
        super().__init__(*args, **kwargs)
        if combatants is None:
            self.fields["combatant"] = WholeNumberField(min_value=1, max_value=MAX_ID, label="Combatant")
        else:
            self.fields["combatant"].choices = [(c.pk, c.character.name) for c in combatants]
