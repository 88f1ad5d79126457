"""The Ars Magica sheet, declared once: its scores as the sheet shows them (totals, not formulas:
RULES.md [ours]), and its current levels (ArM3 p163, p168, p177). The form, the sheet page, the
engine's snapshot and the demo are all made from it; the encounter-file reader is checked against it."""

from __future__ import annotations

from campaign.sheets import Score, SheetView, Value, full_sheet

SCORES = (
    Score("quickness", "Quickness", "Walking 9 + Qik paces a round; breaks Initiative ties."),
    Score("stamina", "Stamina", "Fatigue test = stress die + Stamina + Encumbrance, against 6."),
    Score("finesse", "Finesse", "Magic phase order: Qik + Finesse + Encumbrance."),
    Score("athletics", "Athletics", "Sprinting 30 + Qik + Athletics + Enc paces a round."),
    Score("ride", "Ride", "Added to the Initiative Total on horseback."),
    Score("brawling", "Brawling", "May replace the weapon when defending at Touch."),
    Score("soak", "Soak", "One Body level lost per full 5 points of Damage Total above Soak."),
    Score("dodge_defense", "Dodge Defense", "Defense against missiles when not parrying."),
    Score(
        "combat_fatigue",
        "Combat Fatigue",
        "Fatigue phase: stress die + Combat Fatigue + wound penalty, against 6.",
    ),
    Score("encumbrance", "Encumbrance", "0 or negative: the weight of armour and weapons.", maximum=0),
)
LEVELS = (
    Value("fatigue_level", "fresh", "Fatigue level"),
    Value("body_level", "unhurt", "Body level"),
    # The engine's FatigueState, in step with fatigue_level: {"lost": ["short_term", "long_term"],
    # "recovery_seconds": 0}, each lost level with its exertion, oldest first (ArM3 p177).
    Value("fatigue_state", factory=dict),
)
FIELDS = SCORES + LEVELS


# What a combatant carries from one round to the next: advantage won (ArM3 p168).
CARRIED = (
    Value("advantage_attack", 0, "Advantage on next Attack"),
    Value("advantage_defense", 0, "Advantage on next Defense"),
)


def carried(combatant) -> SheetView:
    """What the combatant carries into the next round, read through the declaration."""
    return SheetView(combatant.state, CARRIED)


def carry(combatant, **changes) -> None:
    """Change what the combatant carries (the caller saves `state`)."""
    unknown = set(changes) - {each.name for each in CARRIED}
    if unknown:
        raise KeyError(f"not carried between rounds: {', '.join(sorted(unknown))}")
    combatant.state = {**full_sheet(combatant.state, CARRIED), **changes}


def sheet_of(character) -> SheetView:
    """The character's Ars Magica sheet, read through the declaration."""
    return SheetView(character.sheet, FIELDS)


def new_sheet(**values) -> dict:
    """A whole sheet: the values given, every other field at its default."""
    return full_sheet(values, FIELDS)


def write(character, **changes) -> None:
    """Change fields of the character's sheet (the caller saves `sheet`)."""
    unknown = set(changes) - {each.name for each in FIELDS}
    if unknown:
        raise KeyError(f"not on the Ars Magica sheet: {', '.join(sorted(unknown))}")
    character.sheet = {**full_sheet(character.sheet, FIELDS), **changes}
