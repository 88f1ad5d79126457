"""Campaign forms: sign up, sagas, what every character sheet shares; each rule system adds its own."""

from django import forms
from django.conf import settings
from django.contrib.auth.forms import UserCreationForm

from campaign import systems
from campaign.inputs import RefusesControlCharacters, WholeNumberField, refuse_control_characters

from .access import is_lead
from .models import Character, Membership, NpcRolls, Saga, npc_rolls_choices
from .services import MAX_STAMPED_COPIES

SCORE_MIN, SCORE_MAX = -10, 40
MAX_NOTES = 10_000


def score_field(label: str, help_text: str = "", **kwargs) -> WholeNumberField:
    """An integer score with sane bounds and a plain-words error."""
    return WholeNumberField(
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


class SignUpForm(RefusesControlCharacters, UserCreationForm):
    class Meta(UserCreationForm.Meta):
        fields = ("username",)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if settings.PASSWORD_RESET_BY_EMAIL:  # only where a forgotten password can be reset by email
            self.fields["email"] = forms.EmailField(
                label="Email (optional)",
                required=False,
                help_text="Only to send you a link if you forget your password.",
            )

    def save(self, commit=True):
        """The account, with the email address when one was given."""
        self.instance.email = self.cleaned_data.get("email", "")
        return super().save(commit)


class SagaForm(RefusesControlCharacters, forms.ModelForm):
    physical_dice = forms.TypedChoiceField(
        label="Dice",
        choices=[("False", "The server rolls"), ("True", "Physical dice: players type the faces in")],
        coerce=lambda value: value == "True",
        initial="False",
        widget=forms.RadioSelect,
    )

    class Meta:
        model = Saga
        fields = ("name", "rule_system", "physical_dice", "npc_rolls")
        labels = {"name": "Saga name", "rule_system": "Rule system"}
        widgets = {"npc_rolls": forms.RadioSelect}
        error_messages = {"name": {"required": "Give the saga a name."}}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["rule_system"] = forms.ChoiceField(
            label="Rule system", choices=systems.choices(), initial=systems.all_systems()[0].key
        )
        self.fields["npc_rolls"].required = False

    def clean_npc_rolls(self):
        """Left out, the default: players see an NPC's results only."""
        return self.cleaned_data["npc_rolls"] or NpcRolls.RESULTS

    def clean_name(self):
        name = self.cleaned_data["name"].strip()
        if not name:
            raise forms.ValidationError("Give the saga a name.")
        return name


class NpcRollsForm(forms.ModelForm):
    """The storyguide's choice, on the saga page, of how much of an NPC's rolls the players see."""

    class Meta:
        model = Saga
        fields = ("npc_rolls",)
        widgets = {"npc_rolls": forms.RadioSelect}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["npc_rolls"].choices = npc_rolls_choices(self.instance)  # in the saga's system's words


class CharacterBaseForm(RefusesControlCharacters, forms.ModelForm):
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

    def clean_notes(self):
        notes = self.cleaned_data.get("notes", "")
        if len(notes) > MAX_NOTES:
            raise forms.ValidationError(f"Notes are at most {MAX_NOTES} characters.")
        return notes


class StampForm(RefusesControlCharacters, forms.Form):
    count = WholeNumberField(
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
    base_name = forms.CharField(label="Named", max_length=70, required=False)


WAITING = "waiting"  # the choice of a player character made for a player who will join
OWN = "own"  # a joining player's choice to make a character of their own


class PlayedByForm(forms.Form):
    """Who plays a player character: the storyguide's choice when making one and when handing one over."""

    player = forms.ChoiceField(
        label="Played by",
        error_messages={
            "required": "Choose who plays this character.",
            "invalid_choice": "Choose one of the saga's members, or a player who will join.",
        },
    )

    def __init__(self, saga: Saga, *args, **kwargs):
        super().__init__(*args, **kwargs)
        members = saga.memberships.select_related("user").order_by("role", "user__username")
        self.fields["player"].choices = [
            (WAITING, "Nobody yet: a player who will join"),
            *(
                (str(m.user_id), f"{m.user.get_username()} (lead storyguide)"
                 if is_lead(m.user, saga) else f"{m.user.get_username()} (storyguide)"
                 if m.role == m.Role.STORYGUIDE else m.user.get_username())
                for m in members
            ),
        ]
        self.members = {str(m.user_id): m.user for m in members}

    def chosen(self):
        """The member chosen, or None for a player who will join."""
        return self.members.get(self.cleaned_data["player"])


class TroupeForm(forms.Form):
    """The lead's choice of a member for one change of the saga's troupe (campaign.views.saga_troupe): the
    page offers the members the change fits; a post may name any member, and the service says why not."""

    member = forms.ChoiceField(
        error_messages={
            "required": "Choose a member of the saga.",
            "invalid_choice": "Choose a member of the saga: that one is not in it (any more).",
        },
    )

    def __init__(self, label: str, offered: list[Membership], members: list[Membership], *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["member"].label = label
        listed = members if self.is_bound else offered
        choices = [(str(m.user_id), m.user.get_username()) for m in listed]
        self.fields["member"].choices = [("", "Choose…"), *choices]
        self.users = {str(m.user_id): m.user for m in members}

    def chosen(self):
        """The member chosen."""
        return self.users[self.cleaned_data["member"]]


class TakeForm(forms.Form):
    """A joining player's choice: a character the storyguide made for a player who will join, or their own."""

    character = forms.CharField(
        label="Your character",
        error_messages={"required": "Choose a character to play, or to make your own."},
    )

    def __init__(self, waiting: list[Character], *args, **kwargs):
        super().__init__(*args, **kwargs)
        choices = [(str(c.pk), c.name) for c in waiting]
        choices.append((OWN, "A character of my own: I make it next"))
        self.fields["character"].widget = forms.RadioSelect(choices=choices)

    def clean_character(self):
        """OWN, or a character's id (the service says whether it is still waiting)."""
        value = self.cleaned_data["character"].strip()
        if value != OWN and not (value.isdigit() and len(value) <= 18):  # an id fits a 64-bit integer
            raise forms.ValidationError("Choose a character to play, or to make your own.")
        return value


class NameAndNotesForm(CharacterBaseForm):
    """A sheet with no scores: the character's name and notes."""

    class Meta:
        model = Character
        fields = ("name", "notes")


NoRows = forms.formset_factory(forms.Form, extra=0, max_num=0)


def name_and_notes(character: Character, data=None):
    """The default sheet's forms (`combat.systems.Sheet.sheet_forms`): name and notes, and no rows."""
    return NameAndNotesForm(data, instance=character), NoRows(data, prefix="rows")


def sheet_forms(saga: Saga, character: Character, data=None):
    """The sheet form and its rows for the saga's rule system."""
    return systems.of(saga).sheet.sheet_forms(saga, character, data)


MAX_ARCHIVE_BYTES = 64 * 1024 * 1024


class ArchiveImportForm(forms.Form):
    """A saga archive to import (format 2, the storyguide's archive.json)."""

    archive = forms.FileField(
        label="Archive file",
        help_text="A saga's archive.json, as its storyguide downloaded it. Its players are matched to "
        "people here by username; no account is made for anyone else.",
    )

    def clean_archive(self):
        archive = self.cleaned_data["archive"]
        if archive.size > MAX_ARCHIVE_BYTES:
            raise forms.ValidationError(
                f"That file is over {MAX_ARCHIVE_BYTES // (1024 * 1024)} MiB: "
                "import it with manage.py import_saga."
            )
        return archive


def stamp_form(base_name: str, data=None) -> StampForm:
    """The stamp form of one NPC, its hint in the template's own name ("Grog 1, Grog 2 ...")."""
    form = StampForm(data, initial={"base_name": base_name})
    form.fields["base_name"].help_text = f"Copies are numbered: {base_name} 1, {base_name} 2 ..."
    return form


class RenameForm(RefusesControlCharacters, forms.Form):
    """A new name for a saga, a character, an NPC or template, or an encounter."""

    def __init__(self, *args, max_length: int, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["name"] = forms.CharField(
            label="New name",
            max_length=max_length,
            error_messages={"required": "Give it a name.", "max_length": f"At most {max_length} characters."},
            validators=[refuse_control_characters],
        )

    def clean_name(self):
        name = self.cleaned_data["name"].strip()
        if not name:
            raise forms.ValidationError("Give it a name.")
        return name


class DeleteForm(RefusesControlCharacters, forms.Form):
    """Delete, once the box is ticked; with history, the name typed destroys instead of archiving."""

    confirm = forms.BooleanField(
        label="Yes, delete it",
        error_messages={"required": "Tick the box to confirm: nothing is deleted until you do."},
    )
    typed_name = forms.CharField(
        label="To destroy it for good instead of archiving, type its name",
        max_length=120,
        required=False,
    )

    def __init__(self, *args, name: str, history: bool, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["confirm"].label = f"Yes, delete {name}"
        if not history:
            del self.fields["typed_name"]
