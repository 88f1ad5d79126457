"""Command line: `python -m combat.rules resolve FILE.json` prints the resolution as JSON."""

from __future__ import annotations

import argparse
import json
import os
import sys

from .errors import EncounterFileError, RulesError
from .limits import MAX_FILE_BYTES, MAX_FILE_DEPTH, MAX_INT_DIGITS, MAX_OUTPUT_CHARS, nesting


def _bounded_int(digits: str) -> int:
    """A JSON integer of at most MAX_INT_DIGITS digits (no 5,000-digit numbers)."""
    if len(digits.lstrip("-")) > MAX_INT_DIGITS:
        raise EncounterFileError("", f"a number of {len(digits)} digits: at most {MAX_INT_DIGITS}")
    return int(digits)


def _text(path: str) -> str:
    """The file as UTF-8 text, at most MAX_FILE_BYTES."""
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_FILE_BYTES + 1)
    except OSError as error:
        raise EncounterFileError("", f"cannot read {path}: {error.strerror}") from None
    if len(raw) > MAX_FILE_BYTES:
        raise EncounterFileError("", f"{path} is larger than {MAX_FILE_BYTES} bytes")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise EncounterFileError("", f"{path} is not UTF-8 text (byte {error.start})") from None


def _load(path: str) -> dict:
    text = _text(path)
    if nesting(text) > MAX_FILE_DEPTH:
        raise EncounterFileError("", f"{path} nests deeper than {MAX_FILE_DEPTH} levels")
    try:
        data = json.loads(text, parse_int=_bounded_int)
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
    return system.files.resolve(data)


def _output(result: dict) -> str:
    """The resolution as indented JSON, refused when longer than MAX_OUTPUT_CHARS."""
    output = json.dumps(result, indent=2)
    if len(output) > MAX_OUTPUT_CHARS:
        raise EncounterFileError(
            "", f"the resolution runs past {MAX_OUTPUT_CHARS} characters; shorten the file"
        )
    return output


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m combat.rules", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    resolve_parser = commands.add_parser("resolve", help="resolve an encounter file")
    resolve_parser.add_argument("file", help="path to the encounter's JSON file")
    args = parser.parse_args(argv)
    try:
        output = _output(resolve_file(_load(args.file)))
    except RulesError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    try:
        sys.stdout.write(output + "\n")
        sys.stdout.flush()
    except BrokenPipeError:  # the reader stopped early (`| head`): not an error of ours
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


if __name__ == "__main__":
    sys.exit(main())
