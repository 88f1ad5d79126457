"""`rules: "d6fatigue"` encounter files through `python -m combat.rules resolve`."""

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from combat.rules.__main__ import main
from combat.rules.errors import EncounterFileError
from d6.rules.encounter_file import resolve

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "docs" / "examples"


def run(tmp_path, capsys, data):
    path = tmp_path / "encounter.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    status = main(["resolve", str(path)])
    out, err = capsys.readouterr()
    return status, out, err


def sheet(**changes):
    data = {
        "rules": "d6fatigue",
        "seed": 3,
        "characters": [
            {
                "id": "anna",
                "attributes": {"strength": 1, "dexterity": 1, "stamina": 0, "wits": 0},
                "abilities": [{"name": "sword", "attribute": "dexterity", "consistency": 1, "potential": 1}],
            },
            {"id": "bram", "attributes": {"dexterity": 0, "stamina": 3}, "fatigue": 7},
        ],
        "fight": {"initiative": ["anna", "bram"], "turns": []},
    }
    data.update(changes)
    return data


def turn(*challenges, **fields):
    return {"challenges": list(challenges), **fields}


def test_the_fight_example_resolves(tmp_path, capsys):
    status, out, err = run(tmp_path, capsys, json.loads((EXAMPLES / "d6-fight.json").read_text()))
    assert (status, err) == (0, "")
    fight = json.loads(out)["fight"]
    first = fight["turns"][0]["challenges"]
    # the page's example: fatigue four, the d6 shows three, fatigue five
    assert (first[0]["fatigue_before"], first[0]["faces"][0], first[0]["fatigue_after"]) == (4, 3, 5)
    # fatigue 7 rolls 6: automatic failure
    assert (first[1]["die_result"], first[1]["auto_failed"], first[1]["success"]) == (6, True, False)
    # Gorm's failed axe blow needs no defence
    assert fight["turns"][2]["challenges"][1]["skipped"]
    assert fight["fatigue"] == {"ysolde": 5, "pell": 3, "gorm": 7}


def test_the_chase_example_resolves_to_its_end(tmp_path, capsys):
    status, out, _ = run(tmp_path, capsys, json.loads((EXAMPLES / "d6-chase.json").read_text()))
    chase = json.loads(out)["chase"]
    assert status == 0
    assert chase["outcome"] in ("caught", "escaped")
    assert chase["exchanges"][1]["terrain_change"] == {"before": "market street", "after": "rooftops"}
    assert chase["exchanges"][2]["dropped_out"] == ["hob"]
    for exchange in chase["exchanges"]:
        assert set(exchange["distances_before"]) == {"hob", "fang"}


