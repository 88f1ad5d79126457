import subprocess
import sys
from pathlib import Path

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
