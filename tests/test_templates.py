"""Templates only display (issue 8, item 7): wording is made in Python, and no template line runs on."""

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LONGEST = 160


def tracked_templates() -> list[Path]:
    """Every `*.html` file git tracks in the repository."""
    names = subprocess.run(
        ["git", "ls-files", "*.html"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    return [ROOT / name for name in names]


def test_no_template_line_is_longer_than_160_characters():
    templates = tracked_templates()
    assert templates
    too_long = [
        f"{path.relative_to(ROOT)}:{number}: {len(line)}"
        for path in templates
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if len(line) > LONGEST
    ]
    assert too_long == []
