"""The JSON Schema beside docs/encounter-files.md agrees with the examples and with the reader."""

import json
from pathlib import Path

import pytest

from d6.rules.encounter_file import CHALLENGE_FIELDS, TOP_FIELDS

ROOT = Path(__file__).resolve().parents[3]
SCHEMA = json.loads((ROOT / "docs" / "schemas" / "d6fatigue.schema.json").read_text())
TYPES = {
    "object": dict,
    "array": list,
    "string": str,
    "integer": int,
    "boolean": bool,
}


def problems(value, schema, where="$"):
    """The subset of JSON Schema 2020-12 the d6 schema uses, enough to check our own files."""
    if "$ref" in schema:
        name = schema["$ref"].removeprefix("#/$defs/")
        return problems(value, SCHEMA["$defs"][name], where)
    found = []
    if "type" in schema:
        kinds = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(
            isinstance(value, TYPES[kind]) and not (kind == "integer" and isinstance(value, bool))
            for kind in kinds
        ):
            return [f"{where}: not {kinds}"]
    if "const" in schema and value != schema["const"]:
        found.append(f"{where}: not {schema['const']!r}")
    if "anyOf" in schema and all(problems(value, option, where) for option in schema["anyOf"]):
        found.append(f"{where}: matches no option")
    if isinstance(value, int) and not isinstance(value, bool):
        if value < schema.get("minimum", value) or value > schema.get("maximum", value):
            found.append(f"{where}: out of range")
    if isinstance(value, str) and len(value) < schema.get("minLength", 0):
        found.append(f"{where}: too short")
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0):
            found.append(f"{where}: too few items")
        prefix = schema.get("prefixItems", [])
        for index, item in enumerate(value):
            rule = prefix[index] if index < len(prefix) else schema.get("items", {})
            found += problems(item, rule, f"{where}[{index}]")
    if isinstance(value, dict):
        found += [f"{where}.{key}: missing" for key in schema.get("required", []) if key not in value]
        properties = schema.get("properties", {})
        extra = schema.get("additionalProperties", {})
        for key, item in value.items():
            if key in properties:
                found += problems(item, properties[key], f"{where}.{key}")
            elif extra is False:
                found.append(f"{where}.{key}: not allowed")
            else:
                found += problems(item, extra, f"{where}.{key}")
    return found


@pytest.mark.parametrize("example", ["d6-fight.json", "d6-chase.json"])
def test_the_examples_follow_the_schema(example):
    data = json.loads((ROOT / "docs" / "examples" / example).read_text())
    assert problems(data, SCHEMA) == []


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        ({"rules": "d6fatigue", "characters": [{"id": "a"}]}, "$: matches no option"),
        ({"rules": "arsmagica", "characters": [{"id": "a"}], "fight": {}}, "$.rules: not 'd6fatigue'"),
        (
            {"rules": "d6fatigue", "characters": [{"id": "a", "fatigue": 21}], "fight": {}},
            "$.characters[0].fatigue: out of range",
        ),
        (
            {
                "rules": "d6fatigue",
                "characters": [{"id": "a"}],
                "fight": {"turns": [{"challenges": [{"dice": [7]}]}]},
            },
            "$.fight.turns[0].challenges[0].dice[0]: out of range",
        ),
        (
            {"rules": "d6fatigue", "characters": [{"id": "a"}], "chase": {"target": "a"}},
            "$.chase.chasers: missing",
        ),
    ],
)
def test_the_schema_refuses_bad_files(data, problem):
    assert problem in problems(data, SCHEMA)


def test_the_schema_names_every_field_the_reader_accepts():
    assert set(SCHEMA["properties"]) == set(TOP_FIELDS)
    assert set(SCHEMA["$defs"]["challenge"]["properties"]) == set(CHALLENGE_FIELDS)
