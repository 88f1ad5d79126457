import subprocess
import sys
from pathlib import Path

import pytest

from combat.rules.__main__ import main

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "sir-boris-at-reach.json"


def test_a_reader_that_stops_early_gets_no_traceback():
    """`python -m combat.rules resolve FILE | head -1`: the command stops quietly."""
    command = subprocess.Popen(
        [sys.executable, "-m", "combat.rules", "resolve", str(EXAMPLE)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=EXAMPLE.parents[2],
    )
    first_line = command.stdout.readline()
    command.stdout.close()
    stderr = command.stderr.read().decode()
    command.wait(timeout=30)
    assert first_line == b"{\n"
    assert "Traceback" not in stderr and command.returncode == 0


GOLDEN = Path(__file__).resolve().parent / "golden"


@pytest.mark.parametrize("example", sorted(EXAMPLE.parent.glob("*.json")), ids=lambda path: path.stem)
def test_every_example_resolves_byte_for_byte_as_before_the_split_into_rule_systems(example, capsys):
    """The registry dispatches on "rules"; the output is what d003c0c printed (tests/rules/golden/)."""
    assert main(["resolve", str(example)]) == 0
    assert capsys.readouterr().out == (GOLDEN / f"{example.stem}.out").read_text()
