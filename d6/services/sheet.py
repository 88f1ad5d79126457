"""What a d6 character rolls, read from the sheet: Consistency, Potential and whether it is physical.

RULES.md Part 2 / docs/rules.md (decisions): an ability gives its base consistency (and potential,
0 when the sheet has none); an attribute rolled directly gives C = its score, P = 0. A roll is
physical when its attribute is Strength, Dexterity or Stamina, or the ability is marked physical.
"""

from __future__ import annotations

from dataclasses import dataclass

from campaign.models import Character
from combat.errors import InvalidCommand
from combat.rules.errors import RulesError
from d6.rules import Score
from d6.rules.encounter_file import PHYSICAL_ATTRIBUTES
from d6.rules.fatigue import base_fatigue, check_fatigue
from d6.sheet import saga_attributes, sheet_of, write

ATTRIBUTE = "attribute"
ABILITY = "ability"


@dataclass(frozen=True)
class SheetScore:
    """One thing a character can roll: `key` is "attribute:dexterity" or "ability:Swordplay"."""

    kind: str
    name: str
    consistency: int
    potential: int
    physical: bool

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.name}"

    @property
    def label(self) -> str:
        return self.name.title() if self.kind == ATTRIBUTE else self.name


def attribute_names(character: Character) -> list[str]:
    """The saga's attributes in its order, then any this sheet keeps that the saga no longer names."""
    names = saga_attributes(character.saga)
    return names + [name for name in sheet_of(character).attributes if name not in names]


def attribute_rows(character: Character) -> list[tuple[str, int]]:
    """The sheet's attributes with their scores, in the saga's order."""
    attributes = sheet_of(character).attributes
    return [(name, attributes.get(name, 0)) for name in attribute_names(character)]


def _whole(value) -> int:
    try:
        return int(value or 0)
    except (TypeError, ValueError):
        return 0


def scores_of(character: Character) -> list[SheetScore]:
    """The character's attributes (in the saga's order), then its abilities."""
    scores = [
        SheetScore(
            ATTRIBUTE, name, _whole(sheet_of(character).attributes.get(name)), 0, name in PHYSICAL_ATTRIBUTES
        )
        for name in attribute_names(character)
    ]
    for ability in sheet_of(character).abilities or []:
        if not isinstance(ability, dict) or not ability.get("name"):
            continue
        physical = ability.get("physical")
        if physical is None:
            physical = ability.get("attribute") in PHYSICAL_ATTRIBUTES
        scores.append(
            SheetScore(
                ABILITY,
                str(ability["name"]),
                _whole(ability.get("consistency")),
                _whole(ability.get("potential")),
                bool(physical),
            )
        )
    return scores


def score_of(character: Character, key: str) -> SheetScore:
    """The score named by `key`; InvalidCommand when the sheet has none."""
    for score in scores_of(character):
        if score.key == key:
            return score
    kind, _, name = (key or "").partition(":")
    raise InvalidCommand(f"{character.name}'s sheet has no {kind or 'score'} {name or key!r}.")


def chase_scores(character: Character) -> dict[str, Score]:
    """Scores by name for a chase's terrain (`Terrain.rolled`): attributes, then abilities."""
    scores: dict[str, Score] = {}
    for score in scores_of(character):
        scores.setdefault(score.name, Score(consistency=score.consistency, potential=score.potential))
    return scores


def rollable_names(characters) -> list[str]:
    """What a terrain may call for: the attributes, then every ability among these characters."""
    names: list[str] = []
    for character in characters:
        for score in scores_of(character):
            if score.name not in names:
                names.append(score.name)
    return names


def dexterity_of(character: Character) -> int:
    """RULES.md Part 2 [ours]: initiative rolls Dexterity (0 when the sheet has none)."""
    return _whole(sheet_of(character).attributes.get("dexterity"))


def stamina_base(character: Character) -> int:
    """d6 seed: base fatigue = 4 - Stamina, at least 1."""
    return base_fatigue(_whole(sheet_of(character).attributes.get("stamina")))


def save_fatigue(character: Character, fatigue: int) -> None:
    """The sheet's current fatigue set and saved, when it changed."""
    if sheet_of(character).fatigue != fatigue:
        write(character, fatigue=fatigue)
        character.save(update_fields=["sheet"])


def current_fatigue(character: Character) -> int:
    """The sheet's current fatigue, checked against the 1..20 track."""
    try:
        return check_fatigue(sheet_of(character).fatigue)
    except RulesError:
        fatigue = sheet_of(character).fatigue
        message = f"{character.name}'s fatigue ({fatigue}) is off the 1-20 track; fix the sheet."
        raise InvalidCommand(message) from None
