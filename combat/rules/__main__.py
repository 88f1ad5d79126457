"""Command line: `python -m combat.rules resolve FILE.json` prints the resolution as JSON."""

from __future__ import annotations

import argparse
import json
import os
import sys

from .errors import EncounterFileError, RulesError


def _load(path: str) -> dict:
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except OSError as error:
        raise EncounterFileError("", f"cannot read {path}: {error.strerror}") from None
    except json.JSONDecodeError as error:
        raise EncounterFileError(
            "", f"{path} is not JSON: {error.msg} at line {error.lineno} column {error.colno}"
        ) from None
    if not isinstance(data, dict):
        raise EncounterFileError("", "expected a JSON object at the top of the file")
    return data


def resolve_file(data: dict) -> dict:
    """Resolve an encounter file already read as JSON, by its `rules`, through the registry."""
    from combat import systems

    rules = data.get("rules")
    try:
        system = systems.get(rules) if isinstance(rules, str) else None
    except systems.UnknownSystem:
        system = None
    if system is None:
        keys = " or ".join(f'"{each.key}"' for each in systems.all_systems())
        raise EncounterFileError("rules", f"expected {keys}, got {rules!r}")
    return system.resolve_file(data)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m combat.rules", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    resolve_parser = commands.add_parser("resolve", help="resolve an encounter file")
    resolve_parser.add_argument("file", help="path to the encounter's JSON file")
    args = parser.parse_args(argv)
    try:
        result = resolve_file(_load(args.file))
    except RulesError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    try:
        json.dump(result, sys.stdout, indent=2)
        sys.stdout.write("\n")
        sys.stdout.flush()
    except BrokenPipeError:  # the reader stopped early (`| head`): not an error of ours
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


if __name__ == "__main__":
    sys.exit(main())
