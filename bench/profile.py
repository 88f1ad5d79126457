"""Where a Daphne's time went: a summary of py-spy's collapsed stacks (`fanout.py --profile DIR`).

Run: `.venv/bin/python bench/profile.py DIR/daphne-0.txt` (py-spy: `pip install py-spy` into your own
venv; it is not a project dependency). Prints own time by kind of work, and the project's functions
with the largest share of all samples (inclusive).
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from pathlib import Path

FRAME = re.compile(r"^(?P<name>.*) \((?P<file>[^()]*?)(?::\d+)?\)$")
KINDS = (
    ("ORM and database driver", ("django/db/", "psycopg", "sqlite3")),
    ("templates", ("django/template/", "templatetags")),
    ("asgiref (sync/async, Local)", ("asgiref/",)),
    ("channels and its layers", ("channels/", "channels_redis/", "redis/")),
    ("Twisted, autobahn, daphne (sockets, HTTP)", ("twisted/", "autobahn/", "daphne/", "txaio/")),
    ("Django signals", ("django/dispatch/",)),
    ("other Django", ("django/",)),
    ("project code", ("(combat/", "(arsmagica/", "(campaign/", "(d6/", "(config/")),
)
IDLE = ("epoll", "select", "poll", "wait (threading", "_worker (concurrent", "sleep")


def parse(path: Path) -> list[tuple[list[str], int]]:
    """(frames outermost first, samples) for each line of a collapsed-stack file."""
    stacks = []
    for line in path.read_text(errors="replace").splitlines():
        stack, _, count = line.rpartition(" ")
        if stack and count.isdigit():
            stacks.append((stack.split(";"), int(count)))
    return stacks


def kind_of(frame: str) -> str:
    """The kind of work a frame's file belongs to."""
    for kind, markers in KINDS:
        if any(marker in frame for marker in markers):
            return kind
    return "other (Python, stdlib)"


def busy(stacks):
    """Stacks whose innermost frame is not waiting for work."""
    return [(frames, n) for frames, n in stacks if not any(idle in frames[-1] for idle in IDLE)]


def own_time_by_kind(stacks) -> Counter:
    """Samples by the kind of the innermost frame."""
    kinds = Counter()
    for frames, count in stacks:
        kinds[kind_of(frames[-1])] += count
    return kinds


def inclusive(stacks, project_only: bool) -> Counter:
    """Samples in which each function appears at least once."""
    found = Counter()
    for frames, count in stacks:
        names = set()
        for frame in frames:
            match = FRAME.match(frame)
            label = f"{match['name']} ({match['file'].split('/wt-fanout/')[-1]})" if match else frame
            if not project_only or kind_of(frame) == "project code":
                names.add(label)
        for name in names:
            found[name] += count
    return found


def summary(path: Path, top: int = 20) -> str:
    """The printed summary of one profile."""
    stacks = parse(path)
    total = sum(n for _, n in stacks)
    working = busy(stacks)
    work = sum(n for _, n in working) or 1
    lines = [f"{path}: {total} samples, {work} busy ({100 * work / max(1, total):.0f}%)", "own time by kind:"]
    for kind, count in own_time_by_kind(working).most_common():
        lines.append(f"  {100 * count / work:5.1f}%  {kind}")
    lines.append("project functions, share of busy samples (inclusive):")
    for name, count in inclusive(working, True).most_common(top):
        lines.append(f"  {100 * count / work:5.1f}%  {name}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--top", type=int, default=20)
    args = parser.parse_args()
    for path in args.files:
        print(summary(path, args.top))


if __name__ == "__main__":
    main()
