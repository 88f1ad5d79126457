"""The Sir Boris example of ArM3 p168, both ways it is told, from the page."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from ars_helpers import DAGGER, SWORD, attack, attack_by, fighter, melee, sir_boris

from arsmagica.rules import DefenseWith, Range

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "docs" / "examples"


def _fight(dagger_initiative: list[int], brawling: int = 5):
    """Sir Boris (Initiative Total 20) against bandits at 23, 15 and 11 (or 22: the dagger wins)."""
    combatants = [
        sir_boris(brawling=brawling),
        fighter("sword_1", SWORD),
        fighter("sword_2", SWORD),
        fighter("dagger", DAGGER),
    ]
    declarations = [
        attack("boris", "sword_1", "sword_2", "dagger", range=Range.REACH),
        attack("sword_1", "boris", range=Range.REACH),
        attack("sword_2", "boris", range=Range.REACH),
        attack("dagger", "boris", weapon="dagger", range=Range.TOUCH),
    ]
    faces = {
        "boris": {"initiative": [1, 8], "combat": [7]},  # 4 + 16 = 20
        "sword_1": {"initiative": [1, 0], "combat": [3]},  # 3 + 20 = 23, "a lucky roll"
        "sword_2": {"initiative": [1, 6], "combat": [4]},  # 3 + 12 = 15
        "dagger": {"initiative": dagger_initiative, "combat": [5]},
    }
    return melee(combatants, declarations, faces)


def test_initiative_totals_of_the_example_are_20_23_15_and_11():
    _, _, movement = _fight([9])
    totals = {record.combatant: record.total for record in movement.initiative}
    assert totals == {"boris": 20, "sword_1": 23, "sword_2": 15, "dagger": 11}
    assert [record.combatant for record in movement.initiative] == [
        "sword_1",
        "boris",
        "sword_2",
        "dagger",
    ]


def test_dagger_bandit_loses_the_engagement_contest_11_against_20_and_stays_at_reach():
    _, _, movement = _fight([9])
    ranges = {frozenset((item.a, item.b)): item for item in movement.engagements}
    dagger = ranges[frozenset(("boris", "dagger"))]
    assert dagger.range is Range.REACH
    assert dagger.contested and dagger.prevailed == "boris"
    assert ranges[frozenset(("boris", "sword_1"))].range is Range.REACH
    assert not ranges[frozenset(("boris", "sword_1"))].contested


def test_sir_boris_attacks_each_of_three_bandits_with_11_at_reach():
    _, result, _ = _fight([9])
    for bandit in ("sword_1", "sword_2", "dagger"):
        record = attack_by(result, "boris", bandit)
        assert record.attack_total == 11  # 10 + 7 - 6
        assert ("3 opponents", -6) in record.attack_parts
        assert record.attack_roll.faces == (7,)


def test_sir_boris_defense_is_likewise_diminished_by_6_against_each():
    _, result, _ = _fight([9])
    for bandit in ("sword_1", "sword_2"):
        record = attack_by(result, bandit, "boris")
        assert record.defense_total == 8 + 7 - 6
        assert record.defense_with is DefenseWith.WEAPON


def test_dagger_held_at_reach_cannot_strike_sir_boris():
    _, result, _ = _fight([9])
    assert not [item for item in result.attacks if item.attacker == "dagger"]
    assert [(item.combatant, item.target) for item in result.skipped] == [("dagger", "boris")]


def test_dagger_at_touch_sir_boris_attacks_swords_with_11_and_the_dagger_with_5():
    _, result, movement = _fight([1, 0])  # 2 + 20 = 22: the dagger bandit beats Sir Boris' 20
    dagger = [item for item in movement.engagements if "dagger" in (item.a, item.b)][0]
    assert dagger.range is Range.TOUCH and dagger.prevailed == "dagger"
    assert attack_by(result, "boris", "sword_1").attack_total == 11
    assert attack_by(result, "boris", "sword_2").attack_total == 11
    touch = attack_by(result, "boris", "dagger")
    assert touch.attack_total == 5
    assert ("sword inside its range", -6) in touch.attack_parts


def test_dagger_at_touch_sir_boris_defends_with_brawling_when_it_is_better():
    _, result, _ = _fight([1, 0], brawling=5)
    record = attack_by(result, "dagger", "boris")
    assert record.defense_with is DefenseWith.BRAWLING
    assert record.defense_total == 5 + 7 - 6  # Brawling 5, not the sword's 8 + 7 - 6 - 6 = 3
    assert attack_by(result, "sword_1", "boris").defense_total == 9


def test_dagger_at_touch_sir_boris_sword_defense_suffers_a_further_minus_6():
    _, result, _ = _fight([1, 0], brawling=0)
    record = attack_by(result, "dagger", "boris")
    assert record.defense_with is DefenseWith.WEAPON
    assert record.defense_total == 8 + 7 - 6 - 6
    assert ("sword inside its range", -6) in record.defense_parts


def _run_example(name: str) -> dict:
    completed = subprocess.run(
        [sys.executable, "-m", "combat.rules", "resolve", str(EXAMPLES / name)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    assert completed.stderr == ""
    return json.loads(completed.stdout)


def test_example_file_at_reach_resolves_as_the_page_tells():
    output = _run_example("sir-boris-at-reach.json")
    (round_one,) = output["rounds"]
    assert [item["total"] for item in round_one["initiative"]] == [23, 20, 15, 11]
    assert all(item["range"] == "reach" for item in round_one["engagements"])
    by_boris = [item for item in round_one["attacks"] if item["attacker"] == "boris"]
    assert [item["attack_total"] for item in by_boris] == [11, 11, 11]


def test_example_file_with_the_dagger_at_touch_resolves_as_the_page_tells():
    output = _run_example("sir-boris-dagger-at-touch.json")
    (round_one,) = output["rounds"]
    ranges = {
        item["b"] if item["a"] == "boris" else item["a"]: item["range"] for item in round_one["engagements"]
    }
    assert ranges == {"bandit_1": "reach", "bandit_2": "reach", "bandit_3": "touch"}
    totals = {
        item["defender"]: item["attack_total"] for item in round_one["attacks"] if item["attacker"] == "boris"
    }
    assert totals == {"bandit_1": 11, "bandit_2": 11, "bandit_3": 5}
    defense = [item for item in round_one["attacks"] if item["attacker"] == "bandit_3"][0]
    assert defense["defense_with"] == "brawling" and defense["defense_total"] == 6
