"""Encounter files through `python -m combat.rules resolve FILE.json`."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from arsmagica.rules.encounter_file import resolve
from combat.rules.__main__ import main
from combat.rules.errors import EncounterFileError

ROOT = Path(__file__).resolve().parents[3]
BORIS = json.loads((ROOT / "docs" / "examples" / "sir-boris-at-reach.json").read_text())


def _run(tmp_path, data, capsys):
    path = tmp_path / "encounter.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    status = main(["resolve", str(path)])
    out, err = capsys.readouterr()
    return status, out, err


def _changed(change):
    data = copy.deepcopy(BORIS)
    change(data)
    return data


def _set(path, value):
    def change(data):
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change


def _delete(path):
    def change(data):
        target = data
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]

    return change


BAD_FILES = [
    (
        _set(["combatants", 1, "weapons", 0, "attack"], "ten"),
        "combatants[1].weapons[0].attack: expected an integer",
    ),
    (
        _set(["combatants", 1, "weapons", 0, "attack"], True),
        "combatants[1].weapons[0].attack: expected an integer",
    ),
    (
        _set(["combatants", 0, "weapons", 0, "range"], "far"),
        'combatants[0].weapons[0].range: expected one of "touch"',
    ),
    (_delete(["combatants", 0, "weapons", 0, "damage"]), "combatants[0].weapons[0].damage: missing"),
    (
        _set(["combatants", 0, "weapons", 0, "paces"], -1),
        "combatants[0].weapons[0].paces: expected 0 to 10000",
    ),
    (
        _set(["combatants", 0, "weapons", 0, "missile"], "yes"),
        "combatants[0].weapons[0].missile: expected true or false",
    ),
    (
        lambda data: data["combatants"][0]["weapons"].append(data["combatants"][0]["weapons"][0]),
        "combatants[0].weapons[1].name: a second weapon named 'sword'",
    ),
    (_set(["combatants", 0, "weapons"], {}), "combatants[0].weapons: expected a list"),
    (_set(["combatants", 0, "weapons", 0], 3), "combatants[0].weapons[0]: expected an object, got 3"),
    (
        _set(["combatants", 0, "fatigue_level"], "sleepy"),
        'combatants[0].fatigue_level: expected one of "fresh"',
    ),
    (_set(["combatants", 0, "body_level"], 5), 'combatants[0].body_level: expected one of "unhurt"'),
    (_set(["combatants", 0], None), "combatants[0]: expected an object, got null"),
    (_set(["combatants", 0, "name"], None), "combatants[0].name: missing"),
    (_set(["combatants", 0, "body_levels"], {"hurt": 0}), None),
    (_set(["combatants", 0, "id"], ""), "combatants[0].id: expected a non-empty text"),
    (_set(["combatants", 1, "id"], "boris"), "combatants[1].id: a second combatant with id 'boris'"),
    (_set(["combatants", 0, "quicknes"], 1), "combatants[0].quicknes: unknown field"),
    (_set(["combatants", 0, "soak"], 5000), "combatants[0].soak: expected -1000 to 1000, got 5000"),
    (_set(["combatants", 0, "body_levels"], []), "combatants[0].body_levels: expected an object, got a list"),
    (_set(["combatants"], []), "combatants: expected at least one combatant"),
    (_delete(["combatants"]), "combatants: missing"),
    (_set(["rounds"], "all"), "rounds: expected a list"),
    (_set(["rounds", 0], []), "rounds[0]: expected an object, got a list"),
    (
        _set(["rounds", 0, "declarations", 0, "combatant"], "zed"),
        "rounds[0].declarations[0].combatant: no combatant",
    ),
    (
        _set(["rounds", 0, "declarations", 0, "weapon"], "axe"),
        "rounds[0].declarations[0]: Sir Boris has no weapon named 'axe'",
    ),
    (
        _set(["rounds", 0, "declarations", 0, "engage"], ["boris"]),
        "rounds[0].declarations[0]: Sir Boris cannot engage Sir Boris",
    ),
    (
        _set(["rounds", 0, "declarations", 0, "engage"], [3]),
        "rounds[0].declarations[0].engage[0]: expected a combatant id",
    ),
    (
        _set(["rounds", 0, "declarations", 0, "engage"], ["zed"]),
        "rounds[0].declarations[0].engage[0]: no combatant with id 'zed'",
    ),
    (
        _set(["rounds", 0, "declarations", 0, "action"], "dance"),
        "rounds[0].declarations[0].action: expected one of",
    ),
    (
        _set(["rounds", 0, "declarations", 0, "on_success"], "split"),
        "rounds[0].declarations[0].on_success: expected one of",
    ),
    (
        _set(["rounds", 0, "declarations", 0, "distance"], "near"),
        "rounds[0].declarations[0].distance: expected an integer",
    ),
    (
        _set(["rounds", 0, "declarations", 0, "spell"], {"kind": "ritual", "casting_score": 3}),
        "rounds[0].declarations[0].spell.kind",
    ),
    (
        _set(["rounds", 0, "declarations", 1], {"combatant": "boris"}),
        "rounds[0].declarations[1].combatant: a second declaration",
    ),
    (_set(["rounds", 0, "dice", "zed"], {}), "rounds[0].dice.zed: no combatant with this id"),
    (
        _set(["rounds", 0, "dice", "boris", "combat"], [10]),
        "rounds[0].dice.boris.combat[0]: expected a d10 face, 0 to 9",
    ),
    (
        _set(["rounds", 0, "dice", "boris", "combat"], 7),
        "rounds[0].dice.boris.combat: expected a list of faces",
    ),
    (_set(["rounds", 0, "dice", "boris", "luck"], [7]), "rounds[0].dice.boris.luck: unknown field"),
    (_set(["rounds", 0, "dice"], []), "rounds[0].dice: expected an object, got a list"),
    (_set(["rounds", 0, "botch_dice"], 11), "rounds[0].botch_dice: expected 0 to 10, got 11"),
    (_set(["rounds", 0, "botch_dice"], {"zed": 1}), "rounds[0].botch_dice.zed: no combatant with this id"),
    (
        _set(["rounds", 0, "fatigue_ease_factor"], {"boris": "hard"}),
        "rounds[0].fatigue_ease_factor.boris: expected an integer",
    ),
    (_set(["rounds", 0, "modifiers"], 3), "rounds[0].modifiers: expected an object of combatant ids"),
    (
        _set(["rounds", 0, "overrides"], [{"attacker": "boris", "defender": "zed", "on_success": "hit"}]),
        "rounds[0].overrides[0].defender: no combatant",
    ),
    (_set(["seed"], 1.5), "seed: expected an integer or a text"),
    (_set(["combatants", 0, "weapons", 0], True), "combatants[0].weapons[0]: expected an object, got true"),
    (_set(["combatants", 0, "weapons"], [[]]), "combatants[0].weapons[0]: expected an object, got a list"),
    (_set(["combatants", 0, "weapons", 0, "range"], {}), "got an object"),
    (_set(["combatants", 0, "weapons", 0, "range"], False), "got false"),
    (_set(["combatants", 0, "weapons", 0, "range"], 3), "got 3"),
    (
        _set(
            ["rounds", 0, "declarations", 0, "spell"], {"kind": "formulaic", "casting_score": 3, "name": ""}
        ),
        "rounds[0].declarations[0].spell.name: expected a non-empty text",
    ),
    (_set(["rules"], "gurps"), 'rules: expected "arsmagica" or "d6fatigue"'),
]


@pytest.mark.parametrize(("change", "message"), [item for item in BAD_FILES if item[1]])
def test_a_bad_file_exits_2_with_one_line_naming_the_place_and_the_problem(tmp_path, capsys, change, message):
    status, out, err = _run(tmp_path, _changed(change), capsys)
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("error: ")
    assert message in err


@pytest.mark.parametrize("text", ["{", "[1, 2]", '"just text"'])
def test_a_file_that_is_not_a_json_object_exits_2(tmp_path, capsys, text):
    status, _, err = _run(tmp_path, text, capsys)
    assert status == 2 and err.count("\n") == 1


def test_a_missing_file_exits_2(tmp_path, capsys):
    assert main(["resolve", str(tmp_path / "nowhere.json")]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_a_combatant_cannot_start_on_a_level_its_track_lacks(tmp_path, capsys):
    data = _changed(_set(["combatants", 0, "body_levels"], {"hurt": 0}))
    data["combatants"][0]["body_level"] = "hurt"
    status, _, err = _run(tmp_path, data, capsys)
    assert status == 2 and "combatants[0].body_level: this creature has no hurt level" in err


def test_a_declaration_impossible_by_a_later_round_names_that_round(tmp_path, capsys):
    data = copy.deepcopy(BORIS)
    data["combatants"][1]["body_level"] = "heavy_wounds"
    data["combatants"][1]["soak"] = -20
    data["rounds"][0]["dice"]["boris"]["combat"] = [1, 1, 1, 9]
    data["rounds"].append(
        {
            "declarations": [
                {"combatant": "bandit_1", "action": "attack", "weapon": "sword", "engage": ["boris"]}
            ]
        }
    )
    status, _, err = _run(tmp_path, data, capsys)
    assert status == 2
    assert err.startswith("error: rounds[1].declarations[0]: Bandit with a sword is")


def test_every_kind_of_bad_file_in_a_subprocess_prints_one_line_and_no_traceback(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(_changed(_set(["combatants", 1, "weapons", 0, "attack"], "ten"))))
    completed = subprocess.run(
        [sys.executable, "-m", "combat.rules", "resolve", str(path)], capture_output=True, text=True, cwd=ROOT
    )
    assert completed.returncode == 2
    assert completed.stderr == "error: combatants[1].weapons[0].attack: expected an integer\n"


def test_output_has_every_field_the_format_promises():
    output = resolve(copy.deepcopy(BORIS))
    (round_one,) = output["rounds"]
    assert set(round_one) >= {"number", "initiative", "engagements", "attacks", "fatigue", "state"}
    assert set(round_one["attacks"][0]) >= {
        "phase",
        "attacker",
        "defender",
        "attack_total",
        "defense_total",
        "result",
        "damage_total",
        "body_levels_lost",
    }
    assert set(round_one["fatigue"][0]) >= {"combatant", "total", "ease_factor", "botch", "levels_lost"}
    assert [item["combatant"] for item in round_one["state"]] == ["boris", "bandit_1", "bandit_2", "bandit_3"]
    assert set(round_one["state"][0]) == {
        "combatant",
        "fatigue_level",
        "body_level",
        "advantage_attack",
        "advantage_defense",
    }


def test_dice_not_given_are_rolled_repeatably_from_the_seed():
    data = copy.deepcopy(BORIS)
    data["rounds"][0]["dice"] = {}
    data["rounds"].append({"declarations": data["rounds"][0]["declarations"]})
    assert resolve(copy.deepcopy(data)) == resolve(copy.deepcopy(data))


def test_options_in_the_file_reach_the_rules():
    data = copy.deepcopy(BORIS)
    round_one = data["rounds"][0]
    round_one["fatigue_ease_factor"] = {"boris": 2}
    round_one["botch_dice"] = 2
    round_one["modifiers"] = {"boris": 1}
    round_one["overrides"] = [
        {"attacker": "boris", "defender": "bandit_3", "on_success": "advantage_defense"}
    ]
    round_one["extra_fatigue_rollers"] = ["boris"]
    (result,) = resolve(data)["rounds"]
    boris_fatigue = [item for item in result["fatigue"] if item["combatant"] == "boris"][0]
    assert boris_fatigue["ease_factor"] == 2
    on_dagger = [
        item for item in result["attacks"] if (item["attacker"], item["defender"]) == ("boris", "bandit_3")
    ]
    assert on_dagger[0]["attack_total"] == 12 and on_dagger[0]["result"] == "advantage"
    assert result["state"][0]["advantage_defense"] == on_dagger[0]["difference"]


def test_missiles_spells_and_repeated_body_levels_in_a_file():
    data = {
        "rules": "arsmagica",
        "seed": "missiles",
        "combatants": [
            {
                "id": "archer",
                "name": "Archer",
                "weapons": [
                    {
                        "name": "bow",
                        "initiative": 0,
                        "attack": 8,
                        "defense": 0,
                        "damage": 0,
                        "range": "long",
                        "missile": True,
                        "paces": 60,
                        "twice": True,
                    }
                ],
            },
            {
                "id": "troll",
                "name": "Troll",
                "soak": 0,
                "body_levels": {"hurt": 3},
                "body_level": "hurt",
                "weapons": [],
            },
            {"id": "magus", "name": "Magus", "stamina": 2, "weapons": []},
        ],
        "rounds": [
            {
                "declarations": [
                    {
                        "combatant": "archer",
                        "action": "missile",
                        "weapon": "bow",
                        "engage": ["troll"],
                        "distance": 30,
                        "missile_phase": "first_missile",
                    },
                    {
                        "combatant": "magus",
                        "action": "cast",
                        "spell": {
                            "kind": "spontaneous",
                            "casting_score": 9,
                            "fast_cast_phase": "melee",
                        },
                    },
                ],
                "dice": {"archer": {"missile": [5], "missile_second": [5]}, "troll": {"combat": [2, 2]}},
            }
        ],
    }
    (result,) = resolve(data)["rounds"]
    assert [item["phase"] for item in result["attacks"]] == ["first_missile", "second_missile"]
    assert result["spells"][0]["phase"] == "melee" and result["spells"][0]["fatigue_test"] is not None
    assert result["spells"][0]["spell"] == ""  # a spell's name is optional
    # the troll starts on its first Hurt box of three; each shot: 8 + 5 against 0 + 2, 11 damage: 2 levels
    assert [item["body_levels_lost"] for item in result["attacks"]] == [2, 2]
    assert result["state"][1]["body_level"] == "medium_wounds"


def test_notes_are_welcome_anywhere_in_the_dice():
    data = copy.deepcopy(BORIS)
    data["rounds"][0]["dice"]["boris"]["notes"] = "rolled on the red die"
    assert resolve(data)["rounds"][0]["initiative"][1]["faces"] == [1, 8]


def test_a_rules_error_inside_a_round_names_the_round(monkeypatch):
    import arsmagica.rules.encounter_file as encounter_file
    from combat.rules.errors import RulesError

    def refuse(*args, **kwargs):
        raise RulesError("the storyguide refuses this engagement")

    monkeypatch.setattr(encounter_file, "resolve_round", refuse)
    with pytest.raises(EncounterFileError, match=r"^rounds\[0\]: the storyguide refuses this engagement$"):
        resolve(copy.deepcopy(BORIS))


def test_resolve_refuses_a_file_before_running_any_round():
    with pytest.raises(EncounterFileError, match="combatants: missing"):
        resolve({"rules": "arsmagica"})
