"""docs/schemas/arsmagica.schema.json agrees with the examples and with the file reader."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest

from arsmagica.rules.encounter_file import resolve
from combat.rules.errors import EncounterFileError

ROOT = Path(__file__).resolve().parents[3]
SCHEMA = json.loads((ROOT / "docs" / "schemas" / "arsmagica.schema.json").read_text())
EXAMPLES = sorted((ROOT / "docs" / "examples").glob("sir-boris-*.json"))
TYPES = {
    "object": dict,
    "array": list,
    "string": str,
    "boolean": bool,
    "null": type(None),
}


def _is(value, name):
    if name == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, TYPES[name])


def problems(value, schema, where="$"):
    """The part of JSON Schema 2020-12 this schema uses, enough to check our own files."""
    if "$ref" in schema:
        found = problems(value, SCHEMA["$defs"][schema["$ref"].removeprefix("#/$defs/")], where)
        rest = {key: item for key, item in schema.items() if key not in ("$ref", "description")}
        return found + (problems(value, rest, where) if rest else [])
    found = []
    if "anyOf" in schema and all(problems(value, option, where) for option in schema["anyOf"]):
        found.append(f"{where}: matches no choice")
    if "const" in schema and value != schema["const"]:
        found.append(f"{where}: not {schema['const']!r}")
    if "enum" in schema and value not in schema["enum"]:
        found.append(f"{where}: not one of {schema['enum']}")
    if "type" in schema:
        names = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(_is(value, name) for name in names):
            return [*found, f"{where}: not {names}"]
    if isinstance(value, int) and not isinstance(value, bool):
        if value < schema.get("minimum", value) or value > schema.get("maximum", value):
            found.append(f"{where}: out of range")
    if isinstance(value, str) and len(value) < schema.get("minLength", 0):
        found.append(f"{where}: too short")
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0):
            found.append(f"{where}: too few items")
        for index, item in enumerate(value):
            found += problems(item, schema.get("items", {}), f"{where}[{index}]")
    if isinstance(value, dict):
        for key in schema.get("required", []):
            if key not in value:
                found.append(f"{where}.{key}: missing")
        for key, item in value.items():
            if key in schema.get("properties", {}):
                found += problems(item, schema["properties"][key], f"{where}.{key}")
            elif any(re.search(pattern, key) for pattern in schema.get("patternProperties", {})):
                continue
            elif schema.get("additionalProperties") is False:
                found.append(f"{where}.{key}: not allowed")
            elif isinstance(schema.get("additionalProperties"), dict):
                found += problems(item, schema["additionalProperties"], f"{where}.{key}")
    return found


FULL_FILE = {
    "rules": "arsmagica",
    "seed": "every field",
    "title": "every field the format knows",
    "combatants": [
        {
            "id": "rider",
            "name": "Rider",
            "quickness": 1,
            "stamina": 1,
            "finesse": 0,
            "athletics": 1,
            "ride": 3,
            "brawling": 2,
            "soak": 4,
            "dodge": 3,
            "combat_fatigue": 2,
            "encumbrance": -1,
            "fatigue_level": "winded",
            "body_level": "hurt",
            "notes": "a knight",
            "weapons": [
                {"name": "lance", "initiative": 5, "attack": 9, "defense": 3, "damage": 9, "range": "long"},
                {
                    "name": "sling",
                    "initiative": 1,
                    "attack": 5,
                    "defense": 0,
                    "damage": 5,
                    "range": "long",
                    "missile": True,
                    "paces": 40,
                    "twice": True,
                },
            ],
        },
        {"id": "troll", "name": "Troll", "body_levels": {"hurt": 3, "light_wounds": 2}, "weapons": []},
        {"id": "magus", "name": "Magus", "stamina": 2},
    ],
    "rounds": [
        {
            "declarations": [
                {
                    "combatant": "rider",
                    "action": "attack",
                    "weapon": "lance",
                    "engage": ["troll"],
                    "range": "long",
                    "on_success": "advantage_attack",
                    "movement": "horseback",
                    "mounted": True,
                    "charging": True,
                    "high_ground": True,
                    "modifier": 1,
                },
                {"combatant": "troll", "action": "move", "routing": True, "movement": "sprinting"},
                {
                    "combatant": "magus",
                    "action": "cast",
                    "spell": {
                        "kind": "spontaneous",
                        "casting_score": 7,
                        "name": "Pilum",
                        "fast_cast_phase": None,
                    },
                },
            ],
            "dice": {"rider": {"initiative": [1, 4], "combat": [6], "fatigue": [7]}, "magus": {"magic": [5]}},
            "botch_dice": {"rider": 2},
            "fatigue_ease_factor": 7,
            "modifiers": {"troll": -1},
            "overrides": [{"attacker": "rider", "defender": "troll", "on_success": "hit"}],
            "extra_fatigue_rollers": ["magus"],
        },
        {"declarations": [], "notes": "a quiet round: nobody declares, nobody acts"},
    ],
}


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda path: path.name)
def test_every_example_file_follows_the_schema(path):
    assert problems(json.loads(path.read_text()), SCHEMA) == []


def test_a_file_with_every_field_follows_the_schema_and_resolves():
    assert problems(FULL_FILE, SCHEMA) == []
    assert len(resolve(copy.deepcopy(FULL_FILE))["rounds"]) == 2


@pytest.mark.parametrize(
    "place",
    [
        ["combatants", 0],
        ["combatants", 0, "weapons", 0],
        ["rounds", 0],
        ["rounds", 0, "declarations", 0],
        ["rounds", 0, "declarations", 2, "spell"],
        ["rounds", 0, "dice", "rider"],
    ],
)
def test_a_misspelt_field_is_refused_by_the_schema_and_by_the_reader(place):
    data = copy.deepcopy(FULL_FILE)
    target = data
    for key in place:
        target = target[key]
    target["quicknes"] = 1
    found = problems(data, SCHEMA)
    assert found and all("quicknes" in problem or "matches no choice" in problem for problem in found)
    with pytest.raises(EncounterFileError, match="quicknes: unknown field"):
        resolve(data)


def test_the_schema_knows_every_purpose_and_level_the_engine_knows():
    from arsmagica.rules import PURPOSES, BodyLevel, FatigueLevel, Movement

    assert sorted(SCHEMA["$defs"]["dice"]["properties"]) == sorted(
        [*PURPOSES, "notes", "description", "title"]
    )
    assert SCHEMA["$defs"]["fatigue_level"]["enum"] == [level.value for level in FatigueLevel]
    assert SCHEMA["$defs"]["body_level"]["enum"] == [level.value for level in BodyLevel]
    movements = SCHEMA["$defs"]["declaration"]["properties"]["movement"]["enum"]
    assert movements == [*(movement.value for movement in Movement), None]