def test_the_command_line_in_a_subprocess(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "combat.rules", "resolve", str(EXAMPLES / "d6-chase.json")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["rules"] == "d6fatigue"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(sheet(characters=[{"id": "anna", "fatigue": 0}])), encoding="utf-8")
    failed = subprocess.run(
        [sys.executable, "-m", "combat.rules", "resolve", str(bad)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert failed.returncode == 2
    assert failed.stdout == ""
    assert failed.stderr == "error: characters[0].fatigue: expected 1 to 20, got 0\n"


def test_the_same_seed_gives_the_same_resolution():
    data = sheet(fight={"turns": [turn({"ability": "sword", "value": 3}), turn({"attribute": "dexterity"})]})
    assert resolve(copy.deepcopy(data)) == resolve(copy.deepcopy(data))


def test_every_challenge_reports_its_rolls_and_fatigue():
    data = sheet(
        fight={
            "initiative": ["anna", "bram"],
            "turns": [turn({"ability": "sword", "value": 5, "dice": [3, 10]})],
        }
    )
    challenge = resolve(data)["fight"]["turns"][0]["challenges"][0]
    assert challenge["faces"] == [3, 10]
    assert challenge["die_result"] == 10
    assert challenge["result"] == 11
    assert challenge["success"] is True
    assert challenge["auto_failed"] is False
    assert challenge["fatigue_after"] == 5  # base 4 (Stamina 0), d6 3: fatigue rises


def test_a_d10_typed_as_zero_reads_ten():
    data = sheet(
        fight={"initiative": ["anna", "bram"], "turns": [turn({"ability": "sword", "dice": [3, 0]})]}
    )
    assert resolve(data)["fight"]["turns"][0]["challenges"][0]["die_result"] == 10


def test_initiative_is_rolled_when_no_order_is_given():
    data = sheet(fight={"initiative": {"dice": {"anna": [2, 3], "bram": [5]}}})
    fight = resolve(data)["fight"]
    assert fight["order"] == ["bram", "anna"]
    assert fight["initiative"][0] == {
        "character": "bram",
        "dexterity": 0,
        "faces": [5],
        "die_result": 5,
        "result": 5,
    }
    rolled = resolve(sheet(fight={"fighters": ["bram"]}))["fight"]
    assert rolled["order"] == ["bram"]
    assert len(rolled["initiative"][0]["faces"]) == 1


def test_a_defence_meets_the_attack_result_by_default():
    data = sheet(
        fight={
            "initiative": ["anna", "bram"],
            "turns": [
                turn(
                    {"ability": "sword", "target": "bram", "dice": [5, 6]},
                    {"who": "bram", "attribute": "dexterity", "defends": 0, "dice": [6]},
                )
            ],
        },
        characters=[
            {
                "id": "anna",
                "attributes": {"dexterity": 1},
                "abilities": [{"name": "sword", "consistency": 1, "potential": 1}],
            },
            {"id": "bram", "attributes": {"dexterity": 0, "stamina": 3}},
        ],
    )
    attack, defence = resolve(data)["fight"]["turns"][0]["challenges"]
    assert attack["physical"] is False  # an ability with no attribute named is not physical
    assert attack["defence_needed"] is True
    assert defence["value"] == 7
    assert defence["defends"] == 0
    assert defence["success"] is False


def test_explicit_scores_override_the_sheet():
    data = sheet(
        fight={
            "initiative": ["anna", "bram"],
            "turns": [
                turn(
                    {
                        "ability": "sword",
                        "consistency": 0,
                        "potential": 4,
                        "physical": False,
                        "exertion": False,
                        "dice": [1],
                    }
                )
            ],
        }
    )
    challenge = resolve(data)["fight"]["turns"][0]["challenges"][0]
    assert (challenge["consistency"], challenge["potential"], challenge["result"]) == (0, 4, 5)
    assert challenge["physical"] is False
    assert challenge["exertion"] is False


def test_a_challenge_needs_no_sheet_entry_when_scores_are_given():
    data = sheet(
        fight={
            "initiative": ["anna", "bram"],
            "turns": [turn({"consistency": -1, "physical": True, "dice": [6, 10]})],
        }
    )
    challenge = resolve(data)["fight"]["turns"][0]["challenges"][0]
    assert challenge["die_result"] == 6
    assert challenge["rolled"] is None


def test_the_physical_attributes_can_be_named():
    data = sheet(
        physical_attributes=["wits"],
        fight={
            "initiative": ["anna", "bram"],
            "turns": [
                turn({"attribute": "wits", "dice": [1]}),
                turn({"attribute": "dexterity", "dice": [1]}),
            ],
        },
    )
    turns = resolve(data)["fight"]["turns"]
    assert turns[0]["challenges"][0]["physical"] is True
    assert turns[1]["challenges"][0]["physical"] is False


def test_a_fight_then_a_chase_carries_fatigue_over():
    data = sheet(
        fight={"initiative": ["anna", "bram"], "turns": [turn({"attribute": "strength", "dice": [1, 5]})]},
        chase={
            "target": "anna",
            "chasers": [{"id": "bram", "distance": 1}],
            "terrains": [{"name": "field", "rolled": "dexterity"}],
            "exchanges": [{"dice": {"anna": [6, 6], "bram": [6]}}],
        },
        characters=[
            {"id": "anna", "attributes": {"strength": 1, "dexterity": 1, "stamina": 0}},
            {"id": "bram", "attributes": {"dexterity": 0, "stamina": 3}, "fatigue": 7},
        ],
    )
    result = resolve(data)
    assert result["fight"]["fatigue"]["anna"] == 5
    exchange = result["chase"]["exchanges"][0]
    assert exchange["rolls"][0]["fatigue_before"] == 5
    assert exchange["dropped_out"] == ["bram"]
    assert result["chase"]["outcome"] == "escaped"
    assert {c["id"]: c["fatigue_end"] for c in result["characters"]} == {"anna": 5, "bram": 8}


def test_a_chase_alone_with_random_dice_and_an_unchosen_offer():
    data = {
        "rules": "d6fatigue",
        "seed": "market day",
        "characters": [
            {"id": "nim", "attributes": {"stamina": 1}},
            {"id": "hob", "attributes": {"stamina": 1}},
        ],
        "chase": {
            "target": "nim",
            "chasers": [{"id": "hob", "distance": 2}],
            "terrains": [{"name": "street", "rolled": "stamina"}, {"name": "river", "rolled": "stamina"}],
            "exchanges": [{"offer": ["river"]}],
        },
    }
    chase = resolve(data)["chase"]
    assert chase["exchanges"][0]["offered"] == ["river"]
    assert chase["exchanges"][0]["terrain_change"] is None
    assert chase["exchanges"][0]["terrain"]["name"] == "street"
    assert resolve(copy.deepcopy(data)) == resolve(copy.deepcopy(data))


def _with(path, value, base=None):
    data = copy.deepcopy(base or sheet())
    keys = path.split("/")
    node = data
    for key in keys[:-1]:
        node = node[int(key)] if isinstance(node, list) else node[key]
    last = keys[-1]
    if value is DELETE:
        del node[last]
    elif isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value
    return data


DELETE = object()
CHASE = {
    "target": "anna",
    "chasers": [{"id": "bram", "distance": 2}],
    "terrains": [{"name": "field", "rolled": "dexterity"}, {"name": "river", "rolled": "swimming"}],
    "exchanges": [],
}
CHASED = sheet(chase=CHASE)
del CHASED["fight"]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (_with("seed", 1.5), "seed: expected an integer or a string"),
        (_with("colour", "red"), "colour: unknown field"),
        (_with("characters", []), "characters: expected at least one entry"),
        (_with("characters/0", "anna"), "characters[0]: expected an object"),
        (_with("characters/0/id", DELETE), "characters[0].id: missing"),
        (_with("characters/1/id", "anna"), "characters[1].id: 'anna' is listed twice"),
        (_with("characters/0/attributes", []), "characters[0].attributes: expected an object"),
        (
            _with("characters/0/attributes/strength", "high"),
            "characters[0].attributes.strength: expected an integer",
        ),
        (
            _with("characters/0/abilities/0/consistency", DELETE),
            "characters[0].abilities[0].consistency: missing",
        ),
        (
            _with("characters/0/abilities/0/attribute", 3),
            "characters[0].abilities[0].attribute: expected a non-empty string",
        ),
        (
            _with(
                "characters/0/abilities", [{"name": "a", "consistency": 1}, {"name": "a", "consistency": 1}]
            ),
            "characters[0].abilities[1].name: 'a' is listed twice",
        ),
        (_with("characters/1/fatigue", 21), "characters[1].fatigue: expected 1 to 20, got 21"),
        (_with("physical_attributes", "strength"), "physical_attributes: expected a list"),
        (_with("fight", DELETE), "expected a fight, a chase or both"),
        (_with("fight/initiative", ["anna"]), "fight.initiative: expected each fighter once: anna, bram"),
        (_with("fight/initiative", {"dice": {"zed": [1]}}), "fight.initiative.dice.zed: unknown field"),
        (_with("fight/initiative", {"dice": {"anna": [1]}}), "fight.initiative.dice.anna: expected 2 faces"),
        (_with("fight/fighters", ["anna", "anna"]), "fight.fighters: each fighter is listed once"),
        (_with("fight/fighters", ["zed"]), "fight.fighters[0]: no character 'zed'"),
        (_with("fight/turns", [{"who": "bram"}]), "fight.turns[0].who: it is anna's turn, not bram's"),
        (_with("fight/turns", [{"rest": True}]), "fight.turns[0].rest: unknown field"),
        (
            _with("fight/turns", [turn({"ability": "sword", "attribute": "dexterity"})]),
            "name an attribute or an ability, not both",
        ),
        (
            _with("fight/turns", [turn({"ability": "axe"})]),
            "fight.turns[0].challenges[0].ability: anna has no ability 'axe'",
        ),
        (
            _with("fight/turns", [turn({"attribute": "luck"})]),
            "fight.turns[0].challenges[0].attribute: anna has no attribute 'luck'",
        ),
        (
            _with("fight/turns", [turn({"physical": True})]),
            "fight.turns[0].challenges[0].consistency: missing",
        ),
        (_with("fight/turns", [turn({"consistency": 1})]), "fight.turns[0].challenges[0].physical: missing"),
        (
            _with("fight/turns", [turn({"ability": "sword", "consistency": "2"})]),
            "challenges[0].consistency: expected an integer",
        ),
        (
            _with("fight/turns", [turn({"ability": "sword", "value": "7"})]),
            "fight.turns[0].challenges[0].value: expected an integer",
        ),
        (
            _with("fight/turns", [turn({"ability": "sword", "dice": [3]})]),
            "challenges[0].dice: expected 2 faces (the d6, then 1 d10s)",
        ),
        (
            _with("fight/turns", [turn({"ability": "sword", "dice": [7, 3]})]),
            "challenges[0].dice[0]: expected 1 to 6, got 7",
        ),
        (
            _with("fight/turns", [turn({"ability": "sword", "dice": [3, 11]})]),
            "challenges[0].dice[1]: expected 0 to 10, got 11",
        ),
        (
            _with("fight/turns", [turn({"ability": "sword", "dice": "3 7"})]),
            "challenges[0].dice: expected a list",
        ),
        (
            _with("fight/turns", [turn({"ability": "sword", "exertion": "yes"})]),
            "challenges[0].exertion: expected true or false",
        ),
        (
            _with("fight/turns", [turn({"ability": "sword", "target": "zed"})]),
            "challenges[0].target: no character 'zed'",
        ),
        (
            _with("fight/turns", [turn({"ability": "sword", "target": "anna"})]),
            "fight.turns[0].challenges[0]: anna cannot attack themself",
        ),
        (
            _with("fight/turns", [turn({"who": "bram", "attribute": "dexterity", "target": "anna"})]),
            "fight.turns[0].challenges[0]: only anna, whose turn it is, can attack now",
        ),
        (
            _with("fight/turns", [turn({"attribute": "dexterity", "defends": 0})]),
            "challenges[0].defends: expected an earlier challenge",
        ),
        (
            _with(
                "fight/turns",
                [turn({"ability": "sword", "target": "bram"}, {"attribute": "dexterity", "defends": 0})],
            ),
            "challenges[1].defends: expected an earlier challenge of this turn attacking anna",
        ),
        (
            _with("fight/turns", [turn({"attribute": "dexterity", "defends": -1})]),
            "challenges[0].defends: expected at least 0, got -1",
        ),
        (
            _with("fight/turns", [turn({"ability": "sword", "same_ranged_attack": True})]),
            "challenges[0].same_ranged_attack: expected to follow a challenge by anna this turn",
        ),
        (
            _with("fight/turns", [turn({"ability": "sword"}, breather=True)]),
            "fight.turns[0].challenges[0]: anna took a breather",
        ),
        (_with("fight/turns", [turn(breather="yes")]), "fight.turns[0].breather: expected true or false"),
        (_with("chase/target", DELETE, CHASED), "chase.target: missing"),
        (_with("chase/pace", 3, CHASED), "chase.pace: unknown field"),
        (_with("chase/chasers", [], CHASED), "chase.chasers: expected at least one entry"),
        (
            _with("chase/chasers/0/distance", 0, CHASED),
            "chase.chasers[0].distance: expected at least 1, got 0",
        ),
        (_with("chase/chasers/0/id", "anna", CHASED), "chase: each runner takes one part in the chase"),
        (
            _with("chase/terrains", [{"name": "a", "rolled": "x"}, {"name": "a", "rolled": "y"}], CHASED),
            "chase.terrains[1].name: 'a' is listed twice",
        ),
        (_with("chase/terrains/0/rolled", DELETE, CHASED), "chase.terrains[0].rolled: missing"),
        (_with("chase/escape_distance", 1, CHASED), "chase.escape_distance: expected at least 2, got 1"),
        (_with("chase/escape_distance", 2, CHASED), "chase: the escape distance must be beyond"),
        (
            _with("chase/exchanges", [{"offer": ["lake"]}], CHASED),
            "chase.exchanges[0].offer[0]: no terrain 'lake' in chase.terrains",
        ),
        (
            _with("chase/exchanges", [{"choose": "river"}], CHASED),
            "chase.exchanges[0]: 'river' was not offered (offered: nothing)",
        ),
        (
            _with("chase/exchanges", [{"offer": ["river"], "choose": "river"}], CHASED),
            "chase.exchanges[0]: anna has no score for 'swimming'",
        ),
        (
            _with("chase/exchanges", [{"dice": {"zed": [1]}}], CHASED),
            "chase.exchanges[0].dice.zed: unknown field",
        ),
        (
            _with("chase/exchanges", [{"dice": {"anna": [1]}}], CHASED),
            "chase.exchanges[0].dice.anna: expected 2 faces",
        ),
        (
            _with("chase/exchanges", [{"dice": {"anna": [1, 1]}}, {}], CHASED),
            "chase.exchanges[1]: the chase is over: caught",
        ),
        (_with("chase/roll_until_over", 1, CHASED), "chase.roll_until_over: expected true or false"),
    ],
)
def test_a_bad_file_exits_2_with_one_line_naming_the_place(tmp_path, capsys, data, message):
    status, out, err = run(tmp_path, capsys, data)
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith("error: ")
    assert message in err


