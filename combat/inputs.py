"""A command's input at the edge: whole numbers in ASCII digits and within bounds, text without control
characters, record ids that fit the database, each refused with `InvalidCommand`. View parsers use these;
services get values already checked. The forms' fields and the URLs' converters are campaign.inputs'."""

from __future__ import annotations

import re

from campaign.inputs import CONTROL, WHOLE

from .errors import InvalidCommand

MAX_ID = 2**63 - 1  # a 64-bit primary key: anything longer is no record of ours
_DIGITS = re.compile(r"[+-]?[0-9]+")
_LINE_BREAK = re.compile(r"[\n\r\t]")


def whole_number(text, what: str, low: int, high: int) -> int:
    """`text` as a whole number from `low` to `high`, or InvalidCommand saying so, for a person."""
    text = text.strip() if isinstance(text, str) else ""
    if not _DIGITS.fullmatch(text):
        raise InvalidCommand(f"{what} must be a whole number (digits 0 to 9).")
    number = int(text) if WHOLE.fullmatch(text) else None  # past nine digits: out of any bound here
    if number is None or not low <= number <= high:
        shown = text if len(text) <= 12 else f"{text[:12]}…"
        raise InvalidCommand(f"{what} goes from {low} to {high}, not {shown}.")
    return number


def optional_whole_number(text, what: str, low: int, high: int) -> int | None:
    """None for a blank entry, else `whole_number`."""
    if not (text or "").strip():
        return None
    return whole_number(text, what, low, high)


def record_ids(values, what: str = "Choose from the list") -> list[int]:
    """Posted record ids (checkboxes) as ints; anything else is refused, not looked up."""
    values = list(values)
    if len(values) > 500 or not all(isinstance(v, str) and is_digits(v, 18) for v in values):
        raise InvalidCommand(f"{what}: those are not ids of this page.")
    return [int(value) for value in values]


def is_digits(token: str, longest: int) -> bool:
    """True when `token` is 1 to `longest` ASCII digits."""
    return bool(re.fullmatch(f"[0-9]{{1,{longest}}}", token))


def plain_text(text, what: str, max_length: int) -> str:
    """One line of text: no control characters, at most `max_length` characters, trimmed."""
    text = text if isinstance(text, str) else ""
    if CONTROL.search(text) or _LINE_BREAK.search(text):
        raise InvalidCommand(f"{what} cannot hold control characters.")
    if len(text) > max_length:
        raise InvalidCommand(f"{what} is at most {max_length} characters.")
    return text.strip()
