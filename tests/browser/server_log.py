"""The tracebacks in a Daphne's log: what tests/browser/conftest.py's check reads after every browser test.

A traceback is the whole of one logged exception: the line that introduced it (Daphne's "Exception inside
application: …", Django's "Internal Server Error: /path"), each "Traceback (most recent call last):" of its
chain with the lines between ("The above exception was the direct cause…", "During handling…"), down to
the last exception's line."""

from __future__ import annotations

import re

START = "Traceback (most recent call last):"
CHAINED = re.compile(r"^(The above exception was the direct cause|During handling of the above exception)")
ACCESS = re.compile(r"^\S+:\d+ - - \[")  # a line of Daphne's access log


def tracebacks(text: str) -> list[str]:
    """Each logged exception in `text`, as one string from the line before its first traceback to the
    last exception's line."""
    lines = text.splitlines()
    found, i = [], 0
    while i < len(lines):
        if lines[i] != START:
            i += 1
            continue
        first = max(i - 1, 0)
        i = _past_chain(lines, i)
        found.append("\n".join(lines[first:i]))
    return found


def _past_chain(lines: list[str], i: int) -> int:
    """The index after the chain of tracebacks that starts at line `i`: each traceback's frames (indented)
    and its exception's line, then on to the next traceback while a chaining line joins them."""
    while True:
        i += 1
        while i < len(lines) and (lines[i].startswith((" ", "\t")) or not lines[i].strip()):
            i += 1
        i = min(i + 1, len(lines))  # the exception's line, and the rest of a message of several lines
        while i < len(lines) and lines[i].strip() and lines[i] != START and not ACCESS.match(lines[i]):
            i += 1  # PostgreSQL's: "LINE 1: SELECT …" and the caret under the error
        following = i
        while following < len(lines) and not lines[following].strip():
            following += 1
        if following < len(lines) and CHAINED.match(lines[following]):
            while following < len(lines) and lines[following] != START:
                following += 1
            if following < len(lines):
                i = following
                continue
        return i


def unexpected(found: list[str], expected: tuple[str, ...]) -> tuple[list[str], list[str]]:
    """The tracebacks that name none of `expected`, and the expected texts no traceback names."""
    stray = [trace for trace in found if not any(text in trace for text in expected)]
    missing = [text for text in expected if not any(text in trace for trace in found)]
    return stray, missing