def test_a_chase_that_cannot_be_rolled_to_its_end_says_where():
    data = _with("chase/roll_until_over", True, CHASED)
    data["chase"]["terrains"] = [{"name": "river", "rolled": "swimming"}]
    with pytest.raises(EncounterFileError, match="chase.roll_until_over: anna has no score"):
        resolve(data)


def test_a_chaser_may_move_ahead_of_the_target_instead_of_acting():
    """'... he or she can take an action against the target instead of moving ahead of the target.'"""
    data = {
        "rules": "d6fatigue",
        "characters": [
            {"id": "nim", "attributes": {"stamina": 3, "dexterity": 0}},
            {"id": "hob", "attributes": {"stamina": 3, "dexterity": 0}},
        ],
        "chase": {
            "target": "nim",
            "chasers": [{"id": "hob", "distance": 1}],
            "terrains": [{"name": "street", "rolled": "dexterity"}],
            "exchanges": [{"dice": {"nim": [1], "hob": [5]}, "move_ahead": ["hob"]}],
        },
    }
    chase = resolve(data)["chase"]
    exchange = chase["exchanges"][0]
    assert exchange["moved_ahead"] == ["hob"]
    assert exchange["acts_against_target"] is False
    assert exchange["moves"] == [{"mover": "hob", "chaser": "hob", "from": 1, "to": -1}]
    assert (chase["outcome"], chase["caught_by"], chase["distances"]) == ("overtaken", None, {"hob": -1})
    data["chase"]["exchanges"][0]["move_ahead"] = ["nim"]
    with pytest.raises(EncounterFileError, match=r"chase.exchanges\[0\].*only a chaser"):
        resolve(data)
    data["chase"]["exchanges"][0]["move_ahead"] = "hob"
    with pytest.raises(EncounterFileError, match="move_ahead: expected a list"):
        resolve(data)
