"""The d6 sheet, declared once (d6 seed): the saga's attributes, the abilities, current fatigue;
and the saga's option, the attribute names its sheets carry. The form, the sheet page, the rolls
and the demo are made from it; the encounter-file reader is checked against it."""

from __future__ import annotations

from campaign.sheets import SheetView, Value, full_sheet

# The attributes a saga's sheets carry until its storyguide names others.
DEFAULT_ATTRIBUTES = ("strength", "dexterity", "stamina", "intelligence", "perception", "charisma")

FIELDS = (
    Value("attributes", factory=dict, label="Attributes"),  # {"strength": 1, "dexterity": 0, ...}
    # [{"name": "Running", "attribute": "stamina", "consistency": 1, "physical": true}, ...]
    Value("abilities", factory=list, label="Abilities"),
    Value("fatigue", 1, "Fatigue"),  # current fatigue, 1 to 20
)
SAGA_OPTIONS = (Value("attributes", factory=lambda: list(DEFAULT_ATTRIBUTES), label="Attributes"),)


def sheet_of(character) -> SheetView:
    """The character's d6 sheet, read through the declaration."""
    return SheetView(character.sheet, FIELDS)


def new_sheet(**values) -> dict:
    """A whole sheet: the values given, every other field at its default."""
    return full_sheet(values, FIELDS)


def write(character, **changes) -> None:
    """Change fields of the character's sheet (the caller saves `sheet`)."""
    unknown = set(changes) - {each.name for each in FIELDS}
    if unknown:
        raise KeyError(f"not on the d6 sheet: {', '.join(sorted(unknown))}")
    character.sheet = {**full_sheet(character.sheet, FIELDS), **changes}


def saga_attributes(saga) -> list[str]:
    """The attribute names the saga's sheets carry, in its order."""
    return list(SheetView(saga.options, SAGA_OPTIONS).attributes)
