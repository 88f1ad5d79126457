"""Bounds on what the rules engines read, so that no file or frame can make them work without end."""

from __future__ import annotations

MAX_FILE_BYTES = 1_000_000  # an encounter file of a real table is a few kilobytes
MAX_FILE_DEPTH = 32  # objects and arrays inside each other
MAX_INT_DIGITS = 18  # every number of a file fits in 64 bits
MAX_FACES = 200  # dice of one roll: a stress die of 200 ones is already beyond any table
MAX_OUTPUT_CHARS = 5_000_000  # the command line never writes more than this


def nesting(text: str) -> int:
    """How deep the JSON text's objects and arrays nest, read without parsing it."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            escaped, in_string = (False, True) if escaped else (char == "\\", char != '"')
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest
