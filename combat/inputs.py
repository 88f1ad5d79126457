"""Input at the edge: whole numbers in ASCII digits and within bounds, text without control
characters, record ids that fit the database. Forms and view parsers use these; services get
values already checked."""

from __future__ import annotations

import re

from django import forms
from django.core.exceptions import ValidationError

from .errors import InvalidCommand

MAX_ID = 2**63 - 1  # a 64-bit primary key: anything longer is no record of ours
_WHOLE = re.compile(r"[+-]?[0-9]{1,9}")  # ASCII digits only: '٣' and '²' are not numbers here
_DIGITS = re.compile(r"[+-]?[0-9]+")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")  # NUL and the other C0 controls, DEL
_LINE_BREAK = re.compile(r"[\n\r\t]")


def whole_number(text, what: str, low: int, high: int) -> int:
    """`text` as a whole number from `low` to `high`, or InvalidCommand saying so, for a person."""
    text = text.strip() if isinstance(text, str) else ""
    if not _DIGITS.fullmatch(text):
        raise InvalidCommand(f"{what} must be a whole number (digits 0 to 9).")
    number = int(text) if _WHOLE.fullmatch(text) else None  # past nine digits: out of any bound here
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
    if _CONTROL.search(text) or _LINE_BREAK.search(text):
        raise InvalidCommand(f"{what} cannot hold control characters.")
    if len(text) > max_length:
        raise InvalidCommand(f"{what} is at most {max_length} characters.")
    return text.strip()


def refuse_control_characters(value: str) -> None:
    """A validator: text fields take no NUL or other control characters (line breaks are fine)."""
    if isinstance(value, str) and _CONTROL.search(value):
        raise ValidationError("Remove the control characters from this text.", code="control")


class WholeNumberField(forms.IntegerField):
    """An integer field that reads ASCII digits only and never more than nine of them."""

    def to_python(self, value):
        if value in self.empty_values or (isinstance(value, str) and not value.strip()):
            return None
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if not isinstance(value, str) or not _WHOLE.fullmatch(value.strip()):
            raise ValidationError(self.error_messages["invalid"], code="invalid")
        return int(value.strip())


class RefusesControlCharacters:
    """A form mixin: every text field of the form refuses control characters."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            if isinstance(field, forms.CharField):
                field.validators.append(refuse_control_characters)


class RecordIdConverter:
    """A URL id: 1 to 18 ASCII digits, so that no id in a URL overflows a 64-bit column."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value) -> str:
        return str(int(value))


class InviteTokenConverter:
    """An invite token in a URL: URL-safe characters only, so no NUL or other byte reaches a query."""

    regex = "[A-Za-z0-9_-]{1,64}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value) -> str:
        return str(value)
