"""Plain input at the edge, for every floor: form fields that read ASCII digits only and refuse control
characters, and the URL converters for ids and invite tokens. A command's own parsers (refused with the
table's `InvalidCommand`) are combat.inputs."""

from __future__ import annotations

import re

from django import forms
from django.core.exceptions import ValidationError

WHOLE = re.compile(r"[+-]?[0-9]{1,9}")  # ASCII digits only: '٣' and '²' are not numbers here
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")  # NUL and the other C0 controls, DEL


def refuse_control_characters(value: str) -> None:
    """A validator: text fields take no NUL or other control characters (line breaks are fine)."""
    if isinstance(value, str) and CONTROL.search(value):
        raise ValidationError("Remove the control characters from this text.", code="control")


class WholeNumberField(forms.IntegerField):
    """An integer field that reads ASCII digits only and never more than nine of them."""

    def to_python(self, value):
        if value in self.empty_values or (isinstance(value, str) and not value.strip()):
            return None
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if not isinstance(value, str) or not WHOLE.fullmatch(value.strip()):
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
